import type { NoticeEvent } from '../modules/notices/notices.content.ts';

// Every job key (at most one job per key: enqueueing it again is a no-op), beside the kinds in kinds.ts. Modules make
// keys only through these: a key's shape is written once. A job that acts on a gift is enqueued with the `…Job`
// helper of its kind, which gives the key and the gift's id together (enqueue's options): deleting the gift deletes
// its jobs by their gift_id column (jobs_gift_idx, decision 044), not by matching keys.

/** A job's key and the gift it acts on, as enqueue takes them. */
export interface GiftJob {
  key: string;
  giftId: string;
}

/** `auth.code_mail` of one sign-in code (verification_codes row). */
export const codeMailJobKey = (codeId: string) => `code-mail:${codeId}`;

/** The one recurring housekeeping job. */
export const HOUSEKEEPING_JOB_KEY = 'housekeeping';

/** `delivery.send` of one delivery (scheduled_messages row). */
export const deliveryJobKey = (deliveryId: string) => `delivery:${deliveryId}`;
/** `delivery.send` of one delivery of a gift. */
export const deliveryJob = (deliveryId: string, giftId: string): GiftJob => ({ key: deliveryJobKey(deliveryId), giftId });

/** `notice.fanout` of one event of a gift. */
export const noticeFanoutKey = (event: NoticeEvent, giftId: string) => `notice:${event}:${giftId}`;
/** `notice.mail`: the sender's e-mail of one event of a gift. */
export const noticeMailKey = (event: NoticeEvent, giftId: string) => `${noticeFanoutKey(event, giftId)}:mail`;
/** `notice.push`: one device's push of one event of a gift. */
export const noticePushKey = (event: NoticeEvent, giftId: string, subscriptionId: string) =>
  `${noticeFanoutKey(event, giftId)}:push:${subscriptionId}`;
export const noticeFanoutJob = (event: NoticeEvent, giftId: string): GiftJob => ({ key: noticeFanoutKey(event, giftId), giftId });
export const noticeMailJob = (event: NoticeEvent, giftId: string): GiftJob => ({ key: noticeMailKey(event, giftId), giftId });
export const noticePushJob = (event: NoticeEvent, giftId: string, subscriptionId: string): GiftJob => ({
  key: noticePushKey(event, giftId, subscriptionId),
  giftId,
});

/** `payment.confirmation` of a gift (once, after its first payment). */
export const paymentConfirmationKey = (giftId: string) => `payment-confirmation:${giftId}`;
export const paymentConfirmationJob = (giftId: string): GiftJob => ({ key: paymentConfirmationKey(giftId), giftId });

/**
 * A sender's share of the single messages' conversion lane (issue 37): every conversion of their gifts (their messages,
 * their recipients' reactions, their group gifts' contributions) takes turns with other senders', so one sender's
 * many queued conversions never hold another's single message behind all of theirs (runner.ts claimJobs, `fair`).
 */
export const senderShare = (senderId: string) => `sender:${senderId}`;

/** `message.render`, `reaction.render` or `contribution.render` of one stored file of a gift (`fileKey`): one per stored file. */
export const renderJobKey = (giftId: string, fileKey: string) => `media:${giftId}:${fileKey}`;
/** Its key and gift, and the share of the gift's sender it takes its turn in. */
export const renderJob = (giftId: string, fileKey: string, senderId: string): GiftJob & { share: string } => ({
  key: renderJobKey(giftId, fileKey),
  giftId,
  share: senderShare(senderId),
});

/** A merchant's webhook (one job per event), the release of a merchant's gift (`why`: ready, delivered), the buyer's mail. */
export const merchantWebhookJobKey = (webhookId: string) => `merchant-webhook:${webhookId}`;
export const merchantReleaseJob = (giftId: string, why: string): GiftJob => ({ key: `merchant-release:${why}:${giftId}`, giftId });
export const merchantBuyerMailJob = (giftId: string): GiftJob => ({ key: `merchant-buyer-mail:${giftId}`, giftId });

/** Group gifts: the deadline's close and reminders (a moved deadline makes new keys), the combined MP4 of a version. */
export const groupCloseJob = (giftId: string, deadline: string): GiftJob => ({ key: `group-close:${giftId}:${deadline}`, giftId });
export const groupRemindJob = (giftId: string, deadline: string, hours: number): GiftJob => ({ key: `group-remind:${giftId}:${hours}:${deadline}`, giftId });
export const groupRenderJob = (giftId: string, version: number): GiftJob => ({ key: `group-render:${giftId}:${version}`, giftId });
/** One invitee's mail of one kind (the invitation and each reminder once; `opened` once). */
export const groupMailJob = (giftId: string, invitationId: string, kind: string): GiftJob => ({ key: `group-mail:${kind}:${invitationId}`, giftId });
export const groupNoticeJob = (giftId: string, kind: string): GiftJob => ({ key: `group-notice:${kind}:${giftId}`, giftId });
/** Issue 40: the sender's "not opened yet" reminder and the recipient's "ends tomorrow" one, each once per gift. */
export const senderReminderJob = (giftId: string): GiftJob => ({ key: `reminder:sender:${giftId}`, giftId });
export const recipientReminderJob = (giftId: string): GiftJob => ({ key: `reminder:recipient:${giftId}`, giftId });
