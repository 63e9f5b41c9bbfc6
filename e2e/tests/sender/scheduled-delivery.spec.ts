import type { Browser, BrowserContext } from '@playwright/test';
import { expect } from '../../support/fixtures.ts';
import { waitForMail } from '../../support/mailbox.ts';
import { atRoute, paths } from '../../support/paths.ts';
import { myGift } from '../../support/sender-api.ts';
import { testWithClock as test } from '../../support/test-clock.ts';

const TEN_MINUTES = 10 * 60_000;
/** How long before the delivery's instant the server's clock is set: the runner must still wait that long. */
const LEAD_MS = 2_000;

/**
 * The sender's zone: Kathmandu (UTC+5:45), whose 10-minute steps fall 5 minutes apart from UTC's, so the instant
 * only comes out right if the page sends the local choice with its offset.
 */
const SENDER_ZONE = { timezoneId: 'Asia/Kathmandu', offsetMs: (5 * 60 + 45) * 60_000 };

/** The first 10-minute step of the sender's local day at least 3 minutes away (time enough to fill in the form). */
function nextSlot(now: number): { at: number; date: string; time: string; label: string } {
  // label: "4:30 PM" as a pattern (a formatter may put a narrow no-break space before PM).
  const { timezoneId, offsetMs } = SENDER_ZONE;
  const at = Math.ceil((now + 3 * 60_000 + offsetMs) / TEN_MINUTES) * TEN_MINUTES - offsetMs;
  const local = new Date(at + offsetMs).toISOString();
  const label = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', hour12: true, timeZone: timezoneId })
    .format(at)
    .replace(/\s/g, '\\s');
  return { at, date: local.slice(0, 10), time: local.slice(11, 16), label };
}

/** A context of our own (in the sender's time zone), failing on console errors like the fixture does. */
async function newContext(browser: Browser, baseURL: string, timezoneId?: string) {
  const context = await browser.newContext({ baseURL, ...(timezoneId ? { timezoneId } : {}) });
  const errors: string[] = [];
  context.on('console', (msg) => {
    if (msg.type() === 'error' && !/status of 4\d\d/.test(msg.text())) errors.push(msg.text());
  });
  context.on('weberror', (err) => errors.push(err.error().message));
  return { context, errors };
}

test('a delivery scheduled in the share page goes out at its instant, and its link opens the greeting', async ({
  browser,
  baseURL,
  mailDir,
  paidGift,
  serverClock,
}) => {
  // The server's clock is moved to the instant instead of waiting for it (support/test-clock.ts); the time is for
  // the three pages and the API calls on a busy machine.
  test.setTimeout(180_000);
  const slot = nextSlot(Date.now());
  const gift = await paidGift({
    message: { kind: 'text', text: 'Happy birthday, Ravi!' },
    recipientName: 'Ravi',
    senderName: 'Asha',
  });

  const contexts: BrowserContext[] = [];
  const sender = await newContext(browser, baseURL!, SENDER_ZONE.timezoneId);
  contexts.push(sender.context);
  try {
    await sender.context.addCookies(gift.senderCookies);
    const page = await sender.context.newPage();
    await page.goto(paths.share.href(gift.giftId));
    await page.getByRole('button', { name: 'Share Link Later' }).click();
    await expect(page.getByLabel('Recipient email')).toHaveValue(gift.recipientEmail);
    await page.getByLabel('Date').fill(slot.date);
    await page.getByLabel('Time').selectOption(slot.time);
    await expect(page.getByText(/Scheduled for:/)).toBeVisible();
    await page.getByRole('button', { name: 'Schedule Delivery' }).click();
    // The toast and the page's own confirmation (announced before the jump home) say it.
    await expect(page.getByText(new RegExp(`^Delivery scheduled for .+ at ${slot.label}!$`)).first()).toBeVisible();
    await expect(page).toHaveURL(paths.home.href());

    // Back on the share page: the pending delivery with Change and Cancel, not a form to submit twice.
    await page.goto(paths.share.href(gift.giftId));
    const deliveries = page.getByRole('region', { name: 'Deliveries' });
    await expect(deliveries.getByText(gift.recipientEmail)).toBeVisible();
    await expect(deliveries.getByText(new RegExp(`^Scheduled for .+ at ${slot.label}$`))).toBeVisible();
    await expect(deliveries.getByRole('button', { name: 'Change' })).toBeVisible();
    await expect(deliveries.getByRole('button', { name: 'Cancel' })).toBeVisible();
    await page.getByRole('button', { name: 'Share Link Later' }).click();
    await expect(page.getByText('Your link is already scheduled. You can change or cancel it here.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Schedule Delivery' })).toHaveCount(0);

    // The server's clock jumps to just before the instant; the worker inside the server then sends the delivery to
    // the local SMTP server at its instant, by the server's clock.
    const { aheadMs } = await serverClock.advanceTo(slot.at - LEAD_MS);
    const mail = await waitForMail(mailDir, gift.recipientEmail, { timeoutMs: 60_000 });
    // When the SMTP server received it, read on the server's clock.
    const receivedAt = Number(mail.file.split('-')[0]) + aheadMs;
    expect(receivedAt).toBeGreaterThanOrEqual(slot.at - 1000);
    expect(receivedAt - slot.at).toBeLessThan(30_000);
    const [delivery] = (await myGift(gift.sender, gift.giftId)).deliveries;
    expect(delivery?.status).toBe('sent');
    expect(Date.parse(delivery?.sentAt ?? '')).toBeGreaterThanOrEqual(slot.at);
    expect(mail.subject).toBe('You have a gift message from Asha');
    // Every gift link in the mail is this gift's.
    const link = new URL(paths.shareLink.href(gift.giftId), baseURL).href;
    const giftLinks = (mail.text.match(/https?:\/\/[^\s<>()"]+/g) ?? []).filter((url) => atRoute(paths.shareLink)(new URL(url)));
    expect(giftLinks.length).toBeGreaterThan(0);
    expect(new Set(giftLinks)).toEqual(new Set([link]));

    // The recipient opens the link from the mail.
    const recipient = await newContext(browser, baseURL!);
    contexts.push(recipient.context);
    const greeting = await recipient.context.newPage();
    await greeting.goto(link);
    await expect(greeting.getByRole('heading', { name: 'Hi Ravi!' })).toBeVisible();

    // The sender's page now says it was sent, at the instant (in the sender's zone).
    await page.reload();
    await expect(page.getByRole('region', { name: 'Deliveries' }).getByText(new RegExp(`^Sent .+ at ${slot.label}$`))).toBeVisible();
    expect([...sender.errors, ...recipient.errors], 'console errors during the test').toEqual([]);
  } finally {
    for (const c of contexts) await c.close();
  }
});
