import { expect, test } from '../../support/fixtures.ts';
import { paths } from '../../support/paths.ts';

// A toast covers nothing one needs: not the sticky header (logo, navigation), not the wizard's Back link, not the
// content's column at 1280 px; at 360 px it rises from the bottom edge.
for (const viewport of [
  { width: 360, height: 740 },
  { width: 1280, height: 800 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport, permissions: ['clipboard-read', 'clipboard-write'] });

    test('a toast appears below the header', async ({ page, context, paidGift }) => {
      const gift = await paidGift({ message: { kind: 'text', text: 'Hello' } });
      await context.addCookies(gift.senderCookies);
      await page.goto(paths.share.href(gift.giftId));
      await page.getByRole('button', { name: 'Copy Link' }).click();
      const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Link copied to clipboard!' });
      await expect(toast).toBeVisible();
      const header = await page.getByRole('banner').first().boundingBox();
      expect(header).not.toBeNull();
      // Once it has slid in, the toast starts below the header.
      await expect
        .poll(async () => (await toast.boundingBox())?.y ?? -1, { message: 'the toast starts below the header', timeout: 3_000 })
        .toBeGreaterThanOrEqual(header!.y + header!.height);
      const box = (await toast.boundingBox())!;
      const card = (await page.getByRole('region', { name: 'Your Message is Ready!' }).boundingBox())!;
      if (viewport.width < 600) {
        // On a phone: at the bottom edge, well below the top where the header and Back links are.
        expect(box.y + box.height).toBeGreaterThan(viewport.height - 40);
      } else {
        // On a desktop: beside the centred share card, not over it.
        expect(box.x).toBeGreaterThanOrEqual(card.x + card.width);
      }
    });
  });
}
