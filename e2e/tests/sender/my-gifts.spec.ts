import { texts } from '@giftlens/contract/texts';
import { resolve } from 'node:path';
import { request, type Page } from '@playwright/test';
import type { MyGift } from '@giftlens/contract/my-gifts';
import { COVER_001, expect, test, uniqueEmail } from '../../support/fixtures.ts';
import { storedFilesOf } from '../../support/media-storage.ts';
import { smallVideo } from '../../support/media.ts';
import { API, GIFT_PHOTOS_DIR, paths } from '../../support/paths.ts';
import { recordReaction, scanGift } from '../../support/recipient-api.ts';
import {
  addMessage,
  myGifts,
  pay,
  scheduleDelivery,
  setFirstName,
  submitGift,
  waitForGift,
} from '../../support/sender-api.ts';
import { signInWithCode } from '../../support/sender-sign-in.ts';

// The sender photographed DVD cover 001 (the fixtures' default gift); the recipient's phone photo shows the same cover.
const RECIPIENT_PHOTO = resolve(GIFT_PHOTOS_DIR, 'covers/photos/001-canon.jpg');

/** The card of the gift for `name` in the list. */
const card = (page: Page, name: string) => page.getByRole('article', { name: `For ${name}` });

/** Every signed media URL My Gifts hands its sender for the gift: photo, message, posters, reaction, downloads. */
function mediaUrlsOf(gift: MyGift): string[] {
  return [
    gift.photoUrl,
    gift.messageUrl,
    gift.posterUrl,
    gift.reaction?.url,
    gift.reaction?.posterUrl,
    gift.downloads.message,
    gift.downloads.reaction,
  ].filter((url): url is string => Boolean(url));
}

/** "Wednesday, November 25, 2026 at 12:30 PM" as the page writes an instant in the delivery's zone. */
function longDateTime(instant: Date, timeZone: string): string {
  const date = new Intl.DateTimeFormat('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone });
  const time = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', hour12: true, timeZone });
  return `${date.format(instant)} at ${time.format(instant)}`;
}

test('a sender signs in at My Gifts with an e-mail code, sees the paid gift and its delivery, and sees it opened after a genuine scan', async ({
  page,
  baseURL,
  mailDir,
}) => {
  const email = uniqueEmail('mygifts');

  // My Gifts is in the navigation bar; without a session it asks for the e-mail first.
  await page.goto(paths.home.href());
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Gifts' }).click();
  await expect(page).toHaveURL(paths.myGifts.href());
  await expect(page.getByRole('heading', { name: 'My Gifts' })).toBeVisible();
  await signInWithCode(page, mailDir, email);

  // Signed in: nothing sent yet.
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No gifts yet' })).toBeVisible();

  // The same session (the browser's cookie) creates and pays a gift, without waiting for its video to be
  // converted, and schedules its link for later.
  await setFirstName(page.request, email, 'Asha');
  const giftId = await submitGift(page.request, {
    photo: COVER_001,
    planId: 'premium_us',
    recipientName: 'Ravi',
    recipientEmail: 'ravi@example.com',
  });
  await addMessage(page.request, giftId, { kind: 'video', file: smallVideo(), type: 'video/mp4' });
  await pay(page.request, giftId);
  const when = new Date(Date.now() + 3 * 24 * 3600 * 1000);
  when.setUTCMinutes(10, 0, 0);
  await scheduleDelivery(page.request, {
    giftId,
    recipientContact: 'ravi@example.com',
    contactType: 'email',
    scheduledDatetime: when.toISOString(),
    timezone: 'Asia/Kolkata',
  });

  await page.reload();
  const gift = card(page, 'Ravi');
  await expect(gift).toBeVisible();
  await expect(gift.getByText('Birthday · Premium plan')).toBeVisible();
  await expect(gift.getByRole('img', { name: 'The gift for Ravi' })).toBeVisible();
  // The upload is converted first ("Processing your message"); the list asks again until it is ready.
  const scheduledText = `Delivery scheduled for ${longDateTime(when, 'Asia/Kolkata')}`;
  await expect(gift.getByText(scheduledText)).toBeVisible({ timeout: 30_000 });
  await expect(gift.getByText('0 of 10 scans used')).toBeVisible();
  await expect(gift.getByText(/^Valid for (29|30) more days$/)).toBeVisible();
  const delivery = gift.getByRole('listitem').filter({ hasText: 'ravi@example.com' });
  await expect(delivery).toContainText(`Scheduled for ${longDateTime(when, 'Asia/Kolkata')}`);
  await expect(delivery.getByRole('button', { name: 'Change' })).toBeVisible();
  await expect(delivery.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await expect(gift.getByRole('link', { name: 'Download message' })).toHaveAttribute('download', '');
  await expect(gift.getByRole('link', { name: 'Share' })).toHaveAttribute('href', paths.share.href(giftId));
  await expect(gift.getByRole('link', { name: 'Replace message' })).toBeVisible();

  // The recipient photographs the real gift (the real matcher decides): the gift reads opened.
  await (await scanGift(baseURL!, giftId, RECIPIENT_PHOTO)).dispose();
  await page.reload();
  await expect(gift.getByText('Opened 1 time')).toBeVisible();
  await expect(gift.getByText('1 of 10 scans used')).toBeVisible();
  // Once opened, the message can no longer be replaced.
  await expect(gift.getByRole('link', { name: 'Replace message' })).toHaveCount(0);

  // Cancel works from My Gifts too.
  await delivery.getByRole('button', { name: 'Cancel' }).click();
  await delivery.getByRole('button', { name: 'Yes, cancel' }).click();
  await expect(page.getByText('Delivery cancelled.')).toBeVisible();
  await expect(gift.getByText('ravi@example.com')).toHaveCount(0);
});

test('on a Lifetime gift the recipient’s reaction plays in My Gifts; deleting the gift removes its files and its link', async ({
  page,
  context,
  baseURL,
  paidGift,
}) => {
  const paid = await paidGift({
    planId: 'lifetime_us',
    recipientName: 'Kabir',
    message: { kind: 'video', file: smallVideo(), type: 'video/mp4' },
  });
  await context.addCookies(paid.senderCookies);
  await waitForGift(page.request, paid.giftId, 'message ready', (g) => g.messageState === 'ready');
  // The recipient consents on the message page and their reaction is uploaded (the calls the page makes).
  await recordReaction(baseURL!, paid.giftId, RECIPIENT_PHOTO, smallVideo());
  const listed = await waitForGift(page.request, paid.giftId, 'reaction ready', (g) => g.reaction !== null);

  await page.goto(paths.myGifts.href());
  const gift = card(page, 'Kabir');
  await expect(gift.getByText('Birthday · Lifetime plan')).toBeVisible();
  await expect(gift.getByText('Opened 1 time')).toBeVisible();
  await expect(gift.getByText('1 scan · unlimited')).toBeVisible();
  await expect(gift.getByText('No end date')).toBeVisible();
  await expect(gift.getByRole('link', { name: 'Download reaction' })).toHaveAttribute('download', '');
  // Saved under people's names ("Message for Ravi.mp4"), not our storage keys.
  const savedAs = async (name: string) => {
    const href = await gift.getByRole('link', { name }).getAttribute('href');
    return (await page.request.get(href!)).headers()['content-disposition'];
  };
  expect(await savedAs('Download reaction')).toBe(`attachment; filename="Kabir's reaction.mp4"`);
  expect(await savedAs('Download message')).toBe('attachment; filename="Message for Kabir.mp4"');

  const reaction = gift.getByLabel('Reaction video');
  await expect(reaction).toHaveAttribute('poster', /.+/);
  await reaction.evaluate((v: HTMLVideoElement) => v.play());
  await expect
    .poll(() => reaction.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 })
    .toBeGreaterThan(0.2);

  // Delete, after a confirmation that says what goes and what stays.
  const files = storedFilesOf(paid.giftId);
  expect(files.some((f) => f.includes('/reactions/')), files.join('\n')).toBe(true);
  const urls = mediaUrlsOf(listed);
  expect(urls.length, urls.join('\n')).toBeGreaterThanOrEqual(5);
  for (const url of urls) expect((await page.request.head(url)).status(), url).toBe(200);
  await gift.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete the gift for Kabir?' });
  await expect(dialog).toContainText('the gift’s photos and the recognition data made from them');
  await expect(dialog).toContainText('your video message');
  await expect(dialog).toContainText('Kabir’s recorded reaction');
  await expect(dialog).toContainText('its scheduled deliveries');
  await expect(dialog).toContainText('the order’s amount, date and payment provider ids');
  await expect(dialog).toContainText('8 years');
  await dialog.getByRole('button', { name: 'Delete gift' }).click();
  await expect(page.getByText('The gift for Kabir is deleted.')).toBeVisible();
  await expect(gift).toHaveCount(0);

  // Its files go (a job right after the rows): none is left in storage and every URL its sender had answers not
  // found. Its gift link answers as not found too.
  await expect.poll(() => storedFilesOf(paid.giftId), { timeout: 15_000 }).toEqual([]);
  for (const url of urls) expect((await page.request.head(url)).status(), url).toBe(404);
  const link = await page.request.get(API.verifyGift(paid.giftId));
  expect(link.status()).toBe(404);
  await page.goto(paths.shareLink.href(paid.giftId));
  await expect(page.getByRole('heading', { name: "We couldn't open this gift" })).toBeVisible();
});

test('sign out ends the session on the server; the page asks for the e-mail again', async ({
  page,
  context,
  baseURL,
  paidGift,
}) => {
  const paid = await paidGift({ message: { kind: 'text', text: 'Happy birthday!' } });
  await context.addCookies(paid.senderCookies);
  await page.goto(paths.myGifts.href());
  await expect(card(page, 'Ravi')).toBeVisible();

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByText('You are signed out.')).toBeVisible();
  await expect(page.getByLabel('Email address')).toBeVisible();
  await expect(card(page, 'Ravi')).toHaveCount(0);

  // The session is revoked, not only forgotten by this browser: its old cookie no longer works.
  expect((await page.request.get(API.myGifts)).status()).toBe(401);
  const oldSession = await request.newContext({ baseURL, storageState: { cookies: paid.senderCookies, origins: [] } });
  try {
    expect((await oldSession.get(API.myGifts)).status()).toBe(401);
  } finally {
    await oldSession.dispose();
  }
});

test('sign out everywhere ends the sender’s sessions on the server', async ({ page, context, baseURL, paidGift }) => {
  const paid = await paidGift({ message: { kind: 'text', text: 'Happy birthday!' } });
  await context.addCookies(paid.senderCookies);
  await page.goto(paths.myGifts.href());
  await expect(card(page, 'Ravi')).toBeVisible();

  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page.getByText('You are signed out on every device.')).toBeVisible();
  await expect(page.getByLabel('Email address')).toBeVisible();
  const oldSession = await request.newContext({ baseURL, storageState: { cookies: paid.senderCookies, origins: [] } });
  try {
    expect((await oldSession.get(API.me)).status()).toBe(401);
  } finally {
    await oldSession.dispose();
  }
});

test('a draft continues at its message step without a second gift, and a paid gift’s message is replaced until it is opened', async ({
  page,
  context,
  baseURL,
  paidGift,
}) => {
  const paid = await paidGift({ message: { kind: 'video', file: smallVideo(), type: 'video/mp4' } });
  await context.addCookies(paid.senderCookies);
  const before = await waitForGift(page.request, paid.giftId, 'message ready', (g) => g.messageState === 'ready');

  // A draft: details and photo saved, no message yet (the sender left the wizard there).
  const draftId = await submitGift(page.request, {
    photo: COVER_001,
    planId: 'lifetime_us',
    recipientName: 'Sam',
    recipientEmail: 'sam@example.com',
    occasion: 'thank-you',
  });

  await page.goto(paths.myGifts.href());
  const sam = card(page, 'Sam');
  await expect(sam.getByText('Draft', { exact: true })).toBeVisible();
  await expect(sam.getByText('Thank You · Lifetime plan')).toBeVisible();
  await sam.getByRole('link', { name: 'Continue' }).click();

  // The wizard opens at step 3 for that gift, with the Lifetime plan's limit.
  await expect(page).toHaveURL(paths.send.href());
  await expect(page.getByRole('heading', { name: 'Add Your Personal Message' })).toBeVisible();
  await expect(page.getByText(/· up to 50MB$/)).toBeVisible();
  await expect(page.getByText(texts.sender.lifetimeBonus)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Back' })).toHaveCount(0);
  await page.getByLabel('Upload video file').setInputFiles(smallVideo());
  await page.getByRole('button', { name: 'Continue to Checkout' }).click();
  await expect(page).toHaveURL(paths.checkout.href(draftId), { timeout: 30_000 });
  expect((await myGifts(page.request)).map((g) => g.id).sort()).toEqual([paid.giftId, draftId].sort());

  // Replace the paid gift's message: the message step for that gift, then back to My Gifts (not checkout).
  await page.goto(paths.myGifts.href());
  await card(page, 'Ravi').getByRole('link', { name: 'Replace message' }).click();
  await expect(page).toHaveURL(paths.replaceMessage.href(paid.giftId));
  await expect(page.getByRole('heading', { name: 'Replace Your Message' })).toBeVisible();
  await page.getByLabel('Upload video file').setInputFiles(smallVideo());
  await page.getByRole('button', { name: 'Save New Message' }).click();
  await expect(page).toHaveURL(paths.myGifts.href(), { timeout: 30_000 });
  await expect(card(page, 'Ravi')).toBeVisible();
  const after = await waitForGift(
    page.request,
    paid.giftId,
    'the new message ready',
    (g) => g.messageState === 'ready' && new URL(g.messageUrl ?? '', baseURL).pathname !== new URL(before.messageUrl ?? '', baseURL).pathname,
  );
  expect(after.status).toBe('active');
  await expect(card(page, 'Ravi').getByText('Ready to share')).toBeVisible({ timeout: 15_000 });
});
