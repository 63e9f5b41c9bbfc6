import { expect, test } from '../../support/fixtures.ts';
import { waitForMail } from '../../support/mailbox.ts';
import { atRoute, paths } from '../../support/paths.ts';
import { proxyStats } from '../../support/scaled-out.ts';
import { myGift, scheduleDelivery } from '../../support/sender-api.ts';

// Runs only under playwright.scaled.config.ts: two API nodes (RUN_JOBS=false) and one worker behind a round-robin
// proxy, on PostgreSQL, a local S3 server and Redis.

test('a delivery scheduled through one API node is sent by the worker at its instant, and every node answers', async ({
  page,
  baseURL,
  mailDir,
  paidGift,
}) => {
  const before = await proxyStats(baseURL!);
  const gift = await paidGift({
    message: { kind: 'text', text: 'Happy birthday, Ravi!' },
    recipientName: 'Ravi',
    senderName: 'Asha',
  });

  // The API nodes run no jobs: only the worker can send this.
  const at = Date.now() + 20_000;
  await scheduleDelivery(gift.sender, {
    giftId: gift.giftId,
    recipientContact: gift.recipientEmail,
    contactType: 'email',
    scheduledDatetime: new Date(at).toISOString(),
    timezone: 'UTC',
  });
  const mail = await waitForMail(mailDir, gift.recipientEmail, { timeoutMs: 90_000 });
  const receivedAt = Number(mail.file.split('-')[0]);
  expect(receivedAt).toBeGreaterThanOrEqual(at - 1000);
  expect(receivedAt - at).toBeLessThan(30_000);
  expect(mail.subject).toBe('You have a gift message from Asha');
  const link = new URL(paths.shareLink.href(gift.giftId), baseURL).href;
  const giftLinks = (mail.text.match(/https?:\/\/[^\s<>()"]+/g) ?? []).filter((url) => atRoute(paths.shareLink)(new URL(url)));
  expect(new Set(giftLinks)).toEqual(new Set([link]));

  // Whichever node answers, the sender sees it sent.
  await expect.poll(async () => (await myGift(gift.sender, gift.giftId)).deliveries[0]?.status).toBe('sent');

  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Hi Ravi!' })).toBeVisible();

  // Requests alternated (one test at a time in this run): each node answered half of this test's calls.
  const after = await proxyStats(baseURL!);
  const served = after.byNode.map((n, i) => n - before.byNode[i]!);
  expect(served).toHaveLength(2);
  const total = served[0]! + served[1]!;
  expect(total).toBeGreaterThan(10);
  for (const n of served) expect(n).toBeGreaterThanOrEqual(Math.floor(total / 2));
});
