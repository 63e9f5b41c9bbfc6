import type { Page } from '@playwright/test';
import { expect } from '../../support/fixtures.ts';
import { tabTo, walkScreen } from '../../support/keyboard.ts';
import { waitForCode } from '../../support/mailbox.ts';
import { paths } from '../../support/paths.ts';
import { testWithClock as test } from '../../support/test-clock.ts';
import { totp } from '../../support/totp.ts';

// The staff console with the keyboard alone (issue 41), at both widths: the sign-in with the authenticator's
// enrolment (after whose confirm focus is on the console's heading, not <body>), then a walk of every view — the
// search and its results, a gift, the job queue, the team, and the audit trail with this test's own entry in it.
// A server of its own (test-clock.ts), with staff addresses no other spec enrols.
const VIEWPORTS = [
  { name: 'phone', width: 360, height: 740 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;
const staffEmail = (viewport: string) => `keys-staff-${viewport}@giftlens.test`;

test.use({ clockServerEnv: { STAFF_EMAILS: VIEWPORTS.map((v) => staffEmail(v.name)).join(',') } });

/** Signs in with the keyboard: the e-mail, its code, then the authenticator's enrolment confirmed with a code. */
async function signInWithKeys(page: Page, email: string, mailDir: string) {
  await page.goto(paths.staff.href());
  await expect(page.getByRole('heading', { name: 'Staff sign-in' })).toBeVisible();
  await expect(page.getByLabel('Staff e-mail')).toBeFocused();
  const since = Date.now();
  await page.keyboard.type(email);
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Digit 1 of 6')).toBeFocused();
  await page.keyboard.type(await waitForCode(mailDir, email, since));
  await expect(page.getByRole('heading', { name: 'Set up your authenticator' })).toBeFocused();
  const secret = await page.getByTestId('totp-secret').getAttribute('data-secret');
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  await tabTo(page, page.getByLabel('Digit 1 of 6'));
  await page.keyboard.type(totp(secret!, Date.now()));
}

for (const viewport of VIEWPORTS) {
  test.describe(`${viewport.width} px`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test(`keyboard only: staff sign in, find a gift, extend its plan and read the audit trail (${viewport.width} px)`, async ({
      page,
      mailDir,
      paidGift,
    }) => {
      test.setTimeout(180_000);
      const recipientEmail = `keys-${viewport.name}-${Date.now()}@example.com`;
      const gift = await paidGift({ message: { kind: 'text', text: 'Happy birthday, Maya!' }, recipientName: 'Maya', recipientEmail });

      await signInWithKeys(page, staffEmail(viewport.name), mailDir);
      // The code's form is gone with the sign-in: focus is on the console's heading.
      await expect(page.getByRole('heading', { level: 1, name: 'Find a gift' })).toBeFocused();
      await walkScreen(page, 'the staff search');

      await tabTo(page, page.getByLabel('E-mail, gift id, order id or payment id'));
      await page.keyboard.type(recipientEmail);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('status').filter({ hasText: 'found' })).toHaveText(`1 gift found for “${recipientEmail}”.`);
      await walkScreen(page, 'the staff search results');

      await tabTo(page, page.getByRole('link', { name: new RegExp(recipientEmail.replace(/[.+]/g, '\\$&')) }));
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: 'Gift for Maya' })).toBeFocused();
      await walkScreen(page, 'a gift in the staff console');

      // Extend the plan: an audit entry with its reason.
      await tabTo(page, page.getByRole('button', { name: 'Extend', exact: true }));
      await page.keyboard.press('Enter');
      await tabTo(page, page.getByLabel('Days to add'));
      await page.keyboard.type('30');
      await tabTo(page, page.getByLabel('Reason (kept in the audit trail)'));
      await page.keyboard.type('Keyboard walk of the audit trail');
      await walkScreen(page, 'the extend form');
      await tabTo(page, page.getByRole('button', { name: 'Extend', exact: true }).last());
      await page.keyboard.press('Enter');
      await expect(page.getByText('The plan was extended.')).toBeVisible();

      // The other views, each walked once its content is in: the audit trail with this gift's entry.
      const entry = page
        .getByRole('list', { name: 'Audit entries, newest first' })
        .getByRole('listitem')
        .filter({ hasText: gift.giftId });
      const views = [
        { link: 'Job queue', heading: 'Job queue', ready: page.getByText('Oldest due job waiting:') },
        { link: 'Team', heading: 'Team', ready: page.getByRole('list', { name: 'Staff members' }) },
        { link: 'Audit trail', heading: 'Recent staff actions', ready: entry.getByText('Reason: “Keyboard walk of the audit trail”') },
      ];
      for (const view of views) {
        const nav = page.getByRole('navigation', { name: 'Staff console' });
        const link = nav.getByRole('link', { name: view.link });
        await tabTo(page, link, { back: true, limit: 120 });
        await page.keyboard.press('Enter');
        // The link pressed is still there: focus stays on it, now the current view.
        await expect(link).toHaveAttribute('aria-current', 'page');
        await expect(link).toBeFocused();
        await expect(page.getByRole('heading', { level: 1, name: view.heading })).toBeVisible();
        await expect(view.ready).toBeVisible();
        const reached = await walkScreen(page, `the staff console's ${view.link}`);
        if (view.link === 'Audit trail') expect(reached).toEqual(expect.arrayContaining([expect.stringContaining(gift.giftId)]));
      }
    });
  });
}
