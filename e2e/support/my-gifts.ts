import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import type { MyGift } from '@giftlens/contract/my-gifts';
import { RUNTIME_FILE, type E2ERuntime } from './paths.ts';

async function ok(res: APIResponse): Promise<Record<string, unknown>> {
  expect(res.status(), `${res.url()} → ${await res.text()}`).toBeLessThan(300);
  return (await res.json()) as Record<string, unknown>;
}

interface GiftAsOptions {
  /** The sender's e-mail (the session's): update-user needs it. */
  senderEmail: string;
  photo: string;
  planId: 'premium_us' | 'lifetime_us' | 'basic_in' | 'premium_in' | 'lifetime_in';
  video: string;
  recipientName?: string;
  recipientEmail?: string;
}

/**
 * A paid gift for the sender already signed in on `api` (for instance `page.request`, which shares the browser's
 * session): the same calls as createPaidGift in gifts.ts — first name, gift with photo, video upload, test payment —
 * without a new sign-in, so a sender who just signed in in the browser owns it.
 */
export async function createPaidGiftAs(api: APIRequestContext, opts: GiftAsOptions): Promise<string> {
  await ok(await api.post('/api/gift-sender/update-user', { data: { firstName: 'Asha', email: opts.senderEmail } }));
  const created = await ok(
    await api.post('/api/gift-sender/submit-gift', {
      multipart: {
        recipientName: opts.recipientName ?? 'Ravi',
        recipientEmail: opts.recipientEmail ?? 'ravi@example.com',
        occasion: 'birthday',
        planId: opts.planId,
        giftImage: { name: basename(opts.photo), mimeType: 'image/jpeg', buffer: readFileSync(opts.photo) },
      },
    }),
  );
  const giftId = String(created.giftId);
  const body = readFileSync(opts.video);
  const target = await ok(
    await api.post('/api/gift-sender/generate-upload-url', {
      data: { giftId, fileType: 'video/mp4', fileName: basename(opts.video), messageType: 'video', fileSize: body.length },
    }),
  );
  const put = await api.put(String(target.uploadUrl), { data: body, headers: { 'content-type': 'video/mp4' } });
  expect(put.status()).toBeLessThan(300);
  await ok(
    await api.post('/api/gift-sender/confirm-upload', {
      data: { giftId, publicUrl: target.publicUrl, messageType: 'video', filePath: target.filePath },
    }),
  );
  const order = await ok(await api.post('/api/payment/create-order', { data: { giftId } }));
  const paid = await ok(await api.post('/api/payment/test-checkout/pay', { data: { orderId: order.orderId } }));
  await ok(
    await api.post('/api/payment/verify-payment-callback', {
      data: { orderId: paid.razorpay_order_id, paymentId: paid.razorpay_payment_id, signature: paid.razorpay_signature },
    }),
  );
  return giftId;
}

/** The gift as GET /api/gift-sender/gifts shows it to its sender. */
export async function myGift(api: APIRequestContext, giftId: string): Promise<MyGift> {
  const res = await ok(await api.get('/api/gift-sender/gifts'));
  const gift = (res.gifts as MyGift[]).find((g) => g.id === giftId);
  if (!gift) throw new Error(`gift ${giftId} is not in the sender's list`);
  return gift;
}

/**
 * Waits until the sender's list shows the gift in the wanted state: an upload is converted by a server job
 * (messageState processing, then ready), and so is a recorded reaction.
 */
export async function waitForGift(
  api: APIRequestContext,
  giftId: string,
  what: string,
  ready: (gift: MyGift) => boolean,
  timeoutMs = 30_000,
): Promise<MyGift> {
  let last: MyGift | undefined;
  await expect
    .poll(
      async () => {
        last = await myGift(api, giftId);
        return ready(last);
      },
      { message: `gift ${giftId}: ${what}`, timeout: timeoutMs },
    )
    .toBe(true);
  return last!;
}

/** Every file kept for the gift under DATA_DIR/media (its photos, message, posters, reaction). */
export function mediaFilesOf(giftId: string): string[] {
  const { dataDir } = JSON.parse(readFileSync(RUNTIME_FILE, 'utf8')) as E2ERuntime;
  const walk = (dir: string): string[] =>
    existsSync(dir)
      ? readdirSync(dir).flatMap((name) => {
          const path = join(dir, name);
          return statSync(path).isDirectory() ? walk(path) : [path];
        })
      : [];
  return [...walk(join(dataDir, 'media', 'gifts', giftId)), ...walk(join(dataDir, 'media', 'reactions', giftId))];
}
