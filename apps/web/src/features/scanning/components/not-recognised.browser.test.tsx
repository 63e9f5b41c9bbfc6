import { STILL_LOOKING_AFTER_MS } from '@giftlens/contract/constants';
import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { page } from 'vitest/browser';
import canon001 from '../../../../../../test-fixtures/gift-photos/covers/photos/001-canon.jpg';
import { paths } from '../../../config/paths.ts';
import { fakeScanServer, photoCamera, refusal, scanAnswer } from '../../../test/fake-scan-server.ts';
import { jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { BackupCodePage } from './backup-code-page.tsx';
import { GiftNotFoundPage } from './gift-not-found-page.tsx';
import { ScanningCameraPage } from './scanning-camera-page.tsx';

// When the gift is not recognised: "Still looking…" pointing at Take Photo after a while of live frames, Try again
// back to where the recipient came from, and the backup code. Each test here failed before that behaviour was built.
const GIFT = '0123456789abcdef0123456789abcdef';
const scannerRoute = { path: paths.scanningCamera.pattern, element: <ScanningCameraPage /> };
const notFoundRoute = { path: paths.giftNotFound.pattern, element: <GiftNotFoundPage /> };
const codeRoute = { path: paths.backupCode.pattern, element: <BackupCodePage /> };
const noMatch = scanAnswer(GIFT, false);

const status = () => page.getByRole('status');
const takePhoto = () => page.getByRole('button', { name: 'Take Photo' });
const elsewhere = () => page.getByTestId('elsewhere');

afterEach(() => {
  vi.restoreAllMocks();
  sessionStorage.clear();
  localStorage.clear();
});

describe('the scanner when the gift is not recognised (Chromium, fake camera)', () => {
  let server: ReturnType<typeof fakeScanServer>;
  beforeEach(() => {
    server = fakeScanServer(GIFT);
  });
  afterEach(() => expect(server.unexpected).toEqual([]));

  test('after 8 s of live frames without a match it says so and points at Take Photo, and keeps scanning', async () => {
    await photoCamera(canon001);
    await renderRoute(scannerRoute, paths.scanningCamera.href(GIFT, 'direct'));
    await expect.element(status()).toHaveTextContent(texts.recipient.looking);
    const lookingAt = performance.now();
    await expect.poll(() => server.frames.length, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
    expect(status().element().textContent).not.toContain(texts.recipient.stillLooking);

    await expect.element(status(), { timeout: STILL_LOOKING_AFTER_MS + 4000 }).toHaveTextContent(texts.recipient.stillLooking);
    expect(performance.now() - lookingAt).toBeGreaterThanOrEqual(STILL_LOOKING_AFTER_MS - 500);
    // The live scan goes on: more frames are sent after the hint appears, and none of them used an attempt.
    const framesThen = server.frames.length;
    await expect.poll(() => server.frames.length, { timeout: 5000 }).toBeGreaterThan(framesThen + 1);
    await expect.element(page.getByText('Attempt 1 of 2')).toBeVisible();
    expect(server.scans).toHaveLength(0);
    await expect.element(takePhoto()).toBeEnabled();
  }, 30_000);

  test('the retry dialog offers the backup code, which opens this gift’s code page', async () => {
    server.answerScans(noMatch);
    await renderRoute(scannerRoute, paths.scanningCamera.href(GIFT, 'direct'));
    await takePhoto().click();
    const dialog = page.getByRole('dialog', { name: 'Gift not recognised' });
    await dialog.getByRole('button', { name: texts.backupCode.choose }).click();
    await expect.element(elsewhere()).toHaveTextContent(paths.backupCode.href(GIFT));
  });

  test('a gift link whose gift no longer exists: Take Photo’s 404 goes to the link’s page, which says the link is dead', async () => {
    server.answerScans(() => refusal(404, 'gift_not_found', texts.sender.giftNotFound, 0));
    await renderRoute(scannerRoute, paths.scanningCamera.href(GIFT, 'direct'));
    await takePhoto().click();
    await expect.element(elsewhere()).toHaveTextContent(paths.shareLink.href(GIFT));
  });

  test('after the last miss, /gift-not-found’s Try again goes back to this gift’s camera (gift link)', async () => {
    server.answerScans(noMatch, noMatch);
    const { router } = await renderRoute(scannerRoute, paths.scanningCamera.href(GIFT, 'direct'), [notFoundRoute]);
    await takePhoto().click();
    await page.getByRole('dialog', { name: 'Gift not recognised' }).getByRole('button', { name: 'Try Again' }).click();
    await takePhoto().click();
    await expect.element(page.getByRole('heading', { name: 'Gift not found' })).toBeVisible();
    await expect.element(page.getByRole('link', { name: 'Try again' })).toHaveAttribute('href', paths.scanningCamera.href(GIFT, 'direct'));
    await expect
      .element(page.getByRole('link', { name: texts.backupCode.choose }))
      .toHaveAttribute('href', paths.backupCode.href(GIFT, 'direct'));
    await page.getByRole('link', { name: 'Try again' }).click();
    await expect.element(takePhoto()).toBeVisible();
    expect(router.state.location.pathname + router.state.location.search).toBe(paths.scanningCamera.href(GIFT, 'direct'));
  });
});

describe('/gift-not-found and the backup code page', () => {
  test('from the e-mail code flow, Try again goes back to the recipient’s instructions, and the code is offered', async () => {
    await renderRoute(notFoundRoute, {
      pathname: paths.giftNotFound.href(),
      state: { message: texts.recipient.giftNotFoundPage, flow: 'recipient', scanId: 'recipient-1' },
    });
    await expect.element(page.getByRole('link', { name: 'Try again' })).toHaveAttribute('href', paths.scanningInstructions.href('recipient-1'));
    await expect.element(page.getByRole('link', { name: texts.backupCode.choose })).toHaveAttribute('href', paths.backupCode.href('recipient-1'));
  });

  test('the code page sends the typed digits; a wrong code shows the server’s words, the right one opens the message', async () => {
    const calls: { url: string; body: unknown }[] = [];
    const revealed = {
      success: true,
      giftId: GIFT,
      matchResult: { matched: true, matchFound: true, giftId: GIFT, score: 0 },
      openAIResponse: { content: 'yes' },
      giftDetails: {
        giftMessageUrl: paths.giftMessage.href(GIFT),
        gifts_message_url: paths.giftMessage.href(GIFT),
        messageUrl: '/media/gifts/x/message.mp4?exp=1&sig=2',
        senderName: 'Asha',
        sender_name: 'Asha',
        senderEmail: 'asha@example.com',
        recipientName: 'Maya',
        recipient_name: 'Maya',
        recipientEmail: null,
        giftImageUrl: null,
      },
    };
    const answers = [
      jsonResponse({ success: false, error: texts.backupCode.wrong, code: 'backup_code_wrong' }, 400),
      jsonResponse(revealed),
    ];
    vi.spyOn(window, 'fetch').mockImplementation((input, init) => {
      calls.push({ url: input as string, body: JSON.parse(init?.body as string) as unknown });
      return Promise.resolve(answers.shift() ?? new Response(null, { status: 500 }));
    });
    const { router } = await renderRoute(codeRoute, paths.backupCode.href(GIFT, 'direct'));
    await expect.element(page.getByRole('heading', { name: texts.backupCode.title })).toBeVisible();
    const input = page.getByLabelText(texts.backupCode.label);
    const submit = page.getByRole('button', { name: texts.backupCode.submit });

    await input.fill('1234 567');
    await submit.click();
    await expect.element(page.getByText(texts.backupCode.incomplete)).toBeVisible();
    expect(calls).toHaveLength(0);

    await input.fill('1234 5670');
    await submit.click();
    await expect.element(page.getByText(texts.backupCode.wrong)).toBeVisible();
    await expect.element(input).toHaveAttribute('aria-invalid', 'true');

    await input.fill('1234-5678');
    await submit.click();
    await expect.element(elsewhere()).toHaveTextContent(paths.giftMessage.href(GIFT));
    expect(calls).toEqual([
      { url: API.openWithCodeDirect(GIFT), body: { code: '12345670' } },
      { url: API.openWithCodeDirect(GIFT), body: { code: '12345678' } },
    ]);
    expect(router.state.location.pathname).toBe(paths.giftMessage.href(GIFT));
    expect(JSON.parse(localStorage.getItem('signedMessageUrl') ?? '{}')).toMatchObject({ giftId: GIFT, url: revealed.giftDetails.messageUrl });
  });
});
