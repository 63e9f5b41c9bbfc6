import type { NoticeEvent } from '../modules/notices/notices.content.ts';

/** Every kind of job and its payload: the one list a handler table must cover. */
export interface JobPayloads {
  /**
   * Mails one sign-in code (every flow's, staff too: no request waits for a mail, so the answer's time says nothing
   * of the address). `sealed` is the code sealed to `codeId`; `deliver` false (an address that is not staff on the
   * staff console) mails nothing. Skipped once the code is used, replaced or expired.
   */
  'auth.code_mail': { codeId: string; sealed: string; deliver: boolean };
  /** Send one scheduled (or send-now) delivery to the recipient. */
  'delivery.send': { deliveryId: string };
  /** A sender-facing event happened: create one mail job and one push job per subscribed device. */
  'notice.fanout': { event: NoticeEvent; giftId: string };
  'notice.mail': { event: NoticeEvent; giftId: string };
  'notice.push': { event: NoticeEvent; giftId: string; subscriptionId: string };
  /** The sender's payment confirmation e-mail with the gift's backup code (once per gift, after its first payment). */
  'payment.confirmation': { giftId: string };
  /** Turns an uploaded message into MP4 H.264/AAC (or M4A) with a poster; `key` is the uploaded file. */
  'message.render': { giftId: string; key: string };
  /** The same for a recipient's reaction recording. */
  'reaction.render': { reactionId: string; key: string };
  /** A contributor's uploaded message turned into MP4 (or M4A) with a poster, as `message.render` (group gifts). */
  'contribution.render': { contributionId: string; key: string };
  /** A group gift's combined MP4 of `version` (group_gifts.combined_version): title cards, one size, even loudness. */
  'group.render': { giftId: string; version: number };
  /** Closes a group gift's contributions at its deadline (skipped when the deadline moved since). */
  'group.close': { giftId: string; deadline: string };
  /** Reminds a group gift's invitees who have not contributed, `hours` before the deadline (once each). */
  'group.remind': { giftId: string; deadline: string; hours: 48 | 24 };
  /** One e-mail to one invitee: the invitation, a reminder, or that the recipient opened the gift. */
  'group.mail': { invitationId: string; kind: 'invite' | 'remind' | 'opened' | 'deadline'; hours?: number };
  /** One e-mail to the organizer: contributions closed ("4 of 6 added"), or nobody has contributed yet. */
  'group.notice': { giftId: string; kind: 'summary' | 'empty' };
  /** The sender's e-mail that staff refunded their gift, or took it down (modules/staff). */
  'staff.notice': { giftId: string; kind: 'refunded' | 'taken_down' };
  /** A staff member's e-mail that a colleague (`by`) reset their second factor (modules/staff). */
  'staff.member_notice': { email: string; by: string; kind: 'totp_reset' };
  /** One signed webhook to a merchant (decision 058), retried with back-off for a day; each attempt is recorded. */
  'merchant.webhook': { webhookId: string };
  /** A merchant's gift: send the recipient their link once the message is ready and the release is due. */
  'merchant.release': { giftId: string };
  /** The buyer's e-mail with the record link of a merchant's gift. */
  'merchant.buyer_mail': { giftId: string };
  /** Deletes stored files whose rows are gone (a deleted gift or account); retried until every one is gone. */
  'media.delete': { keys: string[] };
  /**
   * Issue 40: one e-mail each, at most once per gift, skipped for a gift opened, withdrawn, ended or with reminders
   * off: the sender's 48 hours after the link went out (not opened yet, with the backup code), the recipient's 24
   * hours before the plan ends. Rescheduled when the moment moved (a later delivery, a longer validity).
   */
  'reminder.sender': { giftId: string };
  'reminder.recipient': { giftId: string };
  /** Recurring: removes what nobody can use any more (docs/decisions/008-housekeeping.md). */
  housekeeping: Record<string, never>;
}
export type JobKind = keyof JobPayloads;

export interface RetryPolicy {
  /** Attempts in all, the first included; after the last failure the job is dead. */
  maxAttempts: number;
  /** The wait after the first failure; it doubles with each further failure, up to maxDelayMs (±20% jitter). */
  baseDelayMs: number;
  maxDelayMs: number;
}

const MINUTE = 60_000;

export const RETRY_POLICIES: Record<JobKind, RetryPolicy> = {
  // 5, 10, 20, 40 s: a code lives 10 minutes, so its mail is worth trying only within them.
  'auth.code_mail': { maxAttempts: 5, baseDelayMs: 5_000, maxDelayMs: 60_000 },
  // 30 s, 1, 2, 4, 8 min: a mail server down for a quarter of an hour still gets the delivery out.
  'delivery.send': { maxAttempts: 6, baseDelayMs: 30_000, maxDelayMs: 30 * MINUTE },
  'notice.fanout': { maxAttempts: 8, baseDelayMs: 10_000, maxDelayMs: 10 * MINUTE },
  'notice.mail': { maxAttempts: 6, baseDelayMs: 30_000, maxDelayMs: 30 * MINUTE },
  'notice.push': { maxAttempts: 5, baseDelayMs: 30_000, maxDelayMs: 30 * MINUTE },
  'payment.confirmation': { maxAttempts: 6, baseDelayMs: 30_000, maxDelayMs: 30 * MINUTE },
  'message.render': { maxAttempts: 3, baseDelayMs: 30_000, maxDelayMs: 5 * MINUTE },
  'reaction.render': { maxAttempts: 3, baseDelayMs: 30_000, maxDelayMs: 5 * MINUTE },
  'contribution.render': { maxAttempts: 3, baseDelayMs: 30_000, maxDelayMs: 5 * MINUTE },
  'group.render': { maxAttempts: 3, baseDelayMs: 60_000, maxDelayMs: 10 * MINUTE },
  'group.close': { maxAttempts: 8, baseDelayMs: 10_000, maxDelayMs: 10 * MINUTE },
  'group.remind': { maxAttempts: 8, baseDelayMs: 10_000, maxDelayMs: 10 * MINUTE },
  'group.mail': { maxAttempts: 6, baseDelayMs: 30_000, maxDelayMs: 30 * MINUTE },
  'group.notice': { maxAttempts: 6, baseDelayMs: 30_000, maxDelayMs: 30 * MINUTE },
  'staff.notice': { maxAttempts: 6, baseDelayMs: 30_000, maxDelayMs: 30 * MINUTE },
  'staff.member_notice': { maxAttempts: 6, baseDelayMs: 30_000, maxDelayMs: 30 * MINUTE },
  // 10 s doubling to 2 h: 10 s … 85 min in the first 10 attempts (about 2.8 h), then every 2 h up to a day in all.
  'merchant.webhook': { maxAttempts: 21, baseDelayMs: 10_000, maxDelayMs: 120 * MINUTE },
  'merchant.release': { maxAttempts: 8, baseDelayMs: 10_000, maxDelayMs: 10 * MINUTE },
  'merchant.buyer_mail': { maxAttempts: 6, baseDelayMs: 30_000, maxDelayMs: 30 * MINUTE },
  'reminder.sender': { maxAttempts: 6, baseDelayMs: 30_000, maxDelayMs: 30 * MINUTE },
  'reminder.recipient': { maxAttempts: 6, baseDelayMs: 30_000, maxDelayMs: 30 * MINUTE },
  'media.delete': { maxAttempts: 10, baseDelayMs: 60_000, maxDelayMs: 6 * 60 * MINUTE },
  housekeeping: { maxAttempts: 3, baseDelayMs: 5 * MINUTE, maxDelayMs: 30 * MINUTE },
};

/** The wait before the next attempt after `attempts` failed ones (1-based), with ±20% jitter. */
export function backoffMs(policy: RetryPolicy, attempts: number, random: () => number = Math.random): number {
  const exact = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(exact * (0.8 + 0.4 * random()));
}
