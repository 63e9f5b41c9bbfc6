import * as z from 'zod/mini';
import { texts } from './texts.ts';

const base64url = z.string().check(z.regex(/^[A-Za-z0-9_-]+=*$/, { error: texts.sender.pushSubscriptionInvalid }));

// POST /api/push/subscribe: the browser's PushSubscription.toJSON(), as the spec sends it.
export const PushSubscriptionBody = z.object({
  endpoint: z.url({ protocol: /^https$/, error: texts.sender.pushSubscriptionInvalid }).check(z.maxLength(2048, { error: texts.sender.pushSubscriptionInvalid })),
  expirationTime: z.optional(z.nullable(z.number())),
  keys: z.object(
    {
      p256dh: base64url.check(z.minLength(80, { error: texts.sender.pushSubscriptionInvalid }), z.maxLength(100, { error: texts.sender.pushSubscriptionInvalid })),
      auth: base64url.check(z.minLength(16, { error: texts.sender.pushSubscriptionInvalid }), z.maxLength(32, { error: texts.sender.pushSubscriptionInvalid })),
    },
    { error: texts.sender.pushSubscriptionInvalid },
  ),
});
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBody>;

// POST /api/push/unsubscribe
export const PushUnsubscribeBody = z.object({ endpoint: z.string({ error: texts.sender.pushSubscriptionInvalid }).check(z.minLength(1), z.maxLength(2048)) });

// GET /api/push/public-key: the VAPID application server key, base64url.
export const PushPublicKeyResponse = z.object({ success: z.literal(true), publicKey: z.string() });

/** What a push message carries; the service worker shows it and opens `url` on a click. */
export const PushNotice = z.object({
  title: z.string(),
  body: z.string(),
  /** A same-origin path. */
  url: z.string().check(z.startsWith('/')),
  /** Notices with the same tag replace each other on the device. */
  tag: z.string(),
});
export type PushNotice = z.infer<typeof PushNotice>;
