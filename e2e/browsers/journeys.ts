import { COVER_001, uniqueEmail } from '../support/fixtures.ts';
import { waitForCode } from '../support/mailbox.ts';
import { smallVideo } from '../support/media.ts';
import { button, CAMERA_PHOTO, test, cameraPicture, installCanvasCamera, waitForPath, waitForText, waitUntil, type SmokeBrowser } from '../support/other-browsers.ts';
import { paths } from '../support/paths.ts';

// The smoke journeys, the same in every browser (e2e/browsers/*.smoke.spec.ts).

/** The prerendered landing page, hydrated. */
export async function landing(b: SmokeBrowser): Promise<void> {
  await b.goto(paths.home.href());
  await waitForText(b, 'Put your voice inside every gift');
  await waitUntil(b, "document.documentElement.hasAttribute('data-app-ready')", 'the app hydrated');
  await b.click(button('Get Started'));
  await waitForText(b, 'Start Your Gift Journey');
}

/** A new sender from /send to the share page: e-mail code, name, plan, details with a photo, a video, the test checkout. */
export async function senderToPayment(b: SmokeBrowser, mailDir: string): Promise<void> {
  const email = uniqueEmail(`${b.name}-sender`);
  await b.goto(paths.send.href());
  await waitForText(b, 'Start Your Gift Journey');
  await b.type('input[name="email"]', email);
  const since = Date.now();
  await b.click(button('Continue'));
  const code = await waitForCode(mailDir, email, since);
  // Typing moves from box to box; the sixth digit submits the code.
  await b.type('input[aria-label="Digit 1 of 6"]', code);

  await waitForText(b, 'Welcome');
  await b.type('input[name="firstName"]', 'Asha');
  await b.click(button('Continue'));

  await waitForText(b, 'Choose Your Plan');
  await b.click(button('Continue'));

  await waitForText(b, 'Add Gift Details');
  await b.select('select[name="occasion"]', 'birthday');
  await b.type('input[name="recipientName"]', 'Ravi');
  await b.type('input[name="recipientEmail"]', uniqueEmail(`${b.name}-ravi`));
  await b.upload('input[type="file"][accept^="image"]', COVER_001);
  await waitUntil(b, "[...document.images].some((i) => /preview/i.test(i.alt) && i.complete)", 'the photo preview');
  await b.click(button('Continue'));

  await b.upload('input[aria-label="Upload video file"]', smallVideo());
  await waitUntil(b, "document.querySelector('video[aria-label=\"Message preview\"]')", 'the video preview');
  await b.click(button('Continue to Checkout'));

  // The message uploads and the server checks it first (slow on a busy machine).
  await waitUntil(b, `location.pathname.startsWith('/checkout/')`, 'the checkout', 45_000);
  await waitForText(b, 'Ravi');
  // Pay is enabled once the message is converted.
  await b.click('//button[starts-with(normalize-space(), "Pay")]');
  await waitForText(b, 'Your Message is Ready!', 30_000);
}

/**
 * A recipient opens the gift link, the camera (a canvas showing a phone photo of the gift) finds the gift, and Play
 * starts the message. On a Lifetime gift, `react` answers the question: record the reaction, or just play.
 */
export async function recipientToPlayingMessage(b: SmokeBrowser, giftId: string, react?: 'record' | 'just play'): Promise<void> {
  await b.goto(paths.shareLink.href(giftId));
  await waitForText(b, 'Hi Ravi!');
  // Where the driver cannot run a script before the page's own (classic WebDriver), the camera is put in place here:
  // the app navigates to the camera without loading a new document. (Where it already is, this does nothing.)
  await b.evaluate(`(${installCanvasCamera.toString()})(${JSON.stringify(cameraPicture(CAMERA_PHOTO))})`);
  await b.click(button('Start the Magic'));
  await waitForPath(b, paths.giftMessage.href(giftId), 30_000);
  await waitForText(b, 'A Special Message For You');
  await b.click(button('Play message'));
  if (react) await b.click(button(react === 'record' ? 'Play & Record Video' : 'Just Play'));
  await waitUntil(b, "document.querySelector('video')?.currentTime > 0.2", 'the message playing', 15_000);
  if (react === 'record') await waitForText(b, 'Your video reaction has been captured and saved!', 30_000);
}

/**
 * The smoke suite of one browser: the landing page, the sender journey to the share page, and the recipient journey
 * by link to a playing message, on a Lifetime gift answered with `answer` (recording a reaction, or just playing).
 */
export function smokeSuite(browser: 'firefox' | 'webkit', label: string, answer: 'record' | 'just play'): void {
  test.use({ smokeBrowser: browser });

  test(`${label}: the landing page, hydrated, leads to /send`, async ({ smoke }) => {
    await landing(smoke);
  });

  test(`${label}: a new sender goes from /send to the share page through the test checkout`, async ({ smoke, mailDir }) => {
    await senderToPayment(smoke, mailDir);
  });

  test(`${label}: a recipient opens the gift link, the camera finds the gift, and the video message plays`, async ({ smoke, paidGift }) => {
    const gift = await paidGift({ message: { kind: 'video', file: smallVideo(), type: 'video/mp4' } });
    await recipientToPlayingMessage(smoke, gift.giftId);
  });

  const what = answer === 'record' ? 'records their reaction while the message plays' : 'chooses "Just Play" and the message plays';
  test(`${label}: on a Lifetime gift the recipient ${what}`, async ({ smoke, paidGift }) => {
    const gift = await paidGift({ planId: 'lifetime_us', message: { kind: 'video', file: smallVideo(), type: 'video/mp4' } });
    await recipientToPlayingMessage(smoke, gift.giftId, answer);
  });
}
