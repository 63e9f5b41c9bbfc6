import { resolve } from 'node:path';
import { expect, test } from '../../support/fixtures.ts';
import { GIFT_PHOTOS_DIR, paths } from '../../support/paths.ts';

// The sender photographed cover 001 (the fixtures' default gift); the recipient's camera sees a phone photo of it.
test.use({ camera: resolve(GIFT_PHOTOS_DIR, 'covers/photos/001-canon.jpg') });

/**
 * Live scanning (decision 030): the goal is the message page under 1.5 s after the camera is ready, with no tap. That
 * figure is the machine's as much as the page's, so the test checks the order of what happens and prints the figure;
 * `npm run bench:live-scan` (this spec with LIVE_SCAN_BENCH=1, on a quiet machine) also holds it to the goal.
 */
const READY_TO_MESSAGE_MS = 1500;
const BENCH = Boolean(process.env.LIVE_SCAN_BENCH);

declare global {
  interface Window {
    /** performance.now() when the camera's <video> started playing, and when the message page's URL was reached */
    __scanTimes?: { playing?: number; message?: number };
  }
}

test('a genuine gift in front of the camera opens the message by live scanning alone: frames one at a time from the camera being ready, the page opened on the last answer', async ({
  page,
  paidGift,
}) => {
  const gift = await paidGift({ message: { kind: 'text', text: 'Found you without a single tap.' } });
  const messagePath = paths.giftMessage.href(gift.giftId);
  // Times taken in the page itself (one clock, no polling from the test): `playing` of the camera's video (media
  // events do not bubble, so listen in the capture phase) and the first frame whose URL is the message page's.
  await page.addInitScript((target) => {
    const times: { playing?: number; message?: number } = {};
    window.__scanTimes = times;
    document.addEventListener('playing', () => (times.playing ??= performance.now()), true);
    const watch = () => {
      if (location.pathname === target) times.message ??= performance.now();
      else requestAnimationFrame(watch);
    };
    requestAnimationFrame(watch);
  }, messagePath);

  await page.goto(paths.scanningCamera.href(gift.giftId, 'direct'));
  await expect(page).toHaveURL(messagePath, { timeout: 30_000 });
  await expect(page.getByText('Found you without a single tap.')).toBeVisible();

  const times = await page.evaluate(() => window.__scanTimes);
  // The live frames sent, from the page's resource timing on the same clock: when each left and its answer came.
  const frames = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => e.name.includes('/live-frame/'))
      .map((e) => ({ start: e.startTime, end: (e as PerformanceResourceTiming).responseEnd })),
  );
  const photos = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/process-scan')).length);
  expect(times?.playing).toBeDefined();
  expect(times?.message).toBeDefined();
  const elapsed = times!.message! - times!.playing!;
  const since = (t: number) => (t - times!.playing!).toFixed(0);
  console.log(
    `live scan: camera ready -> message page ${elapsed.toFixed(0)} ms; frames (sent-answered, ms after ready): ` +
      frames.map((f) => `${since(f.start)}-${since(f.end)}`).join(', '),
  );
  // No tap: no photo was sent, only live frames; the first left once the camera was ready, each after the one before
  // was answered, and the message page came after the last answer (the decisive one).
  expect(photos).toBe(0);
  expect(frames.length).toBeGreaterThan(0);
  expect(frames[0]!.start).toBeGreaterThanOrEqual(times!.playing!);
  for (let i = 1; i < frames.length; i++) expect(frames[i]!.start).toBeGreaterThanOrEqual(frames[i - 1]!.end);
  expect(times!.message!).toBeGreaterThanOrEqual(frames.at(-1)!.end);
  if (BENCH) expect(elapsed, 'camera ready -> message page (ms), the goal of decision 030').toBeLessThan(READY_TO_MESSAGE_MS);
});
