import { LIVE_SCAN } from '@giftlens/contract/constants';
import { texts } from '@giftlens/contract/texts';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { page } from 'vitest/browser';
import canon001 from '../../../../../../test-fixtures/gift-photos/covers/photos/001-canon.jpg';
import { paths } from '../../../config/paths.ts';
import { fakeScanServer, liveMiss, photoCamera, refusal, scanAnswer } from '../../../test/fake-scan-server.ts';
import { renderRoute } from '../../../test/render-route.tsx';
import { ScanningCameraPage } from '../components/scanning-camera-page.tsx';

const GIFT = '0123456789abcdef0123456789abcdef';
const scannerRoute = { path: paths.scanningCamera.pattern, element: <ScanningCameraPage /> };
const match = scanAnswer(GIFT, true);
const noMatch = scanAnswer(GIFT, false);
const budgetSpent = () => refusal(429, 'live_budget_spent', texts.recipient.liveBudgetSpent, 600);

let server: ReturnType<typeof fakeScanServer>;
const status = () => page.getByRole('status');
const takePhoto = () => page.getByRole('button', { name: 'Take Photo' });
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeEach(() => {
  server = fakeScanServer(GIFT);
});
afterEach(() => {
  expect(server.unexpected).toEqual([]);
  vi.restoreAllMocks();
  sessionStorage.clear();
});

describe('live scanning (Chromium, a camera that sees a gift photo)', () => {
  test('sends good frames without a tap, one at a time; a miss is silent and the first match opens the gift', async () => {
    await photoCamera(canon001);
    server.answerFrames([liveMiss, liveMiss, match], null);
    const started = performance.now();
    const { screen } = await renderRoute(scannerRoute, paths.scanningCamera.href(GIFT, 'direct'));
    await expect.element(status()).toHaveTextContent(texts.recipient.looking);
    await expect.element(screen.getByTestId('elsewhere')).toHaveTextContent(paths.matchResult.href(GIFT));

    expect(server.frames).toHaveLength(3);
    expect(server.scans).toHaveLength(0);
    // Frames are spaced by the live interval (none sent at once on top of another).
    expect(performance.now() - started).toBeGreaterThan(2 * LIVE_SCAN.intervalMs);
    for (const frame of server.frames) {
      const bitmap = await createImageBitmap(frame);
      expect(frame.type).toBe('image/jpeg');
      expect(Math.max(bitmap.width, bitmap.height)).toBe(600);
      expect(frame.size).toBeLessThanOrEqual(200 * 1024);
    }
  });

  test('live misses use no attempt; Take Photo does, and live frames pause while its dialog is open', async () => {
    await photoCamera(canon001);
    server.answerScans(noMatch);
    await renderRoute(scannerRoute, paths.scanningCamera.href(GIFT, 'direct'));
    await expect.poll(() => server.frames.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    await expect.element(page.getByText('Attempt 1 of 2')).toBeVisible();

    await takePhoto().click();
    const dialog = page.getByRole('dialog', { name: 'Gift not recognised' });
    await expect.element(dialog).toBeVisible();
    await expect.element(page.getByText('Attempt 2 of 2')).toBeVisible();
    const whileOpen = server.frames.length;
    await wait(3 * LIVE_SCAN.intervalMs);
    expect(server.frames).toHaveLength(whileOpen);

    await dialog.getByRole('button', { name: 'Try Again' }).click();
    await expect.poll(() => server.frames.length, { timeout: 10_000 }).toBeGreaterThan(whileOpen + 1);
    await expect.element(page.getByText('Attempt 2 of 2')).toBeVisible();
    expect(server.scans).toHaveLength(1);
  });

  test('once the live budget is spent no more frames are sent, the page says so, and Take Photo still works', async () => {
    await photoCamera(canon001);
    server.answerFrames([liveMiss, budgetSpent], null);
    server.answerScans(match);
    const { screen } = await renderRoute(scannerRoute, paths.scanningCamera.href(GIFT, 'direct'));
    await expect.element(status()).toHaveTextContent(texts.recipient.liveBudgetSpent);
    await wait(3 * LIVE_SCAN.intervalMs);
    expect(server.frames).toHaveLength(2);

    await takePhoto().click();
    await expect.element(screen.getByTestId('elsewhere')).toHaveTextContent(paths.matchResult.href(GIFT));
    expect(server.scans).toHaveLength(1);
  });

  test('too many frames or a busy server: waits for Retry-After, then goes on looking', async () => {
    await photoCamera(canon001);
    server.answerFrames([() => refusal(429, 'too_many_frames', texts.recipient.tooManyFrames, 2), match], null);
    const { screen } = await renderRoute(scannerRoute, paths.scanningCamera.href(GIFT, 'direct'));
    await expect.poll(() => server.frames.length, { timeout: 10_000 }).toBe(1);
    const refusedAt = performance.now();
    await expect.element(status()).toHaveTextContent(texts.recipient.looking);
    await expect.element(screen.getByTestId('elsewhere')).toHaveTextContent(paths.matchResult.href(GIFT));
    expect(performance.now() - refusedAt).toBeGreaterThan(1500);
    expect(server.frames).toHaveLength(2);
  });

  test('in a dark room the page asks for more light and sends nothing', async () => {
    await photoCamera(canon001, 'brightness(0.18)');
    await renderRoute(scannerRoute, paths.scanningCamera.href(GIFT, 'direct'));
    await expect.element(status()).toHaveTextContent(texts.recipient.looking);
    await expect.element(page.getByTestId('frame-hint')).toHaveTextContent(texts.recipient.hintMoreLight);
    await wait(5 * LIVE_SCAN.intervalMs);
    expect(server.frames).toHaveLength(0);
  });
});
