import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { request, expect, type APIRequestContext, type APIResponse, type Cookie } from '@playwright/test';
import { waitForCode } from './mailbox.ts';
import { uniqueEmail } from './fixtures.ts';

export interface PaidGift {
  giftId: string;
  senderEmail: string;
  recipientEmail: string;
  /** The sender's session cookie, to continue as that sender in a browser (`context.addCookies`). */
  senderCookies: Cookie[];
}

interface GiftOptions {
  baseURL: string;
  mailDir: string;
  /** Reference photo of the gift (the sender's photo). */
  photo: string;
  planId: 'premium_us' | 'lifetime_us' | 'basic_in' | 'premium_in' | 'lifetime_in';
  message: { kind: 'video' | 'audio'; file: string; type: string } | { kind: 'text'; text: string };
  recipientName?: string;
  recipientEmail?: string;
  senderName?: string;
}

async function ok(res: APIResponse): Promise<Record<string, unknown>> {
  expect(res.status(), `${res.url()} → ${await res.text()}`).toBeLessThan(300);
  return (await res.json()) as Record<string, unknown>;
}

/**
 * On `api`: a new sender signs in with the e-mail code (read from the real SMTP server), gives a first name and
 * creates a gift with its photo, exactly the calls the wizard makes. Answers the gift id and the sender's e-mail.
 */
async function signUpAndCreateGift(
  api: APIRequestContext,
  opts: Omit<GiftOptions, 'message'>,
  recipientEmail: string,
): Promise<{ giftId: string; senderEmail: string }> {
  const senderEmail = uniqueEmail('giver');
  const since = Date.now();
  await ok(await api.post('/api/gift-sender/send-email', { data: { email: senderEmail, type: 'sender' } }));
  const code = await waitForCode(opts.mailDir, senderEmail, since);
  await ok(await api.post('/api/gift-sender/verify-email', { data: { email: senderEmail, code, type: 'sender' } }));
  await ok(
    await api.post('/api/gift-sender/update-user', {
      data: { firstName: opts.senderName ?? 'Asha', email: senderEmail },
    }),
  );
  const created = await ok(
    await api.post('/api/gift-sender/submit-gift', {
      multipart: {
        recipientName: opts.recipientName ?? 'Ravi',
        recipientEmail,
        occasion: 'birthday',
        planId: opts.planId,
        giftImage: { name: basename(opts.photo), mimeType: 'image/jpeg', buffer: readFileSync(opts.photo) },
      },
    }),
  );
  return { giftId: String(created.giftId), senderEmail };
}

export interface DraftGift {
  giftId: string;
  senderEmail: string;
  recipientEmail: string;
  /** The sender's session cookie, to continue as that sender in a browser (`context.addCookies`). */
  senderCookies: Cookie[];
}

/** A new sender's gift with its photo and plan, no message yet: the wizard's state before the message step. */
export async function createDraftGift(opts: Omit<GiftOptions, 'message'>): Promise<DraftGift> {
  const api = await request.newContext({ baseURL: opts.baseURL });
  try {
    const recipientEmail = opts.recipientEmail ?? uniqueEmail('recipient');
    const { giftId, senderEmail } = await signUpAndCreateGift(api, opts, recipientEmail);
    return { giftId, senderEmail, recipientEmail, senderCookies: (await api.storageState()).cookies };
  } finally {
    await api.dispose();
  }
}

/**
 * A sender creates and pays for a gift through the real API, exactly the calls the wizard makes: e-mail code
 * (read from the real SMTP server), first name, gift with photo, message upload, test-mode payment.
 */
export async function createPaidGift(opts: GiftOptions): Promise<PaidGift> {
  const api = await request.newContext({ baseURL: opts.baseURL });
  try {
    const recipientEmail = opts.recipientEmail ?? uniqueEmail('recipient');
    const { giftId, senderEmail } = await signUpAndCreateGift(api, opts, recipientEmail);

    const message = opts.message;
    if (message.kind === 'text') {
      await ok(
        await api.post('/api/gift-sender/save-text-message', { data: { giftId, text: message.text } }),
      );
    } else {
      const body = readFileSync(message.file);
      const target = await ok(
        await api.post('/api/gift-sender/generate-upload-url', {
          data: {
            giftId,
            fileType: message.type,
            fileName: basename(message.file),
            messageType: message.kind,
            fileSize: body.length,
          },
        }),
      );
      const put = await api.put(String(target.uploadUrl), {
        data: body,
        headers: { 'content-type': message.type },
      });
      expect(put.status()).toBeLessThan(300);
      await ok(
        await api.post('/api/gift-sender/confirm-upload', {
          data: { giftId, publicUrl: target.publicUrl, messageType: message.kind, filePath: target.filePath },
        }),
      );
    }

    // A recording is converted to play on every phone before it can be revealed: wait until it is ready.
    if (message.kind !== 'text') {
      await expect
        .poll(
          async () => {
            const summary = (await ok(await api.get(`/api/gift-sender/gifts/${giftId}`))) as { gift: { messageState: string } };
            return summary.gift.messageState;
          },
          { message: `the message of gift ${giftId} to be converted`, timeout: 30_000 },
        )
        .toBe('ready');
    }

    const order = await ok(await api.post('/api/payment/create-order', { data: { giftId } }));
    const paid = await ok(
      await api.post('/api/payment/test-checkout/pay', { data: { orderId: order.orderId } }),
    );
    await ok(
      await api.post('/api/payment/verify-payment-callback', {
        data: {
          orderId: paid.razorpay_order_id,
          paymentId: paid.razorpay_payment_id,
          signature: paid.razorpay_signature,
        },
      }),
    );
    return { giftId, senderEmail, recipientEmail, senderCookies: (await api.storageState()).cookies };
  } finally {
    await api.dispose();
  }
}
