import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { MyGiftsResponse } from '@giftlens/contract/my-gifts';
import { SendNowRequest } from '@giftlens/contract/scheduling';
import { expectOk } from '../../support/api.ts';
import { expect } from '../../support/fixtures.ts';
import { waitForCode, waitForMail } from '../../support/mailbox.ts';
import { API, ARTIFACTS_DIR, paths } from '../../support/paths.ts';
import { testWithClock as test, type ServerClock } from '../../support/test-clock.ts';
import { totp } from '../../support/totp.ts';

/**
 * The staff console (issue 28) against a server of its own: STAFF_EMAILS names one address per viewport (each
 * enrols its authenticator on its first sign-in), its SMTP server refuses the recipient's address until the spec
 * lets it through (a delivery that fails), and its test clock skips the delivery's retry back-off.
 */
const VIEWPORTS = [
  { name: 'phone', width: 360, height: 740 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;
const staffEmail = (viewport: string) => `staff-${viewport}@giftlens.test`;

test.use({ clockServerEnv: { STAFF_EMAILS: VIEWPORTS.map((v) => staffEmail(v.name)).join(',') } });

const SHOTS = join(ARTIFACTS_DIR, 'staff');
/** How far the server's clock runs ahead of this machine's (the test clock only moves forward). */
let aheadMs = 0;

async function shot(page: Page, viewport: string, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${viewport}-${name}.png`), fullPage: true });
  // Nothing wider than the screen: no sideways scrolling at 360 px.
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${name}: the page is wider than the ${viewport} screen`).toBeLessThanOrEqual(0);
}

async function deliveryStatus(sender: APIRequestContext, giftId: string): Promise<string | undefined> {
  const gifts = await expectOk(await sender.get(API.myGifts), MyGiftsResponse);
  return gifts.gifts.find((g) => g.id === giftId)?.deliveries[0]?.status;
}

/**
 * Sends the gift link now to an address the SMTP server refuses, then moves the server's clock past each retry's
 * back-off until the runner gives up: the delivery is failed, with the 550 as its error.
 */
async function failedDelivery(sender: APIRequestContext, clock: ServerClock, giftId: string, to: string) {
  const body: SendNowRequest = { giftId, recipientContact: to, contactType: 'email' };
  const sent = await sender.post(API.sendNow, { data: body });
  expect(sent.ok(), `send-now → ${sent.status()} ${await sent.text()}`).toBe(true);
  await expect
    .poll(
      async () => {
        const status = await deliveryStatus(sender, giftId);
        if (status !== 'failed')
          aheadMs = (await clock.advanceTo(Math.ceil(Date.now() + aheadMs) + 10 * 60_000)).aheadMs;
        return status;
      },
      { message: 'the delivery to fail after its retries', timeout: 60_000, intervals: [1_000, 2_000] },
    )
    .toBe('failed');
}

async function signInWithEnrolment(page: Page, email: string, mailDir: string, viewport: string) {
  await page.goto(paths.staff.href());
  await expect(page.getByRole('heading', { name: 'Staff sign-in' })).toBeVisible();
  await shot(page, viewport, '1-sign-in');
  const since = Date.now();
  await page.getByLabel('Staff e-mail').fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
  const code = await waitForCode(mailDir, email, since);
  await page.getByLabel('Digit 1 of 6').fill(code);

  await expect(page.getByRole('heading', { name: 'Set up your authenticator' })).toBeVisible();
  const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
  await expect(qr).toBeVisible();
  expect(await qr.getAttribute('src')).toMatch(/^data:image\//);
  const secret = await page.getByTestId('totp-secret').getAttribute('data-secret');
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  await shot(page, viewport, '2-enrol');
  // The authenticator reads the time: the server checks it on its own clock, which this spec moved ahead.
  await page.getByLabel('Digit 1 of 6').fill(totp(secret!, Date.now() + aheadMs));
  await expect(page.getByRole('heading', { name: 'Find a gift' })).toBeVisible();
  return secret!;
}

/** Signed out, then in again: the e-mail code, then the authenticator's code (no enrolment the second time). */
async function signOutAndInAgain(
  page: Page,
  email: string,
  secret: string,
  mailDir: string,
  clock: ServerClock,
) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Staff sign-in' })).toBeVisible();
  // Past the e-mail code's resend wait and into a later 30-second step than the one the enrolment used.
  aheadMs = (await clock.advanceTo(Math.ceil(Date.now() + aheadMs) + 2 * 60_000)).aheadMs;
  const since = Date.now();
  await page.getByLabel('Staff e-mail').fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByLabel('Digit 1 of 6').fill(await waitForCode(mailDir, email, since));
  await expect(page.getByRole('heading', { name: 'Authenticator code' })).toBeVisible();
  await page.getByLabel('Digit 1 of 6').fill(totp(secret, Date.now() + aheadMs));
  // Back in the console, on the view it was left at.
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Recent staff actions' })).toBeVisible();
}

for (const viewport of VIEWPORTS) {
  test.describe(`${viewport.width} px`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });
    test(`staff finds a gift by the recipient’s e-mail, reads its timeline, resends a failed delivery and extends the plan (${viewport.width} px)`, async ({
      page,
      mailDir,
      paidGift,
      serverClock,
      refusedRecipients,
    }) => {
      test.setTimeout(240_000);
      const recipientEmail = `maya-${viewport.name}-${Date.now()}@example.com`;
      const gift = await paidGift({
        message: { kind: 'text', text: 'Happy birthday, Maya!' },
        recipientName: 'Maya',
        recipientEmail,
      });
      refusedRecipients.add(recipientEmail);
      await failedDelivery(gift.sender, serverClock, gift.giftId, recipientEmail);
      // The mailbox works again: the staff member's resend will go through.
      refusedRecipients.delete(recipientEmail);

      {
        const secret = await signInWithEnrolment(page, staffEmail(viewport.name), mailDir, viewport.name);

        // Find it by the recipient's e-mail.
        await page.getByLabel('E-mail, gift id, order id or payment id').fill(recipientEmail);
        await page.getByRole('button', { name: 'Search' }).click();
        await expect(page.getByRole('status').filter({ hasText: 'found' })).toHaveText(
          `1 gift found for “${recipientEmail}”.`,
        );
        await shot(page, viewport.name, '3-results');
        await page.getByRole('link', { name: new RegExp(recipientEmail.replace(/[.+]/g, '\\$&')) }).click();

        // Its story: created, paid, the delivery scheduled and its failure with the SMTP server's refusal, in order.
        await expect(page.getByRole('heading', { name: 'Gift for Maya' })).toBeFocused();
        const timeline = page.getByRole('list', { name: 'Timeline, oldest first' });
        await expect(timeline.getByRole('listitem').filter({ hasText: 'Gift created' })).toBeVisible();
        await expect(
          timeline.getByRole('listitem').filter({ hasText: /^.*Paid \d+\.\d{2} USD/ }),
        ).toBeVisible();
        await expect(
          timeline.getByRole('listitem').filter({ hasText: `Delivery to ${recipientEmail} failed` }),
        ).toContainText('550');
        const times = await timeline
          .locator('time')
          .evaluateAll((els) => els.map((e) => Date.parse(e.getAttribute('datetime') ?? '')));
        expect(times, 'the timeline is in time order').toEqual([...times].sort((a, b) => a - b));
        const texts = await timeline.getByRole('listitem').allTextContents();
        const index = (part: string) => texts.findIndex((t) => t.includes(part));
        expect(index('Gift created')).toBeLessThan(index('Paid'));
        expect(index('Paid')).toBeLessThan(index(`Delivery to ${recipientEmail} failed`));
        // Nothing of the message's content without asking for it with a reason.
        await expect(page.getByText('Happy birthday, Maya!')).toHaveCount(0);
        await expect(page.getByText(/Error: .*550/)).toBeVisible();
        await shot(page, viewport.name, '4-gift');

        // Send the failed delivery again: the mail arrives and the page follows it to "sent".
        const since = Date.now();
        await page.getByRole('button', { name: `Send again to ${recipientEmail}` }).click();
        await page.getByLabel('Reason (kept in the audit trail)').fill('Recipient fixed their mailbox');
        await shot(page, viewport.name, '5-resend-form');
        await page.getByRole('button', { name: 'Send again', exact: true }).click();
        await expect(page.getByText('The delivery is being sent again.')).toBeVisible();
        const mail = await waitForMail(mailDir, recipientEmail, { since, timeoutMs: 30_000 });
        expect(mail.text).toContain(`/sharelink/${gift.giftId}`);
        const deliveries = page.getByRole('region', { name: 'Deliveries' });
        await expect(deliveries.getByText('sent', { exact: true })).toBeVisible({ timeout: 20_000 });
        await expect(
          timeline.getByRole('listitem').filter({ hasText: 'Recipient fixed their mailbox' }),
        ).toBeVisible();

        // Extend the plan by 30 days: valid until moves 30 days on, with the reason in the timeline.
        const details = page.getByRole('region', { name: 'Details' });
        const validUntil = details.locator('dt:text-is("Valid until") + dd time');
        const validBefore = await validUntil.getAttribute('datetime');
        await page.getByRole('button', { name: 'Extend', exact: true }).click();
        await page.getByLabel('Days to add').fill('30');
        await page.getByLabel('Reason (kept in the audit trail)').fill('Delivery failed for a week');
        await shot(page, viewport.name, '6-extend-form');
        await page.getByRole('button', { name: 'Extend', exact: true }).last().click();
        await expect(page.getByText('The plan was extended.')).toBeVisible();
        await expect
          .poll(
            async () => Date.parse((await validUntil.getAttribute('datetime'))!) - Date.parse(validBefore!),
          )
          .toBe(30 * 86_400_000);
        await expect(
          timeline.getByRole('listitem').filter({ hasText: 'Delivery failed for a week' }),
        ).toBeVisible();
        await shot(page, viewport.name, '7-after-actions');

        // The queue and the audit trail.
        await page.getByRole('link', { name: 'Job queue' }).click();
        await expect(page.getByRole('heading', { name: 'Job queue' })).toBeVisible();
        await expect(page.getByText('Oldest due job waiting:')).toBeVisible();
        await shot(page, viewport.name, '8-queue');
        // The team: this member (no reset of one's own second factor) and the other viewport's address.
        await page.getByRole('link', { name: 'Team' }).click();
        await expect(page.getByRole('heading', { name: 'Team' })).toBeVisible();
        const team = page.getByRole('list', { name: 'Staff members' });
        const self = team.getByRole('listitem').filter({ hasText: staffEmail(viewport.name) });
        await expect(self).toContainText('(you)');
        await expect(self).toContainText('Authenticator set up');
        await expect(self.getByRole('button')).toHaveCount(0);
        const other = VIEWPORTS.find((v) => v.name !== viewport.name)!.name;
        await expect(team.getByRole('listitem').filter({ hasText: staffEmail(other) })).toBeVisible();
        await shot(page, viewport.name, '8b-team');
        await page.getByRole('link', { name: 'Audit trail' }).click();
        // This gift's entries (the other viewport's test may have run on this server before).
        const audit = page
          .getByRole('list', { name: 'Audit entries, newest first' })
          .getByRole('listitem')
          .filter({ hasText: gift.giftId });
        await expect(audit.getByText('Reason: “Recipient fixed their mailbox”')).toBeVisible();
        await expect(audit.getByText('Reason: “Delivery failed for a week”')).toBeVisible();
        await shot(page, viewport.name, '9-audit');

        // Every later sign-in asks for the authenticator's code.
        await signOutAndInAgain(page, staffEmail(viewport.name), secret, mailDir, serverClock);
      }
    });
  });
}
