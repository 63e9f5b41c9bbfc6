/**
 * The recognition recipe's settings (CONFIG), each with the measurement behind it, and the reference recipe's number.
 * See README.md for the recipe and the decision threshold.
 */

/**
 * A scan that misses while its best candidate covers less than this share of the photo asks the person to move
 * closer (decision 047): the misses were gifts at about a tenth of the frame; the hard cases recognise gifts
 * at 16% of it, so the hint comes between the two.
 */
export const MOVE_CLOSER_BELOW = 0.15;
export const CONFIG = {
  /** reference photos are normalised to fit inside this square */
  refSide: 640,
  refFeatures: 800,
  refLevels: 8,
  /** queries (already <= 600 px from the browser) are normalised to fit inside this square */
  querySide: 540,
  queryFeatures: 1000,
  /**
   * 4 levels x 1.2 cover a gift up to 1.7x larger in the query than in the reference (smaller: the reference's 8).
   * Was 6 (decision 026); 4 puts more of the 1000 keypoints on the base level, where small gifts are (decision 028).
   */
  queryLevels: 4,
  queryScale: 1.2,
  /**
   * Scans are decided on the grey layer first; the colour layers are extracted and matched only when the grey
   * evidence stays under the bar. The evidence is the better of grey alone and grey + colour pooled, so the decision
   * is the same whichever order (README "Cheaper scans"). false = always both (the recipe before, for the bench).
   */
  greyFirst: true,
  /**
   * Early exit (with greyFirst): the colour layers are only tried when the grey layer alone found at least this many
   * geometrically consistent correspondences for the best candidate; under it the frame shows no known gift as far
   * as grey can tell, and colour is not worth its CPU. 0 = always try colour when grey stays under the bar.
   * Set by cross-validation and the hard cases (README "Cheaper scans", decision 028).
   */
  colourGate: 1,
  /**
   * Two more feature layers from colour-opponent channels (red-green, yellow-blue) at half size, on both sides:
   * corners between coloured parts that grey texture around them drowns out (toy blocks on a carpet).
   */
  chromaStep: 2,
  chromaFeatures: 300,
  refChromaLevels: 5,
  queryChromaLevels: 2,
  fastThreshold: 20,
  grid: 0,
  ratio: 0.8,
  /** px in the reference: a second neighbour this close to the first is the same spot, not a rival (ratio test) */
  sameSpot: 10,
  /** px: keypoints in the same cell of this size, on one side, count as one point (a corner found in two layers) */
  samePoint: 3,
  /** with more references than this, a cheap first pass (strongest features only) picks which to verify fully */
  shortlist: 3,
  shortlistQueryFeatures: 330,
  shortlistRefFeatures: 270,
  /**
   * decision: at least this many geometrically consistent, one-to-one correspondences. Set by leave-gifts-out
   * cross-validation (`npm run -s crossval`, README "Calibration", decision 028): with ratio 0.8 the worst impostor of
   * the data set is 11, plus a margin of 4, the smallest margin whose bar, set on the training gifts of each of 5
   * folds, clears every held-out impostor by at least 2 inliers. (Ratio 0.85, decision 026: 18 + 4 = 22.)
   */
  minInliers: 15,
  /**
   * ... spread over at least this fraction of the reference's 6x6 grid cells. Cross-validation never found a fold
   * where a spread condition (1..6 cells) changed a decision at the bar above, so there is none (was 3/36).
   */
  minSpread: 0,
  /**
   * ORB descriptors computed by describe.ts (WebAssembly blur and sampling, the same bits as OpenCV's) for OpenCV's
   * keypoints; false = OpenCV.js's detectAndCompute (before decision 033, for the bench's earlier recipes).
   */
  ownDescriptors: true,
  /** false = read the photo's header before decoding it, as before decision 033 (the bench's earlier recipes) */
  decodeInOnePass: true,
  /**
   * First pass (with greyFirst): a scan is compared on the grey keypoints of the base pyramid level alone (322 of
   * the 1000, exactly those the whole extraction keeps there) and accepted at once when they reach the bar; only
   * otherwise are the other levels extracted and compared. The evidence is the better of the two (decision 033).
   */
  firstPass: true,
  /**
   * The second look (decision 047): when a scan stays under the bar but its best candidate's evidence has
   * at least this many inliers, the query picture is warped by that evidence's model into the reference's frame (the
   * gift upright, its tilt undone, enlarged up to 2x where it was small) and looked at again: grey ORB on the warped
   * picture, compared with that reference's grey layer. The evidence is the better of the two looks, judged by the
   * same bar. 0 = off (the recipe before decision 047). Chosen by leave-gifts-out cross-validation on the data set and the
   * hard cases (README "Hard cases real phones take").
   */
  secondLook: 6,
  /**
   * Evidence from the second look decides only at this many inliers or more: the highest impostor measured with a
   * second look (12, a glare scene; README "Hard cases") plus the 4-inlier margin every bar keeps (decision 026).
   * Without it the second look would cut the headroom over the worst impostor from 7 to 3.
   */
  secondLookBar: 16,
  /** the warped picture: up to this many times the gift's size in the query, and never larger than the reference */
  secondLookZoom: 2,
  /** ... with this share of the reference's width / height added on each side (the model is only approximate) */
  secondLookMargin: 0.15,
  /**
   * The zoomed look (decision 052): when a scan stays under the bar after both looks above, the middle of the query
   * picture (CONFIG.zoomCentre of its width and height) is enlarged this many times and its grey ORB, on one pyramid
   * level, compared with the candidates' grey layers; where that finds a model of CONFIG.secondLook+ inliers, a second
   * look follows from it. A gift under ~180 px in the query is smaller than the smallest of the reference's 8 levels
   * (640 / 1.2^7) and has few corners FAST can see at that size: enlarged, it has them, on a scale the reference
   * shares. 0 = off (the recipe before decision 052). Its settings were compared on the hard cases for what they
   * recognise and cost (`npm run -s zoomvariants`), then cross-validated with the data set (README "The zoomed look").
   */
  zoomLook: 2,
  /** ... of this share of the picture's width and height, centred (where the scanner's guide asks for the gift) */
  zoomCentre: 0.7,
  /** ... ORB levels on the enlarged picture (the first look already covers the picture's own scale and below) */
  zoomLevels: 1,
  /** ... and this many keypoints */
  zoomFeatures: 1000,
  /**
   * Evidence of the zoomed look (or of the second look that follows it) decides only at this many inliers or more,
   * the second look's bar: the highest impostor the zoomed look reached is 8 of 4,956 impostor comparisons (README
   * "The zoomed look"), 8 under it; with the whole picture enlarged it had reached 12, 4 under it.
   */
  zoomLookBar: 16,
  /**
   * The tilted look (decision 053): a gift photographed at a steep angle (60-70 degrees) is squeezed in the query to
   * a half or a third along one direction, which ORB's descriptors do not undo. At enrolment the reference is also
   * seen squeezed this many times along each of CONFIG.tiltDirections directions (tiltedViews: a 60 degree tilt for 2),
   * its grey ORB on CONFIG.tiltLevels levels kept as one more layer, every keypoint in the reference's own pixels. When a
   * scan stays under the bar after every look above, the query's base-level grey keypoints (those the first pass
   * compares) are compared with that layer, and where that finds a model of CONFIG.secondLook+ inliers, a second look
   * follows from it (the query warped upright, its tilt undone). 0 = off, and references enrolled without the layer
   * (before decision 053) are not given the look. Compared by `npm run -s tiltvariants`, cross-validated with the data
   * set and the hard cases (README "The tilted look").
   */
  tiltLook: 2,
  /** ... along this many directions, evenly spread over 180 degrees (0, 60 and 120) */
  tiltDirections: 3,
  /** ... with this many grey keypoints for each direction */
  tiltFeatures: 400,
  /** ... on this many pyramid levels (x1.2), as the reference's own grey layer: the squeezed gift is small in the query */
  tiltLevels: 8,
  /** Evidence of the tilted look (or of the second look that follows it) decides only at this many inliers or more. */
  tiltLookBar: 16,
  /**
   * The whole-gift check (decision 056): no look decides on inliers alone. Evidence at its look's bar decides only when
   * the reference's appearance, placed in the photo by the evidence's model, agrees with the photo cell by cell in
   * structure and colour (appearance.ts, WHOLE_GIFT), and when its inliers cover at least CONFIG.minCoverage of the
   * reference's cells that hold features. References enrolled since decision 056 carry their appearance; older ones
   * are judged on coverage alone until they are enrolled again. false = off (the recipe before decision 056).
   */
  wholeGift: true,
  /**
   * Share of the reference's feature-holding cells (a 6x6 grid) that must hold an inlier: evidence confined to a logo
   * or one band never decides, however many inliers it has (decision 056).
   */
  minCoverage: 0.2,
};

/**
 * What enrol() puts in a reference, by the decision that last changed it: 53 = grey, two colour layers and the tilted
 * views (decision 053). A store that keeps references enrols again those made by an older recipe (the server's
 * housekeeping); references of any recipe stay readable and match as they did.
 */
export const REFERENCE_RECIPE = 56;
