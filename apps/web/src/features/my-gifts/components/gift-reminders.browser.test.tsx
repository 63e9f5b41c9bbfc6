import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { paid } from '../lib/my-gift.fixture.ts';
import { GiftReminders } from './gift-reminders.tsx';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the gift’s reminders switch (issue 40)', () => {
  it('turns them off with PUT …/reminders { enabled: false }, by keyboard', async () => {
    const fetch = vi.spyOn(window, 'fetch').mockResolvedValue(jsonResponse({ success: true, giftId: paid.id, remindersEnabled: false }));
    const { screen } = await renderRoute({ path: '/my-gifts', element: <GiftReminders gift={{ ...paid, remindersEnabled: true }} /> }, '/my-gifts');
    const box = screen.getByRole('checkbox', { name: 'Reminders' });
    await expect.element(box).toBeChecked();
    await expect.element(box).toHaveAccessibleDescription(/Ravi once, a day before the plan ends/);
    await userEvent.tab();
    await expect.element(box).toHaveFocus();
    await userEvent.keyboard(' ');
    await expect.poll(() => fetch.mock.calls.length).toBeGreaterThan(0);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe(`/api/gift-sender/gifts/${paid.id}/reminders`);
    expect(init?.method).toBe('PUT');
    expect(init?.body).toBe(JSON.stringify({ enabled: false }));
  });

  it('is not offered once the gift was opened or has ended', async () => {
    for (const gift of [{ ...paid, remindersEnabled: true, firstOpenedAt: paid.paidAt }, { ...paid, remindersEnabled: true, ended: true }]) {
      const { screen } = await renderRoute({ path: '/my-gifts', element: <GiftReminders gift={gift} /> }, '/my-gifts');
      expect(screen.getByRole('checkbox').elements()).toHaveLength(0);
      await screen.unmount();
    }
  });
});
