/**
 * Loader and minimal typed facade for @techstark/opencv-js (OpenCV 4.12 compiled to WebAssembly).
 *
 * The package's module object is a thenable that never settles when awaited, so we never `await` it:
 * we wait for `onRuntimeInitialized` and then delete its `then`.
 * Every Mat/KeyPointVector/DMatchVector created through this facade must be freed with `.delete()`.
 */
import { createRequire } from 'node:module';

export interface Deletable {
  delete(): void;
}

export interface Mat extends Deletable {
  rows: number;
  cols: number;
  data: Uint8Array;
  data32F: Float32Array;
  data64F: Float64Array;
  empty(): boolean;
  type(): number;
  roi(rect: Rect): Mat;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface KeyPoint {
  pt: { x: number; y: number };
  size: number;
  angle: number;
  response: number;
  octave: number;
  class_id: number;
}

export interface KeyPointVector extends Deletable {
  size(): number;
  get(i: number): KeyPoint;
}

export interface DMatch {
  queryIdx: number;
  trainIdx: number;
  imgIdx: number;
  distance: number;
}

export interface DMatchVector extends Deletable {
  size(): number;
  get(i: number): DMatch;
}

export interface DMatchVectorVector extends Deletable {
  size(): number;
  get(i: number): DMatchVector;
}

export interface Feature2D extends Deletable {
  detectAndCompute(image: Mat, mask: Mat, keypoints: KeyPointVector, descriptors: Mat, useProvided?: boolean): void;
  detect(image: Mat, keypoints: KeyPointVector, mask?: Mat): void;
  compute(image: Mat, keypoints: KeyPointVector, descriptors: Mat): void;
}

export interface ORB extends Feature2D {
  setMaxFeatures(n: number): void;
  setFastThreshold(t: number): void;
}

export interface BFMatcher extends Deletable {
  knnMatch(query: Mat, train: Mat, matches: DMatchVectorVector, k: number): void;
  match(query: Mat, train: Mat, matches: DMatchVector): void;
}

export interface Size {
  width: number;
  height: number;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Scalar {}

export interface CV {
  Mat: {
    new (): Mat;
    new (rows: number, cols: number, type: number): Mat;
    zeros(rows: number, cols: number, type: number): Mat;
  };
  matFromArray(rows: number, cols: number, type: number, data: ArrayLike<number>): Mat;
  KeyPointVector: new () => KeyPointVector;
  DMatchVector: new () => DMatchVector;
  DMatchVectorVector: new () => DMatchVectorVector;
  ORB: new (
    nfeatures?: number,
    scaleFactor?: number,
    nlevels?: number,
    edgeThreshold?: number,
    firstLevel?: number,
    WTA_K?: number,
    scoreType?: number,
    patchSize?: number,
    fastThreshold?: number,
  ) => ORB;
  AKAZE: new () => Feature2D;
  BFMatcher: new (normType?: number, crossCheck?: boolean) => BFMatcher;
  findHomography(
    src: Mat,
    dst: Mat,
    method: number,
    ransacReprojThreshold: number,
    mask: Mat,
    maxIters?: number,
    confidence?: number,
  ): Mat;
  GaussianBlur(src: Mat, dst: Mat, ksize: Size, sigmaX: number, sigmaY?: number, borderType?: number): void;
  resize(src: Mat, dst: Mat, dsize: Size, fx?: number, fy?: number, interpolation?: number): void;
  Rect: new (x: number, y: number, width: number, height: number) => Rect;
  INTER_LINEAR_EXACT: number;
  BORDER_REFLECT_101: number;
  getPerspectiveTransform(src: Mat, dst: Mat): Mat;
  warpPerspective(src: Mat, dst: Mat, M: Mat, dsize: Size, flags?: number, borderMode?: number, borderValue?: Scalar): void;
  Scalar: new (a: number, b?: number, c?: number, d?: number) => Scalar;
  INTER_LINEAR: number;
  INTER_AREA: number;
  /** flag for warpPerspective: M maps the output's pixels into the source's */
  WARP_INVERSE_MAP: number;
  BORDER_CONSTANT: number;
  Size: new (w: number, h: number) => Size;
  CV_8UC1: number;
  CV_8UC3: number;
  CV_8UC4: number;
  CV_32FC2: number;
  CV_32F: number;
  CV_8U: number;
  NORM_HAMMING: number;
  RANSAC: number;
  RHO: number;
  USAC_MAGSAC?: number;
  USAC_DEFAULT?: number;
  ORB_HARRIS_SCORE: number;
  ORB_FAST_SCORE: number;
}

let ready: Promise<CV> | undefined;
let loaded: CV | undefined;

/** The module loadCv() has loaded on this thread (a query's features exist only after it did). */
export function loadedCv(): CV {
  if (!loaded) throw new Error('OpenCV is not loaded on this thread yet (await loadCv() first)');
  return loaded;
}

/** Loads (once per thread) and returns the initialised OpenCV module. */
export function loadCv(): Promise<CV> {
  ready ??= new Promise<CV>((resolve, reject) => {
    try {
      const require = createRequire(import.meta.url);
      const mod = require('@techstark/opencv-js') as Record<string, unknown> & { onRuntimeInitialized?: () => void };
      const finish = (): void => {
        // The module is a thenable that never settles: drop `then` so nothing awaits it by accident.
        delete mod.then;
        loaded = mod as unknown as CV;
        resolve(loaded);
      };
      if (typeof mod.Mat === 'function' && typeof mod.ORB === 'function') finish();
      else mod.onRuntimeInitialized = finish;
    } catch (err) {
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
  return ready;
}

/** Runs `fn` and deletes every listed OpenCV object afterwards, whatever happens. */
export function using<T>(objects: Deletable[], fn: () => T): T {
  try {
    return fn();
  } finally {
    for (const o of objects) o.delete();
  }
}
