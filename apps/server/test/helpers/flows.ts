import { SIGNED_URL_TTL_MS } from '@giftlens/contract/constants';
import { CreateOrderResponse } from '@giftlens/contract/payments';
import { expect } from 'vitest';
import { json, putUpload, signIn, type Harness } from './harness.ts';
import { giftPhoto, multipart, tinyMp4 } from './media.ts';

export const GIFT_FIELDS = {
  recipientName: 'Maya',
  recipientEmail: 'Maya@Example.com',
  occasion: 'birthday',
  planId: 'premium_us',
};

export async function submitGift(
  h: Harness,
  cookie: string,
  fields: Record<string, string> = GIFT_FIELDS,
  images: Buffer[] = [giftPhoto()],
) {
  const body = multipart(
    fields,
    images.map((data, i) => ({ name: 'giftImage', filename: `gift-${i}.jpg`, type: 'image/jpeg', data })),
  );
  return h.app.inject({
    method: 'POST',
    url: '/api/gift-sender/submit-gift',
    headers: { ...body.headers, cookie },
    payload: body.payload,
  });
}

export async function createGift(h: Harness, cookie: string, fields: Record<string, string> = GIFT_FIELDS) {
  const res = await submitGift(h, cookie, fields);
  if (res.statusCode !== 200) throw new Error(`submit-gift failed: ${res.body}`);
  return json<{ giftId: string }>(res).giftId;
}

export interface UploadTarget {
  uploadUrl: string;
  publicUrl: string;
  filePath: string;
}

export async function generateUploadUrl(h: Harness, cookie: string, payload: Record<string, unknown>) {
  return h.app.inject({
    method: 'POST',
    url: '/api/gift-sender/generate-upload-url',
    headers: { cookie },
    payload,
  });
}

/** generate-upload-url → PUT → confirm-upload with a real MP4. */
export async function uploadVideo(h: Harness, cookie: string, giftId: string, data: Buffer = tinyMp4()) {
  const gen = await generateUploadUrl(h, cookie, {
    giftId,
    fileType: 'video/mp4',
    fileName: 'message.mp4',
    messageType: 'video',
    fileSize: data.length,
  });
  if (gen.statusCode !== 200) throw new Error(`generate-upload-url failed: ${gen.body}`);
  const target = json<UploadTarget>(gen);
  const put = await putUpload(h, target.uploadUrl, data);
  if (put.statusCode !== 200) throw new Error(`PUT failed: ${put.body}`);
  const confirm = await h.app.inject({
    method: 'POST',
    url: '/api/gift-sender/confirm-upload',
    headers: { cookie },
    payload: { giftId, publicUrl: target.publicUrl, messageType: 'video', filePath: target.filePath },
  });
  if (confirm.statusCode !== 200) throw new Error(`confirm-upload failed: ${confirm.body}`);
  // Confirm stores the checked bytes under the upload's name with their sniffed type's extension (.mp4 here).
  const filePath = await storedMessageKey(h, giftId);
  return { uploaded: target, filePath, publicUrl: h.media.signedUrl(filePath, SIGNED_URL_TTL_MS, h.clock.now()) };
}

/** Where a gift's message is stored now. */
export async function storedMessageKey(h: Harness, giftId: string): Promise<string> {
  const gift = await h.db.selectFrom('gifts').select('message_path').where('id', '=', giftId).executeTakeFirstOrThrow();
  if (!gift.message_path) throw new Error(`gift ${giftId} has no stored message`);
  return gift.message_path;
}

export async function createOrder(h: Harness, cookie: string, giftId: string) {
  return h.app.inject({
    method: 'POST',
    url: '/api/payment/create-order',
    headers: { cookie },
    payload: { giftId },
  });
}

/** A signed-in sender's gift on this plan with its message uploaded: ready to pay. */
export async function readyGift(h: Harness, planId = 'premium_us') {
  const { cookie } = await signIn(h);
  const giftId = await createGift(h, cookie, { recipientName: 'Maya', recipientEmail: 'maya@example.com', occasion: 'birthday', planId });
  await uploadVideo(h, cookie, giftId);
  return { cookie, giftId };
}

/** create-order, expected to succeed, as the contract's answer. */
export async function orderFor(h: Harness, cookie: string, giftId: string) {
  const res = await createOrder(h, cookie, giftId);
  expect(res.statusCode, res.body).toBe(200);
  return CreateOrderResponse.parse(json(res));
}

/** Order → test checkout → verify callback: the gift ends up active. */
export async function payGift(h: Harness, cookie: string, giftId: string) {
  const order = await createOrder(h, cookie, giftId);
  if (order.statusCode !== 200) throw new Error(`create-order failed: ${order.body}`);
  const { orderId } = json<{ orderId: string }>(order);
  const pay = await h.app.inject({
    method: 'POST',
    url: '/api/payment/test-checkout/pay',
    headers: { cookie },
    payload: { orderId },
  });
  const p = json<{ razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string }>(pay);
  const verify = await h.app.inject({
    method: 'POST',
    url: '/api/payment/verify-payment-callback',
    payload: {
      orderId: p.razorpay_order_id,
      paymentId: p.razorpay_payment_id,
      signature: p.razorpay_signature,
    },
  });
  if (verify.statusCode !== 200) throw new Error(`verify failed: ${verify.body}`);
  return { orderId, paymentId: p.razorpay_payment_id };
}

/** A signed-in sender with a paid gift. */
export async function paidGift(h: Harness, cookie: string) {
  const giftId = await createGift(h, cookie);
  await uploadVideo(h, cookie, giftId);
  await payGift(h, cookie, giftId);
  return giftId;
}
