import { texts } from '@giftlens/contract/texts';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { paths } from '../../../config/paths.ts';
import { fakeScanServer, refusal, scanAnswer } from '../../../test/fake-scan-server.ts';
import { renderRoute } from '../../../test/render-route.tsx';
import { ScanningCameraPage } from './scanning-camera-page.tsx';

const GIFT = '0123456789abcdef0123456789abcdef';
const scannerRoute = { path: paths.scanningCamera.pattern, element: <ScanningCameraPage /> };

const match = scanAnswer(GIFT, true);
const noMatch = scanAnswer(GIFT, false);
const busy = (seconds: number) => () => refusal(503, 'scan_busy', texts.recipient.scanBusy, seconds);

let server: ReturnType<typeof fakeScanServer>;
/** The photos Take Photo sent, in order (live frames, answered as misses, are in server.frames). */
let sent: File[];

/** Answers the Take Photo scans in turn with `answers`; any other call fails the test. */
function serverAnswers(...answers: (() => Response)[]) {
  server.answerScans(...answers);
}

const status = () => page.getByRole('status');
const takePhoto = () => page.getByRole('button', { name: 'Take Photo' });

beforeEach(() => {
  server = fakeScanServer(GIFT);
  sent = server.scans;
});
afterEach(() => {
  expect(server.unexpected).toEqual([]);
  vi.restoreAllMocks();
  sessionStorage.clear();
});

describe('the scanner screen (Chromium, fake camera)', () => {
  test('starts the camera, gets ready, then sends one compressed JPEG; a miss uses one of two attempts', async () => {
    serverAnswers(noMatch, noMatch);
    const { router } = await renderRoute(scannerRoute, paths.scanningCamera.href(GIFT, 'direct'));
    await expect.element(status()).toHaveTextContent(/Starting your camera…|Looking…/);
    await expect.element(page.getByText('Attempt 1 of 2')).toBeVisible();
    await expect.element(status()).toHaveTextContent(texts.recipient.looking);
    await takePhoto().click();

    const dialog = page.getByRole('dialog', { name: 'Gift not recognised' });
    await expect.element(dialog).toHaveTextContent(texts.recipient.noMatch);
    await expect.element(page.getByText('Attempt 2 of 2')).toBeVisible();
    expect(sent).toHaveLength(1);
    const photo = await createImageBitmap(sent[0]!);
    expect(sent[0]!.type).toBe('image/jpeg');
    expect(Math.max(photo.width, photo.height)).toBeLessThanOrEqual(600);
    expect(sent[0]!.size).toBeLessThanOrEqual(200 * 1024);

    // Try Again, and the second miss is the last attempt: the gift-not-found page.
    await dialog.getByRole('button', { name: 'Try Again' }).click();
    await takePhoto().click();
    await expect.element(page.getByTestId('elsewhere')).toHaveTextContent(paths.giftNotFound.href());
    expect(router.state.location.state).toEqual({ message: texts.recipient.giftNotFoundPage, flow: 'direct', scanId: GIFT });
    expect(sent).toHaveLength(2);
  });

  test('Escape closes the retry dialog on the scanner, and focus goes back to Take Photo, the control that opened it', async () => {
    serverAnswers(noMatch);
    await renderRoute(scannerRoute, paths.scanningCamera.href(GIFT, 'direct'));
    await expect.element(status()).toHaveTextContent(texts.recipient.looking);
    (takePhoto().element() as HTMLButtonElement).focus();
    await userEvent.keyboard('{Enter}');
    const dialog = page.getByRole('dialog', { name: 'Gift not recognised' });
    await expect.element(dialog).toBeVisible();
    await userEvent.keyboard('{Escape}');
    await expect.element(dialog).not.toBeInTheDocument();
    await expect.element(page.getByTestId('elsewhere')).not.toBeInTheDocument();
    await expect.element(takePhoto()).toBeEnabled();
    await expect.element(takePhoto()).toHaveFocus();
  });

  test('a scan answered 503 with Retry-After waits, says so, and sends the same photo again without using an attempt', async () => {
    serverAnswers(busy(1), match);
    await renderRoute(scannerRoute, paths.scanningCamera.href(GIFT, 'direct'));
    await takePhoto().click();
    await expect.element(status()).toHaveTextContent(texts.recipient.scanBusy);
    await expect.element(page.getByText('Attempt 1 of 2')).toBeVisible();
    expect(sent).toHaveLength(1);
    await expect.element(page.getByTestId('elsewhere')).toHaveTextContent(paths.matchResult.href(GIFT));
    expect(sent).toHaveLength(2);
    const [first, second] = await Promise.all(sent.map(async (f) => new Uint8Array(await f.arrayBuffer())));
    expect(second).toEqual(first);
  });

  test('still busy after the retries: the dialog says so and no attempt is used; the next real miss is attempt one', async () => {
    serverAnswers(busy(0), busy(0), busy(0), busy(0), noMatch);
    await renderRoute(scannerRoute, paths.scanningCamera.href(GIFT, 'direct'));
    await takePhoto().click();
    const refused = page.getByRole('dialog', { name: 'Scanning unavailable' });
    await expect.element(refused).toHaveTextContent(texts.recipient.scanBusy);
    expect(sent).toHaveLength(4);
    await expect.element(page.getByText('Attempt 1 of 2')).toBeVisible();

    await refused.getByRole('button', { name: 'Try Again' }).click();
    await takePhoto().click();
    await expect.element(page.getByRole('dialog', { name: 'Gift not recognised' })).toBeVisible();
    await expect.element(page.getByText('Attempt 2 of 2')).toBeVisible();
  });

  test('a refused camera shows the recipient flow’s permission text in the camera dialog, and no photo can be taken', async () => {
    vi.spyOn(navigator.mediaDevices, 'getUserMedia').mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    await renderRoute(scannerRoute, paths.scanningCamera.href('recipient-1', 'home'));
    const text = `${texts.recipient.cameraRequired}${texts.recipient.cameraRequiredRecipientSuffix}`;
    await expect.element(page.getByRole('dialog', { name: 'Camera problem' })).toHaveTextContent(text);
    await expect.element(takePhoto()).toBeDisabled();
    expect(server.fetchSpy).not.toHaveBeenCalled();
  });
});
