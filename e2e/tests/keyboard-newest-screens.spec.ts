import { groupTexts } from '@giftlens/contract/group-gifts';
import type { Region } from '@giftlens/contract/plans';
import { texts } from '@giftlens/contract/texts';
import type { BrowserContext, Locator, Page } from '@playwright/test';
import { expect, test, uniqueEmail, type SenderGift } from '../support/fixtures.ts';
import { backupCodeOf, contributeText, invitationLink, invite } from '../support/group-api.ts';
import { expectFocusShown, tabTo, walkScreen } from '../support/keyboard.ts';
import { atRoute, paths } from '../support/paths.ts';

// The screens added since the last accessibility audit (issue 41), with the keyboard alone: the contributor's page,
// the organizer's group panel, the recipient's group messages, the backup code and /pricing. Each screen is walked
// with Tab from its top (every control shows its focus, none is under the sticky header: support/keyboard.ts),
// where focus goes after a control is taken away is checked, and axe checks every screen on the way (the fixtures).
// The staff console's walk is in staff/keyboard.spec.ts (a server of its own).

const WIDTHS = [
  { name: 'phone', width: 360, height: 740 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

type PaidGift = (o: { message: { kind: 'text'; text: string } }) => Promise<SenderGift>;

/** A group gift (text messages, Premium) with one invitation sent; answers the invitee's link. */
async function groupGift(paidGift: PaidGift, mailDir: string) {
  const gift = await paidGift({ message: { kind: 'text', text: 'Happy birthday, Ravi!' } });
  const kabir = uniqueEmail('kabir');
  await invite(gift.sender, gift.giftId, [kabir]);
  return { gift, link: await invitationLink(mailDir, kabir) };
}

/**
 * The organizer's share page opened at its group section, the panel loaded: one person invited and, with
 * `contributed`, their text message in.
 */
async function organizerAtGroup(
  { page, context, paidGift, mailDir }: { page: Page; context: BrowserContext; paidGift: PaidGift; mailDir: string },
  { contributed = false } = {},
): Promise<SenderGift> {
  const { gift, link } = await groupGift(paidGift, mailDir);
  if (contributed) await contributeText(gift.sender, link, 'Kabir', 'Happy birthday from Kabir!');
  await context.addCookies(gift.senderCookies);
  await page.goto(`${paths.share.href(gift.giftId)}#group`);
  await expect(page.getByText(contributed ? '1 of 1 added' : '0 of 1 added')).toBeVisible({ timeout: 20_000 });
  return gift;
}

const groupToggle = (page: Page) => page.getByRole('button', { name: /Make it a group gift/ });

/** The recipient types the gift's backup code (its sender's) on the backup-code page: the message opens. */
async function openWithBackupCode(page: Page, gift: SenderGift) {
  const code = await backupCodeOf(gift.sender, gift.giftId);
  await page.goto(paths.backupCode.href(gift.giftId, 'direct'));
  await expect(page.getByLabel(texts.backupCode.label)).toBeFocused();
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(paths.giftMessage.href(gift.giftId));
}

/** The top of `shown` is below the bottom of the page's sticky header. */
async function expectBelowHeader(page: Page, shown: Locator) {
  const header = (await page.getByRole('banner').first().boundingBox())!;
  const box = (await shown.boundingBox())!;
  expect(box.y, `the top of the box (${box.y} px) is below the sticky header (${header.y + header.height} px)`).toBeGreaterThanOrEqual(
    header.y + header.height,
  );
}

/** /pricing with its price list shown: the region switch's checked radio, and the other region. */
async function pricing(page: Page) {
  await page.goto(paths.pricing.href());
  const checked = page.getByRole('radiogroup', { name: texts.sender.priceRegionLabel }).getByRole('radio', { checked: true });
  await expect(checked).toHaveCount(1);
  const other: Region = (await checked.getAttribute('value')) === 'IN' ? 'US' : 'IN';
  return { checked, other };
}

test('/pricing: the region switch (visually hidden radios) shows its keyboard focus', async ({ page }) => {
  const { checked, other } = await pricing(page);
  await tabTo(page, checked);
  await expectFocusShown(page, 'the checked region');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: texts.sender.priceRegions[other] })).toBeFocused();
  await expectFocusShown(page, 'the region switched to');
});

test('/pricing: switching the region says which prices are shown', async ({ page }) => {
  const { checked, other } = await pricing(page);
  await checked.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: texts.sender.priceRegions[other] })).toBeChecked();
  await expect(page.getByRole('status').filter({ hasText: texts.sender.pricesFor[other] })).toBeAttached();
});

test('a wrong backup code is announced where it is shown, tied to its field', async ({ page, paidGift }) => {
  const gift = await paidGift({ message: { kind: 'text', text: 'Happy birthday, Ravi!' } });
  const code = await backupCodeOf(gift.sender, gift.giftId);
  await page.goto(paths.backupCode.href(gift.giftId, 'direct'));
  const field = page.getByLabel(texts.backupCode.label);
  await expect(field).toBeFocused();
  await page.keyboard.type(code === '00000000' ? '11111111' : '00000000');
  await page.keyboard.press('Enter');
  await expect(page.getByText(texts.backupCode.wrong)).toBeVisible();
  const error = page.getByRole('alert').filter({ hasText: texts.backupCode.wrong });
  await expect(error).toBeVisible();
  await expect(field).toHaveAttribute('aria-describedby', new RegExp(`(^| )${await error.getAttribute('id')}( |$)`));
  await walkScreen(page, 'the backup code page with its error');
});

test('opening the message with the backup code puts focus on its heading', async ({ page, paidGift }) => {
  const gift = await paidGift({ message: { kind: 'text', text: 'Happy birthday, Ravi!' } });
  await openWithBackupCode(page, gift);
  await expect(page.getByText('Happy birthday, Ravi!')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'A Special Message For You' })).toBeFocused();
});

test('the contributor page: the visually hidden "Choose video file" input shows its focus on its label', async ({ page, paidGift, mailDir }) => {
  const { link } = await groupGift(paidGift, mailDir);
  await page.goto(link);
  await tabTo(page, page.getByLabel('Upload video file'));
  await expectFocusShown(page, '"Choose video file"');
});

test('the contributor page: after "Add my message" focus is on the message added, and Replace and Keep keep it', async ({ page, paidGift, mailDir }) => {
  const { link } = await groupGift(paidGift, mailDir);
  await page.goto(link);
  await tabTo(page, page.getByLabel('Your name'));
  await page.keyboard.type('Kabir');
  await tabTo(page, page.getByRole('tab', { name: /Video Message/ }));
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('tab', { name: /Text Message/ })).toHaveAttribute('aria-selected', 'true');
  await tabTo(page, page.getByLabel('Your message'));
  await page.keyboard.type('Happy birthday, Ravi! Have the best day.');
  await tabTo(page, page.getByRole('button', { name: 'Add my message' }));
  await page.keyboard.press('Enter');
  // The form is gone with the button pressed: focus is on the heading of what replaced it.
  const added = page.getByRole('heading', { name: 'Your message, from Kabir' });
  await expect(added).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add my message' })).toHaveCount(0);
  await expect(added).toBeFocused();
  // So do Replace (the form comes back) and Keep my current message (the message again).
  await tabTo(page, page.getByRole('button', { name: 'Replace my message' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Replace your message' })).toBeFocused();
  await tabTo(page, page.getByRole('button', { name: 'Keep my current message' }));
  await page.keyboard.press('Enter');
  await expect(added).toBeFocused();
});

test.describe('the group panel at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('from My Gifts\' Group gift, focus is on the group section’s toggle', async ({
    page,
    context,
    paidGift,
    mailDir,
  }) => {
    const { gift } = await groupGift(paidGift, mailDir);
    await context.addCookies(gift.senderCookies);
    await page.goto(paths.myGifts.href());
    await tabTo(page, page.getByRole('link', { name: 'Group gift' }), { limit: 80 });
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(atRoute(paths.share));
    await expect(page.getByText('0 of 1 added')).toBeVisible({ timeout: 20_000 });
    const toggle = groupToggle(page);
    await expect(toggle).toBeFocused();
  });

  test('the "Make it a group gift" toggle is not under the sticky header, opened at #group or reached with Shift+Tab', async ({ page, context, paidGift, mailDir }) => {
    await organizerAtGroup({ page, context, paidGift, mailDir });
    // Once the section is where the page puts it (its scroll margin from the top, or the page's end).
    await expect
      .poll(() =>
        page.locator('#group').evaluate((el) => {
          const margin = Number.parseFloat(getComputedStyle(el).scrollMarginTop) || 0;
          const atEnd = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
          return Math.abs(el.getBoundingClientRect().top - margin) <= 1 || atEnd;
        }),
      )
      .toBe(true);
    const toggle = groupToggle(page);
    await expectBelowHeader(page, toggle);

    // Shift+Tab back to the toggle from the field below it, with the toggle scrolled just under the header.
    await tabTo(page, page.getByLabel('E-mail addresses'));
    await toggle.evaluate((el) => window.scrollBy({ top: el.getBoundingClientRect().top - 8, behavior: 'instant' }));
    await page.keyboard.press('Shift+Tab');
    await expect(toggle).toBeFocused();
    await expectBelowHeader(page, toggle);
    await expectFocusShown(page, 'the group toggle');
  });
});

test('the group panel: an invitation error is announced and tied to its field', async ({ page, context, paidGift, mailDir }) => {
  await organizerAtGroup({ page, context, paidGift, mailDir });
  const emails = page.getByLabel('E-mail addresses');
  await tabTo(page, emails);
  await page.keyboard.type('not-an-address');
  await tabTo(page, page.getByRole('button', { name: 'Send invitations' }));
  await page.keyboard.press('Enter');
  const error = page.getByRole('alert').filter({ hasText: 'Please check these addresses: not-an-address' });
  await expect(error).toBeVisible();
  await expect(emails).toHaveAttribute('aria-invalid', 'true');
  await expect(emails).toHaveAttribute('aria-describedby', new RegExp(`(^| )${await error.getAttribute('id')}( |$)`));
});

test('the group panel: after closing contributions focus is on the messages’ heading', async ({ page, context, paidGift, mailDir }) => {
  await organizerAtGroup({ page, context, paidGift, mailDir }, { contributed: true });
  await tabTo(page, page.getByRole('button', { name: 'Close contributions now' }));
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Close contributions now?' });
  await tabTo(page, dialog.getByRole('button', { name: 'Close now' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText(groupTexts.organizerClosed)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Close contributions now' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Messages, in the order they play' })).toBeFocused();
});

// The walks: every control of each new screen, at both widths.
for (const size of WIDTHS) {
  test.describe(`${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test(`keyboard walk: the contributor page, before and after adding a message (${size.width} px)`, async ({ page, paidGift, mailDir }) => {
      const { link } = await groupGift(paidGift, mailDir);
      await page.goto(link);
      await expect(page.getByRole('heading', { name: 'Add your message for Ravi' })).toBeVisible();
      const reached = await walkScreen(page, 'the contributor page');
      expect(reached).toEqual(expect.arrayContaining([expect.stringContaining('Your name'), expect.stringContaining('Add my message')]));
      await page.getByLabel('Your name').fill('Kabir');
      await page.getByRole('tab', { name: /Text Message/ }).click();
      await page.getByLabel('Your message').fill('Happy birthday, Ravi!');
      await page.getByRole('button', { name: 'Add my message' }).click();
      await expect(page.getByRole('heading', { name: 'Your message, from Kabir' })).toBeVisible();
      expect(await walkScreen(page, 'the contributor page with a message')).toEqual(
        expect.arrayContaining([expect.stringContaining('Replace my message'), expect.stringContaining('Delete my message')]),
      );
    });

    test(`keyboard walk: the organizer's group panel, open and closed (${size.width} px)`, async ({ page, context, paidGift, mailDir }) => {
      await organizerAtGroup({ page, context, paidGift, mailDir }, { contributed: true });
      expect(await walkScreen(page, 'the share page with its group panel')).toEqual(
        expect.arrayContaining([expect.stringContaining('Send invitations'), expect.stringContaining('Close contributions now')]),
      );
      await page.getByRole('button', { name: 'Close contributions now' }).click();
      await page.getByRole('dialog', { name: 'Close contributions now?' }).getByRole('button', { name: 'Close now' }).click();
      await expect(page.getByText(groupTexts.organizerClosed)).toBeVisible();
      await walkScreen(page, 'the group panel, closed');
    });

    test(`keyboard walk: the recipient's group messages (${size.width} px)`, async ({ page, paidGift, mailDir }) => {
      const { gift, link } = await groupGift(paidGift, mailDir);
      await contributeText(gift.sender, link, 'Kabir', 'Happy birthday from Kabir!');
      await openWithBackupCode(page, gift);
      const list = page.getByRole('navigation', { name: 'Messages' });
      await expect(list.getByRole('button')).toHaveText(['1. Asha', '2. From Kabir']);
      await walkScreen(page, 'the group messages');
      await tabTo(page, list.getByRole('button', { name: '2. From Kabir' }));
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: 'From Kabir (2 of 2)' })).toBeFocused();
      await expect(page.getByText('Happy birthday from Kabir!')).toBeVisible();
      await walkScreen(page, 'the group messages, the second shown');
    });
  });
}
