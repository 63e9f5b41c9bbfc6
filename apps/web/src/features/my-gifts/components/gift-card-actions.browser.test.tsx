import type { MyGift } from '@giftlens/contract/my-gifts';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../../../test/render-route.tsx';
import { giftStatus, nextStep } from '../lib/gift-status.ts';
import { paid } from '../lib/my-gift.fixture.ts';
import { GiftCardActions } from './gift-card-actions.tsx';

const gift = paid;

const actionsOf = async (g: MyGift) => {
  const { screen } = await renderRoute(
    { path: '/my-gifts', element: <GiftCardActions gift={g} status={giftStatus(g)} step={nextStep(g)} paid={g.status === 'active'} onDelete={() => undefined} /> },
    '/my-gifts',
  );
  return screen;
};

describe('My Gifts offers no action that cannot work on a refunded or taken-down gift (issue 37)', () => {
  it('an active gift: Share, Group gift, Replace message and Delete', async () => {
    const screen = await actionsOf(gift);
    for (const name of ['Share', 'Group gift', 'Replace message', 'Delete']) await expect.element(screen.getByRole(name === 'Delete' ? 'button' : 'link', { name })).toBeVisible();
  });

  it('a refunded gift: only Delete', async () => {
    const screen = await actionsOf({ ...gift, withdrawn: 'refunded', ended: true });
    await expect.element(screen.getByRole('button', { name: 'Delete' })).toBeVisible();
    expect(screen.getByRole('link').elements()).toHaveLength(0);
  });

  it('a taken-down gift: nothing (the server refuses every change)', async () => {
    const screen = await actionsOf({ ...gift, withdrawn: 'taken_down', ended: true, canReplaceMessage: false });
    expect(screen.getByRole('link').elements()).toHaveLength(0);
    expect(screen.getByRole('button').elements()).toHaveLength(0);
  });
});
