import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { expect, type APIRequestContext } from '@playwright/test';
import { SuccessBody } from '@giftlens/contract/common';
import { MyGiftsResponse, type MyGift } from '@giftlens/contract/my-gifts';
import type { Occasion } from '@giftlens/contract/occasions';
import { CreateOrderResponse, TestPayResponse, VerifyPaymentResponse } from '@giftlens/contract/payments';
import type { PlanId } from '@giftlens/contract/plans';
import { ScheduleResponse, type ScheduleRequest } from '@giftlens/contract/scheduling';
import {
  GenerateUploadUrlResponse,
  GiftSummaryResponse,
  SendCodeResponse,
  SubmitGiftResponse,
  VerifyResponse,
} from '@giftlens/contract/sender';
import { expectOk } from './api.ts';
import { waitForCode } from './mailbox.ts';
import { API } from './paths.ts';

// The sender's calls, exactly as the wizard, the checkout and My Gifts make them, on an API context that holds
// (or gets) the sender's session cookie: `request.newContext()` for a sender of its own, or `page.request` to act
// as the sender signed in in the browser.

/** A recorded or uploaded message (a file the server converts), or a typed one. */
export type Message = { kind: 'video' | 'audio'; file: string; type: string } | { kind: 'text'; text: string };

export interface GiftDetails {
  /** Reference photo of the gift (the sender's photo). */
  photo: string;
  planId: PlanId;
  recipientName: string;
  recipientEmail: string;
  occasion?: Occasion;
}

/** The e-mail step: a code is sent to `email`, read from the real SMTP server and verified; the session is set. */
export async function signIn(api: APIRequestContext, mailDir: string, email: string): Promise<VerifyResponse> {
  const since = Date.now();
  await expectOk(await api.post(API.sendEmail, { data: { email, type: 'sender' } }), SendCodeResponse);
  const code = await waitForCode(mailDir, email, since);
  return expectOk(await api.post(API.verifyEmail, { data: { email, code, type: 'sender' } }), VerifyResponse);
}

/** The name step a new sender sees after the code. */
export async function setFirstName(api: APIRequestContext, email: string, firstName: string): Promise<void> {
  await expectOk(await api.post(API.updateUser, { data: { firstName, email } }), SuccessBody);
}

/** The gift details step: the gift with its photo; answers the new gift's id. */
export async function submitGift(api: APIRequestContext, gift: GiftDetails): Promise<string> {
  const created = await expectOk(
    await api.post(API.submitGift, {
      multipart: {
        recipientName: gift.recipientName,
        recipientEmail: gift.recipientEmail,
        occasion: gift.occasion ?? 'birthday',
        planId: gift.planId,
        giftImage: { name: basename(gift.photo), mimeType: 'image/jpeg', buffer: readFileSync(gift.photo) },
      },
    }),
    SubmitGiftResponse,
  );
  return created.giftId;
}

/** The message step: a typed text is saved; a file is uploaded to the signed upload URL and confirmed. */
export async function addMessage(api: APIRequestContext, giftId: string, message: Message): Promise<void> {
  if (message.kind === 'text') {
    await expectOk(await api.post(API.saveTextMessage, { data: { giftId, text: message.text } }), SuccessBody);
    return;
  }
  const body = readFileSync(message.file);
  const target = await expectOk(
    await api.post(API.generateUploadUrl, {
      data: {
        giftId,
        fileType: message.type,
        fileName: basename(message.file),
        messageType: message.kind,
        fileSize: body.length,
      },
    }),
    GenerateUploadUrlResponse,
  );
  const put = await api.put(target.uploadUrl, { data: body, headers: { 'content-type': message.type } });
  expect(put.ok(), `upload → ${put.status()} ${await put.text()}`).toBe(true);
  await expectOk(
    await api.post(API.confirmUpload, {
      data: { giftId, publicUrl: target.publicUrl, messageType: message.kind, filePath: target.filePath },
    }),
    SuccessBody,
  );
}

/** An uploaded message is converted to play on every phone before it can be revealed: waits until it is ready. */
export async function waitForMessageReady(api: APIRequestContext, giftId: string): Promise<void> {
  await expect
    .poll(async () => (await expectOk(await api.get(API.senderGift(giftId)), GiftSummaryResponse)).gift.messageState, {
      message: `the message of gift ${giftId} to be converted`,
      timeout: 30_000,
    })
    .toBe('ready');
}

/** The checkout in test mode: an order, the test provider's payment, and its verification. */
export async function pay(api: APIRequestContext, giftId: string): Promise<void> {
  const order = await expectOk(await api.post(API.createOrder, { data: { giftId } }), CreateOrderResponse);
  const paid = await expectOk(await api.post(API.testPay, { data: { orderId: order.orderId } }), TestPayResponse);
  const verified = await expectOk(
    await api.post(API.verifyPayment, {
      data: { orderId: paid.razorpay_order_id, paymentId: paid.razorpay_payment_id, signature: paid.razorpay_signature },
    }),
    VerifyPaymentResponse,
  );
  expect(verified.giftId).toBe(giftId);
}

/** The share page's "Share Link Later". */
export async function scheduleDelivery(api: APIRequestContext, delivery: ScheduleRequest): Promise<void> {
  await expectOk(await api.post(API.scheduledMessages, { data: delivery }), ScheduleResponse);
}

/** The sender's gifts as My Gifts lists them. */
export async function myGifts(api: APIRequestContext): Promise<MyGift[]> {
  return (await expectOk(await api.get(API.myGifts), MyGiftsResponse)).gifts;
}

/** The gift as My Gifts shows it to its sender. */
export async function myGift(api: APIRequestContext, giftId: string): Promise<MyGift> {
  const gift = (await myGifts(api)).find((g) => g.id === giftId);
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
