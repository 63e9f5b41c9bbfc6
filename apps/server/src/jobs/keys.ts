import type { NoticeEvent } from '../modules/notices/notices.content.ts';

// Every job key (at most one job per key: enqueueing it again is a no-op) and every pattern that finds a gift's
// jobs by their keys, beside the kinds in kinds.ts. Modules make keys only through these: a key's shape is written
// once, so the patterns below match what was enqueued. Ids are random hex, so they hold no LIKE wildcard.

/** The one recurring housekeeping job. */
export const HOUSEKEEPING_JOB_KEY = 'housekeeping';

/** `delivery.send` of one delivery (scheduled_messages row). */
export const deliveryJobKey = (deliveryId: string) => `delivery:${deliveryId}`;

/** `notice.fanout` of one event of a gift. */
export const noticeFanoutKey = (event: NoticeEvent, giftId: string) => `notice:${event}:${giftId}`;
/** `notice.mail`: the sender's e-mail of one event of a gift. */
export const noticeMailKey = (event: NoticeEvent, giftId: string) => `${noticeFanoutKey(event, giftId)}:mail`;
/** `notice.push`: one device's push of one event of a gift. */
export const noticePushKey = (event: NoticeEvent, giftId: string, subscriptionId: string) =>
  `${noticeFanoutKey(event, giftId)}:push:${subscriptionId}`;

/** `payment.confirmation` of a gift (once, after its first payment). */
export const paymentConfirmationKey = (giftId: string) => `payment-confirmation:${giftId}`;

/** `message.render` or `reaction.render` of one stored file of a gift (`fileKey`): one per stored file. */
export const renderJobKey = (giftId: string, fileKey: string) => `media:${giftId}:${fileKey}`;

/** LIKE patterns matching the key of every notice job (fan-out, mail, push) and every render job of a gift. */
export const giftJobKeyPatterns = (giftId: string) => [`notice:%:${giftId}%`, `media:${giftId}:%`];
