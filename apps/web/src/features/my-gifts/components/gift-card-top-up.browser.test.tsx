import type { MyGift } from '@giftlens/contract/my-gifts';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../../../test/render-route.tsx';
import { paid } from '../lib/my-gift.fixture.ts';
import { GiftCard } from './gift-card.tsx';

const now = new Date(Date.parse(paid.paidAt!) + 60_000);

async function cardOf(gift: MyGift) {
  const { screen } = await renderRoute(
    { path: '/my-gifts', element: <GiftCard gift={gift} now={now} onDelete={() => undefined} onChangeDelivery={() => undefined} /> },
    '/my-gifts',
  );
  return screen;
}

describe('My Gifts offers more scans where it matters (issue 40)', () => {
  it('scans used up: says so and offers 5 more at the price, linking to their checkout', async () => {
    const screen = await cardOf({ ...paid, scansUsed: 10, scansAllowed: 10, ended: true, scanTopUp: { scans: 5, price: '$0.99' } });
    await expect.element(screen.getByText('Ravi has used every scan. Add more so the gift opens again.')).toBeVisible();
    const offer = screen.getByRole('link', { name: 'Add 5 scans for $0.99' });
    await expect.element(offer).toHaveAttribute('href', `/add-scans/${paid.id}`);
  });

  it('scans left, or none can be bought (ended, unlimited): no offer', async () => {
    for (const gift of [
      { ...paid, scansUsed: 3, scansAllowed: 10, scanTopUp: { scans: 5, price: '$0.99' } },
      { ...paid, scansUsed: 10, scansAllowed: 10, ended: true, scanTopUp: null },
    ]) {
      const screen = await cardOf(gift);
      await expect.element(screen.getByRole('article')).toBeVisible();
      expect(screen.getByRole('link', { name: /Add 5 scans/ }).elements()).toHaveLength(0);
      await screen.unmount();
    }
  });
});
