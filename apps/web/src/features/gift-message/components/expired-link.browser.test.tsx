import { afterEach, describe, expect, test } from 'vitest';
import { page } from 'vitest/browser';
import { paths } from '../../../config/paths.ts';
import { renderRoute } from '../../../test/render-route.tsx';
import { GiftMessagePage } from './gift-message-page.tsx';

// The message page when its signed link has expired: back to the camera the recipient came from, never to the
// landing page.
const GIFT = '0123456789abcdef0123456789abcdef';
const elsewhere = () => page.getByTestId('elsewhere');

afterEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});

describe('an expired message link', () => {
  const messageRoute = { path: paths.giftMessage.pattern, element: <GiftMessagePage /> };
  const expired = () =>
    localStorage.setItem('signedMessageUrl', JSON.stringify({ url: '/media/x.mp4', timestamp: Date.now() - 6 * 60_000, giftId: GIFT }));

  test('sends a gift-link recipient back to the gift’s camera, not to the landing page', async () => {
    expired();
    sessionStorage.setItem('scanType', 'direct');
    const { router } = await renderRoute(messageRoute, paths.giftMessage.href(GIFT));
    await expect.element(elsewhere()).toHaveTextContent(paths.scanningCamera.href(GIFT));
    expect(router.state.location.search).toBe('?type=direct');
  });

  test('sends an e-mail-code recipient back to their camera', async () => {
    expired();
    sessionStorage.setItem('scanType', 'home');
    sessionStorage.setItem('recipientId', 'recipient-1');
    const { router } = await renderRoute(messageRoute, paths.giftMessage.href(GIFT));
    await expect.element(elsewhere()).toHaveTextContent(paths.scanningCamera.href('recipient-1'));
    expect(router.state.location.search).toBe('');
  });
});
