import type { Browser, BrowserContext } from '@playwright/test';
import { expect, test } from '../../support/fixtures.ts';
import { waitForMail } from '../../support/mailbox.ts';
import { atRoute, paths } from '../../support/paths.ts';

const TEN_MINUTES = 10 * 60_000;

/**
 * The delivery picker offers 10-minute steps of the sender's local day. The sooner of the next step in UTC and in
 * Kathmandu (UTC+5:45, so its steps fall 5 minutes apart from UTC's) that is at least 75 s away: the test waits
 * between 75 s and about 6 minutes instead of up to 10.
 */
function nearestSlot(now: number): { timezoneId: string; at: number; date: string; time: string } {
  const zones = [
    { timezoneId: 'UTC', offsetMs: 0 },
    { timezoneId: 'Asia/Kathmandu', offsetMs: (5 * 60 + 45) * 60_000 },
  ];
  const earliest = now + 75_000;
  const slots = zones.map(({ timezoneId, offsetMs }) => {
    const at = Math.ceil((earliest + offsetMs) / TEN_MINUTES) * TEN_MINUTES - offsetMs;
    const local = new Date(at + offsetMs).toISOString();
    return { timezoneId, at, date: local.slice(0, 10), time: local.slice(11, 16) };
  });
  return slots.reduce((a, b) => (b.at < a.at ? b : a));
}

/** A context of our own (the time zone is chosen at run time), failing on console errors like the fixture does. */
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
}) => {
  const slot = nearestSlot(Date.now());
  test.setTimeout(slot.at - Date.now() + 3 * 60_000);
  const gift = await paidGift({
    message: { kind: 'text', text: 'Happy birthday, Ravi!' },
    recipientName: 'Ravi',
    senderName: 'Asha',
  });

  const contexts: BrowserContext[] = [];
  const sender = await newContext(browser, baseURL!, slot.timezoneId);
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
    await expect(page.getByText(/^Delivery scheduled for .+ at .+!$/).first()).toBeVisible();
    await expect(page).toHaveURL(paths.home.href());

    // Back on the share page: the pending delivery with Change and Cancel, not a form to submit twice.
    await page.goto(paths.share.href(gift.giftId));
    const deliveries = page.getByRole('region', { name: 'Deliveries' });
    await expect(deliveries.getByText(gift.recipientEmail)).toBeVisible();
    await expect(deliveries.getByText(/^Scheduled for .+ at .+$/)).toBeVisible();
    await expect(deliveries.getByRole('button', { name: 'Change' })).toBeVisible();
    await expect(deliveries.getByRole('button', { name: 'Cancel' })).toBeVisible();
    await page.getByRole('button', { name: 'Share Link Later' }).click();
    await expect(page.getByText('Your link is already scheduled. You can change or cancel it here.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Schedule Delivery' })).toHaveCount(0);

    // The worker inside the server sends it to the local SMTP server at its instant.
    const mail = await waitForMail(mailDir, gift.recipientEmail, { timeoutMs: slot.at - Date.now() + 60_000 });
    const receivedAt = Number(mail.file.split('-')[0]);
    expect(receivedAt).toBeGreaterThanOrEqual(slot.at - 1000);
    expect(receivedAt - slot.at).toBeLessThan(30_000);
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

    // The sender's page now says it was sent.
    await page.reload();
    await expect(page.getByRole('region', { name: 'Deliveries' }).getByText(/^Sent .+ at .+$/)).toBeVisible();
    expect([...sender.errors, ...recipient.errors], 'console errors during the test').toEqual([]);
  } finally {
    for (const c of contexts) await c.close();
  }
});
