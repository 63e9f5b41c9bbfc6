import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import { Toaster } from 'sonner';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { paths } from '../../../config/paths.ts';
import { encodeWav } from '../../../lib/wav-encoder.ts';
import { giftMessageResponse } from '../../../test/gift-message.ts';
import { jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { serveJson } from '../../../test/serve-json.ts';
import { GiftMessagePage } from './gift-message-page.tsx';

// Issue 37 item 14: "Message link has expired. Please scan your gift again." showed while the message kept playing.
// A playing message goes on to its end (a fresh link, silently, from where it was); only when the reveal has truly
// run out does the page say so, and then it does what it says: playback stops and the recipient is back at the
// camera. And the notice of an expired link goes once a new scan has opened the message.
const GIFT = '0123456789abcdef0123456789abcdef';
const route = { path: paths.giftMessage.pattern, element: <GiftMessagePage /> };
const elsewhere = () => page.getByTestId('elsewhere');

/** Meera's voice message at this link. */
const message = (messageUrl: string) => giftMessageResponse(GIFT, { messageType: 'audio', messageUrl, text: null });

/** Five seconds of silence as a voice message, at its own blob URL (a "link"). */
const voice = () => URL.createObjectURL(encodeWav([new Float32Array(5 * 8_000)], 8_000));
const storeLink = (url: string, age = 0) =>
  localStorage.setItem('signedMessageUrl', JSON.stringify({ url, timestamp: Date.now() - age, giftId: GIFT }));
const audio = () => page.getByLabelText('Voice message from Meera').element() as HTMLAudioElement;

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
  sessionStorage.clear();
});

describe('a message whose link runs out while it plays (issue 37)', () => {
  test('goes on from where it was with a fresh link; no "expired", no error', async () => {
    const first = voice();
    const fresh = voice();
    storeLink(first);
    sessionStorage.setItem('scanType', 'direct');
    let asked = 0;
    const fetch = serveJson({ [`GET ${API.giftMessage(GIFT)}`]: () => jsonResponse(message(asked++ === 0 ? first : fresh)) });
    const { screen } = await renderRoute(route, paths.giftMessage.href(GIFT));
    await screen.getByRole('button', { name: 'Play message' }).click();
    await vi.waitFor(() => expect(audio().currentTime).toBeGreaterThan(0.4), { timeout: 5_000 });
    const position = audio().currentTime;
    // Its link runs out: the next range request fails, and the element says so.
    audio().dispatchEvent(new Event('error'));
    await vi.waitFor(() => expect(audio().src).toBe(fresh), { timeout: 5_000 });
    await vi.waitFor(() => expect(audio().currentTime).toBeGreaterThan(position), { timeout: 5_000 });
    expect(audio().paused).toBe(false);
    expect(fetch.mock.calls.filter(([input]) => input === API.giftMessage(GIFT))).toHaveLength(2);
    await expect.element(screen.getByText('Oops!')).not.toBeInTheDocument();
    expect(screen.container.textContent).not.toContain(texts.recipient.linkExpired);
    // The saved link counts from the renewal: a reload now opens the page again.
    const saved = JSON.parse(localStorage.getItem('signedMessageUrl') ?? '{}') as { timestamp: number };
    expect(Date.now() - saved.timestamp).toBeLessThan(10_000);
  });

  test('when the reveal has truly run out, playback stops and the recipient is back at the gift’s camera', async () => {
    storeLink(voice());
    sessionStorage.setItem('scanType', 'direct');
    let asked = 0;
    serveJson({
      [`GET ${API.giftMessage(GIFT)}`]: () =>
        asked++ === 0 ? jsonResponse(message(voice())) : jsonResponse({ success: false, error: texts.recipient.revealRequired, code: 'reveal_required' }, 403),
    });
    const { screen, router } = await renderRoute(route, paths.giftMessage.href(GIFT));
    await screen.getByRole('button', { name: 'Play message' }).click();
    await vi.waitFor(() => expect(audio().currentTime).toBeGreaterThan(0.2), { timeout: 5_000 });
    const playing = audio();
    playing.dispatchEvent(new Event('error'));
    await expect.element(elsewhere()).toHaveTextContent(paths.scanningCamera.href(GIFT));
    expect(router.state.location.search).toBe('?type=direct');
    expect(playing.isConnected).toBe(false);
    expect(playing.paused).toBe(true);
    expect(localStorage.getItem('signedMessageUrl')).toBeNull();
  });

  test('the notice that a link expired goes once a new scan opens the message', async () => {
    const toasts = await render(<Toaster />);
    storeLink('/media/old.mp4', 6 * 60_000);
    sessionStorage.setItem('scanType', 'direct');
    serveJson({ [`GET ${API.giftMessage(GIFT)}`]: () => jsonResponse(message(voice())) });
    const { router } = await renderRoute(route, paths.giftMessage.href(GIFT));
    await expect.element(elsewhere()).toHaveTextContent(paths.scanningCamera.href(GIFT));
    await expect.element(toasts.getByText(texts.recipient.linkExpired)).toBeVisible();
    // The camera matched the gift again: a fresh link, the message page.
    storeLink(voice());
    await router.navigate(paths.giftMessage.href(GIFT));
    await expect.element(page.getByLabelText('Voice message from Meera')).toBeInTheDocument();
    // At once, not when its 4 seconds run out.
    await expect.element(toasts.getByText(texts.recipient.linkExpired), { timeout: 1_500 }).not.toBeInTheDocument();
  });
});
