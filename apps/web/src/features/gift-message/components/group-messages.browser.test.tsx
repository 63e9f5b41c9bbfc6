import type { GiftMessageResponse } from '@giftlens/contract/recipient';
import { API } from '@giftlens/contract/routes';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { paths } from '../../../config/paths.ts';
import { encodeWav } from '../../../lib/wav-encoder.ts';
import { giftMessageResponse } from '../../../test/gift-message.ts';
import { jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { serveJson } from '../../../test/serve-json.ts';
import { GiftMessagePage } from './gift-message-page.tsx';

// The recipient's page of a group gift: the organizer's message, then each contribution in order, "From {name}".
const GIFT = '0123456789abcdef0123456789abcdef';
const route = { path: paths.giftMessage.pattern, element: <GiftMessagePage /> };

const message = (over: Partial<GiftMessageResponse> = {}) => giftMessageResponse(GIFT, over);

function storeLink() {
  localStorage.setItem('signedMessageUrl', JSON.stringify({ url: '/media/x', timestamp: Date.now(), giftId: GIFT }));
}

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
  sessionStorage.clear();
});

describe('a group gift’s message page (Chromium)', () => {
  test('plays the organizer’s message, then each contribution in order, and goes on when a clip ends', async () => {
    // A quarter of a second of silence as Asha's voice message.
    const voice = URL.createObjectURL(encodeWav([new Float32Array(12_000)], 48_000));
    storeLink();
    serveJson({
      [`GET ${API.giftMessage(GIFT)}`]: () =>
        jsonResponse(
          message({
            contributions: [
              { from: 'Asha', messageType: 'audio', messageUrl: voice, posterUrl: null, text: null },
              { from: 'Ravi', messageType: 'text', messageUrl: null, posterUrl: null, text: 'Have the best day!' },
            ],
            combinedDownloadUrl: '/media/combined.mp4?sig=1',
          }),
        ),
    });
    const { screen } = await renderRoute(route, paths.giftMessage.href(GIFT));
    const list = screen.getByRole('navigation', { name: 'Messages' });
    await expect.element(list).toBeVisible();
    expect(list.getByRole('button').elements().map((b) => b.textContent)).toEqual(['1. Meera', '2. From Asha', '3. From Ravi']);
    await expect.element(screen.getByRole('heading', { level: 2 })).toHaveTextContent('From Meera (1 of 3)');
    await expect.element(screen.getByText('Happy birthday, Priya! Love, Meera')).toBeVisible();
    await expect.element(screen.getByRole('link', { name: 'Download all messages as one video' })).toHaveAttribute('href', '/media/combined.mp4?sig=1');

    await screen.getByRole('button', { name: 'Next: From Asha' }).click();
    await expect.element(screen.getByRole('heading', { level: 2 })).toHaveTextContent('From Asha (2 of 3)');
    await expect.element(screen.getByRole('heading', { level: 2 })).toHaveFocus();
    await expect.element(screen.getByText('Happy birthday, Priya! Love, Meera')).not.toBeVisible();
    await expect.element(list.getByRole('button', { name: '2. From Asha' })).toHaveAttribute('aria-current', 'true');
    await screen.getByRole('button', { name: 'Play message' }).click();
    // The clip ends: Ravi's card follows by itself.
    await expect.element(screen.getByText('Have the best day!'), { timeout: 10_000 }).toBeVisible();
    await expect.element(screen.getByText('— Ravi')).toBeVisible();
    await expect.element(screen.getByRole('heading', { level: 2 })).toHaveTextContent('From Ravi (3 of 3)');
    await expect.element(screen.getByRole('button', { name: /^Next:/ })).not.toBeInTheDocument();

    await list.getByRole('button', { name: '1. Meera' }).click();
    await expect.element(screen.getByText('Happy birthday, Priya! Love, Meera')).toBeVisible();
    URL.revokeObjectURL(voice);
  });

  test('a single gift shows no list, no "From" headings and no combined download', async () => {
    storeLink();
    serveJson({ [`GET ${API.giftMessage(GIFT)}`]: () => jsonResponse(message()) });
    const { screen } = await renderRoute(route, paths.giftMessage.href(GIFT));
    await expect.element(screen.getByText('Happy birthday, Priya! Love, Meera')).toBeVisible();
    await expect.element(screen.getByRole('heading', { name: 'A Special Message For You' })).toBeVisible();
    await expect.element(screen.getByRole('navigation', { name: 'Messages' })).not.toBeInTheDocument();
    await expect.element(screen.getByRole('heading', { level: 2 })).not.toBeInTheDocument();
    await expect.element(screen.getByRole('link', { name: /Download/ })).not.toBeInTheDocument();
  });
});
