import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { ErrorBody } from '@giftlens/contract/common';
import { GiftMessageResponse, PlayConsentResponse } from '@giftlens/contract/recipient';
import { texts } from '@giftlens/contract/texts';
import { expect, test } from '../../support/fixtures.ts';
import { smallVideo } from '../../support/media.ts';
import { API, GIFT_PHOTOS_DIR, paths } from '../../support/paths.ts';
import { expectOk } from '../../support/api.ts';
import { myGift } from '../../support/sender-api.ts';

// One fake device serves as both the rear camera (scan) and the front camera (reaction); the gift is cover 001.
test.use({ camera: resolve(GIFT_PHOTOS_DIR, 'covers/photos/001-droid.jpg') });

async function scanToMessage(page: Page, giftId: string): Promise<void> {
  await page.goto(paths.scanningCamera.href(giftId, 'direct'));
  await expect(page).toHaveURL(paths.giftMessage.href(giftId), { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'A Special Message For You' })).toBeVisible();
}

/** The message as the recipient's page reads it, with the reveal grant its scan gave the browser. */
async function revealedMessage(page: Page, giftId: string): Promise<GiftMessageResponse> {
  return expectOk(await page.request.get(API.giftMessage(giftId)), GiftMessageResponse);
}

/** Clicks Play message and answers what the server said to the page's play-consent call. */
async function playMessage(page: Page): Promise<PlayConsentResponse> {
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === API.playConsent);
  await page.getByRole('button', { name: 'Play message' }).click();
  const res = await answer;
  expect(res.ok(), `play-consent → ${res.status()}`).toBe(true);
  return PlayConsentResponse.parse(await res.json());
}

/** The page's reaction calls as they answer ("POST /api/… → 200") and its console warnings, for a failure's message. */
function reactionCalls(page: Page): string[] {
  const seen: string[] = [];
  page.on('response', (r) => {
    const path = new URL(r.url()).pathname;
    if (/reaction|consent|synced/i.test(path)) seen.push(`${r.request().method()} ${path} → ${r.status()}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') seen.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('requestfailed', (r) =>
    seen.push(`${r.method()} ${new URL(r.url()).pathname} failed: ${r.failure()?.errorText}`),
  );
  return seen;
}

/**
 * Runs `steps`; when one fails, its error also says what the page showed and did: the toasts, the message's player
 * and the reaction calls (a failure in CI leaves only its text behind).
 */
async function withPageState(page: Page, calls: string[], steps: () => Promise<void>): Promise<void> {
  try {
    await steps();
  } catch (err) {
    const toasts = await page
      .locator('[data-sonner-toast]')
      .allInnerTexts()
      .catch(() => ['(unreadable)']);
    const player = await page
      .locator('video')
      .evaluate((v: HTMLVideoElement) =>
        JSON.stringify({
          currentTime: v.currentTime,
          duration: v.duration,
          paused: v.paused,
          ended: v.ended,
          readyState: v.readyState,
          networkState: v.networkState,
          error: v.error?.code ?? null,
        }),
      )
      .catch(() => '(no player)');
    const state = `toasts: ${JSON.stringify(toasts)}\nplayer: ${player}\nreaction calls: ${calls.join('; ') || 'none'}`;
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- the page then ---\n${state}`, {
      cause: err,
    });
  }
}

test('on a Lifetime gift the recipient consents and their reaction is recorded and saved', async ({
  page,
  paidGift,
}) => {
  // A message converted, a scan, up to 9 s of recording and its upload: room for a machine running 3x slower.
  test.setTimeout(120_000);
  const gift = await paidGift({
    planId: 'lifetime_us',
    message: { kind: 'video', file: smallVideo(), type: 'video/mp4' },
  });
  await scanToMessage(page, gift.giftId);
  const calls = reactionCalls(page);

  const asked = await playMessage(page);
  // The gift's one reaction is opened for recording.
  expect(asked).toMatchObject({ allowRecording: true, message: texts.recipient.reactionConsentAsked });
  const consent = page.getByRole('dialog', { name: 'Record your reaction?' });
  await expect(consent).toBeVisible();
  await consent.getByRole('button', { name: 'Play & Record Video' }).click();

  await expect(page.getByLabel('Recording your reaction')).toBeVisible();
  // The 2 s message ends, recording stops (1 s later, after at least 3 s of recording) and the reaction uploads.
  await withPageState(page, calls, async () => {
    // At most MIN_RECORDING_MS + NOTHING_YET_MAX_MS (9 s) of recording, on a machine that may run the page slowly.
    await expect(page.getByLabel('Recording your reaction')).toBeHidden({ timeout: 30_000 });
    await expect(page.getByText('Your video reaction has been captured and saved!')).toBeVisible({
      timeout: 20_000,
    });
  });

  // The gift has its recording (the server stores one only for a reaction consented to, and one per gift).
  expect((await revealedMessage(page, gift.giftId)).hasReaction).toBe(true);

  // A second play finds the recorded reaction and only plays.
  await page.reload();
  const again = await playMessage(page);
  expect(again).toMatchObject({ allowRecording: false, message: texts.recipient.alreadyReacted, data: null });
  await expect(page.getByText('This gift already has a recorded reaction. Playing message...')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Record your reaction?' })).toBeHidden();
  expect((await revealedMessage(page, gift.giftId)).hasReaction).toBe(true);
});

test('"Just Play" plays the message and records nothing', async ({ page, paidGift }) => {
  const gift = await paidGift({
    planId: 'lifetime_us',
    message: { kind: 'video', file: smallVideo(), type: 'video/mp4' },
  });
  await scanToMessage(page, gift.giftId);

  const asked = await playMessage(page);
  const reactionId = asked.data?.id;
  expect(reactionId, 'a reaction was opened for the answer').toBeTruthy();
  const consent = page.getByRole('dialog', { name: 'Record your reaction?' });
  await consent.getByRole('button', { name: 'Just Play' }).click();

  const video = page.locator('video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.ended), { timeout: 15_000 }).toBe(true);
  await expect(page.getByLabel('Recording your reaction')).toBeHidden();

  // Nothing recorded: the gift has no recording, its sender sees none, and the server holds no consent for this
  // reaction — it refuses to start recording it.
  expect((await revealedMessage(page, gift.giftId)).hasReaction).toBe(false);
  expect((await myGift(gift.sender, gift.giftId)).reaction).toBeNull();
  const start = await page.request.post(API.startSyncedRecording, {
    data: { reactionId, mediaStartTime: 0, playbackSessionId: `e2e-probe-${Date.now()}` },
  });
  expect(start.status()).toBe(403);
  expect(ErrorBody.parse(await start.json())).toMatchObject({ code: 'consent_required' });
});
