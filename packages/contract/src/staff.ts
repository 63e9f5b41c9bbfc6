/**
 * The operator's side (README "Staff console"): staff in STAFF_EMAILS sign in at /staff with an e-mail code and a
 * TOTP second factor, find a gift, read its whole story, and act on it; every action needs a reason and is audited.
 */
import * as z from 'zod/mini';
import { Code, Email, GiftId } from './common.ts';
import { PLAN_IDS } from './plans.ts';

/** A staff session lasts this long (it is never extended). */
export const STAFF_SESSION_TTL_MS = 8 * 60 * 60 * 1000;
export const STAFF_REASON_MAX = 500;
export const STAFF_EXTEND_DAYS_MAX = 365;
export const STAFF_EXTEND_SCANS_MAX = 100;

export const staffTexts = {
  signInTitle: 'GiftLens staff',
  totpRequired: 'Enter the 6-digit code from your authenticator app.',
  totpInvalid: 'That authenticator code is not right. Check the time on your phone and try again.',
  enrolmentExpired: 'Your authenticator set-up expired. Please sign in again.',
  reasonRequired: 'Please give a reason: it is kept in the audit trail.',
  reasonTooLong: `A reason can be up to ${STAFF_REASON_MAX} characters.`,
  staffOnly: 'This is for GiftLens staff only.',
  signedOut: 'You are signed out. Please sign in again.',
  extendNothing: 'Please add days, scans, or both.',
  extendNoScans: 'This plan already has unlimited scans.',
  extendNoDays: 'This plan never expires.',
  notPaid: 'This gift was never paid, so there is nothing to refund.',
  alreadyRefunded: 'This gift was refunded already.',
  refundFailed: 'The payment provider did not accept the refund. Nothing was changed; please try again.',
  alreadyTakenDown: 'This gift was taken down already.',
  notTakenDown: 'This gift is not taken down.',
  deliveryNotFound: 'Delivery not found.',
  deliveryNotResendable: 'Only a failed or sent delivery can be sent again.',
  jobNotFound: 'Job not found.',
  jobNotDead: 'Only a dead job can be retried.',
  queryTooShort: 'Type at least 3 characters: an e-mail, a gift id, an order id or a payment id.',
  queryInvalid: 'Search for an e-mail, a gift id, an order id or a payment id.',
  extendRange: `Extend by 1 to ${STAFF_EXTEND_DAYS_MAX} days and by 1 to ${STAFF_EXTEND_SCANS_MAX} scans.`,
  giftUnavailable: 'This gift was refunded or taken down, so it cannot be changed.',
  memberNotFound: 'No staff member has that address.',
  ownSecondFactor: 'You cannot reset your own second factor. Ask another staff member to do it.',
} as const;

export const StaffReason = z
  .string({ error: staffTexts.reasonRequired })
  .check(z.trim(), z.minLength(3, { error: staffTexts.reasonRequired }), z.maxLength(STAFF_REASON_MAX, { error: staffTexts.reasonTooLong }));

export const Totp = z.string().check(z.regex(/^\d{6}$/, { error: staffTexts.totpInvalid }));

// POST /api/staff/send-code: the same answer for every address (no e-mail goes to one that is not staff)
export const StaffSendCodeRequest = z.object({ email: Email });
export const StaffSendCodeResponse = z.object({ success: z.literal(true), resendAfter: z.number().check(z.int()) });

// POST /api/staff/verify
export const StaffVerifyRequest = z.object({ email: Email, code: Code, totp: z.optional(Totp) });
export type StaffVerifyRequest = z.infer<typeof StaffVerifyRequest>;
/**
 * One of three: signed in (the `gl_staff` cookie is set); the first sign-in's enrolment (scan the QR code, then
 * POST /api/staff/totp/confirm within 10 minutes, from this browser: a `gl_staff_enrol` cookie ties them); or
 * `totpRequired` (enrolled: send the same e-mail code again with the authenticator's code).
 */
export const StaffVerifyResponse = z.object({
  success: z.literal(true),
  signedIn: z.boolean(),
  totpRequired: z.boolean(),
  totpEnrolment: z.nullable(
    z.object({
      /** Base32, for typing into an authenticator by hand. */
      secret: z.string(),
      otpauthUrl: z.string(),
      /** The otpauth URL as a QR code, a data: URL of an SVG image. */
      qrCode: z.string(),
    }),
  ),
});
export type StaffVerifyResponse = z.infer<typeof StaffVerifyResponse>;

// POST /api/staff/totp/confirm (with the gl_staff_enrol cookie) → signed in
export const StaffTotpConfirmRequest = z.object({ totp: Totp });

// GET /api/staff/me
export const StaffMeResponse = z.object({ success: z.literal(true), email: z.string(), expiresAt: z.string() });
export type StaffMeResponse = z.infer<typeof StaffMeResponse>;

/** A gift's state as support sees it. */
export const StaffGiftState = z.enum(['draft', 'awaiting_payment', 'active', 'opened', 'expired', 'refunded', 'taken_down']);
export type StaffGiftState = z.infer<typeof StaffGiftState>;

export const StaffGiftRow = z.object({
  id: GiftId,
  senderEmail: z.string(),
  recipientEmail: z.nullable(z.string()),
  plan: z.enum(PLAN_IDS),
  state: StaffGiftState,
  createdAt: z.string(),
});
export type StaffGiftRow = z.infer<typeof StaffGiftRow>;

// GET /api/staff/gifts?q=… (sender or recipient e-mail, gift id, order id, provider payment id)
export const StaffSearchResponse = z.object({ success: z.literal(true), gifts: z.array(StaffGiftRow) });
export type StaffSearchResponse = z.infer<typeof StaffSearchResponse>;

export const TimelineKind = z.enum([
  'created',
  'message_uploaded',
  'message_rendered',
  'message_failed',
  'paid',
  'delivery',
  'scan',
  'opened',
  'reaction',
  'refund',
  'group',
  'staff',
  'webhook',
]);
export const TimelineEvent = z.object({
  at: z.string(),
  kind: TimelineKind,
  /** One line for the list, e.g. "E-mail delivery to maya@… failed: 550 mailbox unavailable". */
  summary: z.string(),
  /** Staff actions: who and why. */
  actor: z.optional(z.string()),
  reason: z.optional(z.string()),
});
export type TimelineEvent = z.infer<typeof TimelineEvent>;

export const StaffDelivery = z.object({
  id: z.string(),
  channel: z.string(),
  contact: z.string(),
  status: z.string(),
  scheduledAt: z.string(),
  sentAt: z.nullable(z.string()),
  error: z.nullable(z.string()),
});

// GET /api/staff/gifts/{giftId}: no message content (that is POST …/message, with a reason)
export const StaffGiftResponse = z.object({
  success: z.literal(true),
  gift: z.object({
    ...StaffGiftRow.shape,
    senderName: z.nullable(z.string()),
    recipientName: z.string(),
    occasion: z.string(),
    planName: z.string(),
    messageType: z.nullable(z.enum(['video', 'audio', 'text'])),
    messageState: z.string(),
    paidAt: z.nullable(z.string()),
    validUntil: z.nullable(z.string()),
    scansUsed: z.number().check(z.int()),
    scansAllowed: z.nullable(z.number().check(z.int())),
    firstOpenedAt: z.nullable(z.string()),
    orders: z.array(z.object({ id: z.string(), provider: z.string(), status: z.string(), amountMinor: z.number(), currency: z.string(), paymentId: z.nullable(z.string()), paidAt: z.nullable(z.string()) })),
    deliveries: z.array(StaffDelivery),
  }),
  timeline: z.array(TimelineEvent),
});
export type StaffGiftResponse = z.infer<typeof StaffGiftResponse>;

export const StaffReasonRequest = z.object({ reason: StaffReason });
export type StaffReasonRequest = z.infer<typeof StaffReasonRequest>;

// POST /api/staff/gifts/{giftId}/extend
export const StaffExtendRequest = z.object({
  days: z.optional(z.number({ error: staffTexts.extendRange }).check(z.int({ error: staffTexts.extendRange }), z.gte(1, { error: staffTexts.extendRange }), z.lte(STAFF_EXTEND_DAYS_MAX, { error: staffTexts.extendRange }))),
  scans: z.optional(z.number({ error: staffTexts.extendRange }).check(z.int({ error: staffTexts.extendRange }), z.gte(1, { error: staffTexts.extendRange }), z.lte(STAFF_EXTEND_SCANS_MAX, { error: staffTexts.extendRange }))),
  reason: StaffReason,
});
export type StaffExtendRequest = z.infer<typeof StaffExtendRequest>;

// POST /api/staff/gifts/{giftId}/message (reason): the message's content, audited
export const StaffMessageResponse = z.object({
  success: z.literal(true),
  messageType: z.nullable(z.enum(['video', 'audio', 'text'])),
  messageUrl: z.nullable(z.string()),
  text: z.nullable(z.string()),
  /** A group gift's contributions, in order, so a reported one can be reviewed (audited with the same reason). */
  contributions: z.optional(z.array(z.object({ from: z.string(), messageType: z.enum(['video', 'audio', 'text']), messageUrl: z.nullable(z.string()), text: z.nullable(z.string()) }))),
});

// POST …/refund, …/takedown, …/deliveries/{id}/resend, …/extend answer the gift again
// GET /api/staff/jobs
export const StaffJobsResponse = z.object({
  success: z.literal(true),
  counts: z.array(z.object({ kind: z.string(), status: z.string(), count: z.number().check(z.int()) })),
  /** How late the oldest job that is due now is (0: none waiting). */
  oldestDueLagMs: z.number(),
  dead: z.array(z.object({ id: z.string(), kind: z.string(), giftId: z.nullable(z.string()), lastError: z.nullable(z.string()), attempts: z.number(), finishedAt: z.nullable(z.string()) })),
});
export type StaffJobsResponse = z.infer<typeof StaffJobsResponse>;

// GET /api/staff/audit?giftId=… : the newest 200 entries (of a gift, or all)
export const StaffAuditEntry = z.object({ id: z.string(), at: z.string(), staffEmail: z.string(), action: z.string(), giftId: z.nullable(z.string()), reason: z.string(), details: z.nullable(z.string()) });
export const StaffAuditResponse = z.object({ success: z.literal(true), entries: z.array(StaffAuditEntry) });
export type StaffAuditResponse = z.infer<typeof StaffAuditResponse>;

// GET /api/staff/members: everyone in STAFF_EMAILS and whether their authenticator is enrolled
export const StaffMembersResponse = z.object({
  success: z.literal(true),
  members: z.array(
    z.object({
      email: z.string(),
      /** Confirmed a TOTP authenticator (false: the next sign-in enrols one). */
      enrolled: z.boolean(),
      enrolledAt: z.nullable(z.string()),
      /** The signed-in staff member. */
      you: z.boolean(),
    }),
  ),
});
export type StaffMembersResponse = z.infer<typeof StaffMembersResponse>;

/**
 * POST /api/staff/members/reset-totp: a colleague lost their phone. Their authenticator is forgotten and their staff
 * sessions end (audited with the reason; they are told by e-mail); their next sign-in enrols a new one, which still
 * needs an e-mail code sent to them. Never one's own (409): whoever is signed in has their authenticator.
 */
export const StaffResetTotpRequest = z.object({ email: Email, reason: StaffReason });
export type StaffResetTotpRequest = z.infer<typeof StaffResetTotpRequest>;

export const staffApi = {
  sendCode: '/api/staff/send-code',
  verify: '/api/staff/verify',
  totpConfirm: '/api/staff/totp/confirm',
  me: '/api/staff/me',
  logout: '/api/staff/logout',
  gifts: '/api/staff/gifts',
  gift: (giftId: string) => `/api/staff/gifts/${giftId}`,
  message: (giftId: string) => `/api/staff/gifts/${giftId}/message`,
  extend: (giftId: string) => `/api/staff/gifts/${giftId}/extend`,
  refund: (giftId: string) => `/api/staff/gifts/${giftId}/refund`,
  takedown: (giftId: string) => `/api/staff/gifts/${giftId}/takedown`,
  /** Lifts a take-down (audited): the gift opens, and its sender may change it, again. */
  liftTakedown: (giftId: string) => `/api/staff/gifts/${giftId}/takedown/lift`,
  resend: (giftId: string, deliveryId: string) => `/api/staff/gifts/${giftId}/deliveries/${deliveryId}/resend`,
  jobs: '/api/staff/jobs',
  retryJob: (jobId: string) => `/api/staff/jobs/${jobId}/retry`,
  audit: '/api/staff/audit',
  members: '/api/staff/members',
  resetTotp: '/api/staff/members/reset-totp',
} as const;
