import * as z from 'zod/mini';
import { Code, Email, ErrorBody, GiftId } from './common.ts';
import { texts } from './texts.ts';
import { RevealedContribution } from './revealed-contribution.ts';

// POST /api/verification-recipient/check-email
export const CheckEmailRequest = z.object({ email: Email });
export const CheckEmailResponse = z.object({
  success: z.literal(true),
  exists: z.boolean(),
  message: z.optional(z.string()),
});
export type CheckEmailResponse = z.infer<typeof CheckEmailResponse>;

// POST /api/verification-recipient/send-otp
export const RecipientSendOtpRequest = z.object({ email: Email, type: z.literal('recipient') });
export const RecipientSendOtpResponse = z.object({ success: z.literal(true), resendAfter: z.number().check(z.int()) });

// POST /api/verification-recipient/verify-otp — success starts a recipient session (cookie) limited to this e-mail.
export const RecipientVerifyOtpRequest = z.object({ email: Email, code: Code, type: z.literal('recipient') });
export const RecipientVerifyOtpResponse = z.object({
  success: z.literal(true),
  isReady: z.boolean(),
  recipientId: z.string(),
  giftIds: z.array(GiftId),
});
export type RecipientVerifyOtpResponse = z.infer<typeof RecipientVerifyOtpResponse>;

// GET /api/verification-recipient/verify-gift/{giftId}
export const VerifyGiftResponse = z.object({
  success: z.literal(true),
  giftId: GiftId,
  giftDetails: z.object({
    recipientName: z.string(),
    isActive: z.boolean(),
    /** The same as isActive: the specification names both spellings. Read isActive. */
    is_active: z.boolean(),
    /** Paid, but its message is still being made playable on every phone: not revealable for a moment. */
    preparing: z.boolean(),
  }),
});
export type VerifyGiftResponse = z.infer<typeof VerifyGiftResponse>;

// GET /api/verification-recipient/recipient/{recipientId} (recipient session of that id only)
export const RecipientNameResponse = z.object({ success: z.literal(true), name: z.string() });

// POST /api/verification-recipient/process-scan/{giftId} (multipart: scan, type='direct')
// POST /api/verification-recipient/process-scan        (multipart: scan, recipient_id)
export const ScanGiftDetails = z.object({
  /** The message page's path (/gift-message/{giftId}) whenever the message can be shown, text included; else null. */
  giftMessageUrl: z.nullable(z.string()),
  /** The same as giftMessageUrl (the specification names both spellings, as for sender_name and recipient_name). */
  gifts_message_url: z.nullable(z.string()),
  /** Signed media URL valid 5 minutes (video/audio), or null for a text message. */
  messageUrl: z.nullable(z.string()),
  senderName: z.string(),
  /** The same as senderName. */
  sender_name: z.string(),
  senderEmail: z.string(),
  recipientName: z.string(),
  /** The same as recipientName. */
  recipient_name: z.string(),
  recipientEmail: z.nullable(z.string()),
  giftImageUrl: z.nullable(z.string()),
});
export const ScanResponse = z.object({
  success: z.boolean(),
  giftId: z.nullable(GiftId),
  /**
   * The decision: `matched`. The specification names the same decision three times, so the answer carries all three
   * alike: `matchFound` equals `matched`, and `openAIResponse.content` is "yes" exactly when `matched` is true (our
   * own matcher decides; no photo goes to any outside service). `giftId` equals the answer's own `giftId`.
   */
  matchResult: z.object({
    matched: z.boolean(),
    matchFound: z.boolean(),
    giftId: z.nullable(GiftId),
    score: z.number(),
  }),
  openAIResponse: z.object({ content: z.enum(['yes', 'no']) }),
  giftDetails: z.nullable(ScanGiftDetails),
  error: z.optional(z.string()),
});
export type ScanResponse = z.infer<typeof ScanResponse>;

/**
 * POST /api/verification-recipient/open-with-code/{giftId} (the gift link is the capability) and
 * POST /api/verification-recipient/open-with-code (a recipient session: the code is tried against the session
 * e-mail's active gifts, `recipient_id` must be the session's). The code may be typed with spaces or dashes.
 *
 * A right code answers exactly as a matching direct scan does (ScanResponse with success true, the reveal grant
 * cookie, a reveal counted against the plan, the sender's "opened" notice; matchResult.score is 0: nothing was
 * matched). A wrong code answers 400 `backup_code_wrong` (texts.backupCode.wrong); after BACKUP_CODE.wrongPerGift
 * wrong codes for one gift within an hour, 429 `too_many_wrong_codes` with Retry-After. The gift's plan rules are
 * the scan's (404 for a gift that does not exist, 403 not ready or used up, 410 expired).
 */
export const OpenWithCodeRequest = z.object({
  code: z.string().check(z.maxLength(32)),
  recipient_id: z.optional(z.string().check(z.maxLength(64))),
});
export type OpenWithCodeRequest = z.infer<typeof OpenWithCodeRequest>;
export const OpenWithCodeResponse = z.extend(ScanResponse, { success: z.literal(true) });
export type OpenWithCodeResponse = z.infer<typeof OpenWithCodeResponse>;
export const OpenWithCodeErrors = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 410: ErrorBody, 429: ErrorBody };

// POST /api/verification-recipient/live-frame/{giftId} (multipart: scan, type='direct')
// POST /api/verification-recipient/live-frame        (multipart: scan, recipient_id)
// A live frame (LIVE_SCAN): the same photo fields and the same refusals as process-scan (404, 403 gift_preparing,
// 429 scan limit, 503 scan_busy), plus 429 `live_budget_spent` (texts.recipient.liveBudgetSpent, Retry-After) once the
// gift's or the client's live budget is spent and 429 `too_many_frames` above the per-second rate. A decisive frame
// answers exactly as a matching process-scan does (success true, the reveal counted and its grant cookie set); any
// other frame answers LiveFrameMiss and counts no failed attempt. Frames are never written to disk or database.
// The optional `scan_session` field (16-64 of A-Z a-z 0-9 - _, one per opening of the camera) lets
// the server pool the evidence of frames of that one session and gift (decision 047); without it each frame is
// decided alone.
export const LIVE_SCAN_SESSION_FIELD = 'scan_session';
export const LiveFrameMiss = z.object({
  success: z.literal(false),
  decided: z.literal(false),
  /** live frames this client may still send for this gift (or e-mail) within the window */
  framesLeft: z.number().check(z.int(), z.nonnegative()),
  /** the matcher found the gift on a small part of the frame: ask the person to move closer (decision 047) */
  hint: z.optional(z.literal('moveCloser')),
});
export type LiveFrameMiss = z.infer<typeof LiveFrameMiss>;
export const LiveFrameResponse = z.union([z.extend(ScanResponse, { success: z.literal(true) }), LiveFrameMiss]);
export type LiveFrameResponse = z.infer<typeof LiveFrameResponse>;

/**
 * Every scan call (process-scan, process-scan/{giftId}, demo scan) answers 503 with this body and a `Retry-After`
 * header (seconds, the same figure as `retryAfter`) when the server's matcher is saturated. Nothing was counted:
 * no failed attempt, no reveal, no rate-limit hit. The page keeps the photo, shows `texts.recipient.scanBusy`
 * and sends the same photo again after `retryAfter` seconds, without using one of the recipient's attempts.
 */
export const SCAN_BUSY_STATUS = 503;
export const ScanBusyBody = z.extend(ErrorBody, {
  code: z.literal('scan_busy'),
  error: z.literal(texts.recipient.scanBusy),
  retryAfter: z.number().check(z.int(), z.positive()),
});
export type ScanBusyBody = z.infer<typeof ScanBusyBody>;

// GET /api/verification-recipient/gift-message/{giftId} — needs a reveal grant (a matching scan < 5 min ago).
export const GiftMessageResponse = z.object({
  success: z.literal(true),
  giftId: GiftId,
  messageType: z.enum(['video', 'audio', 'text']),
  /** Signed, expiring media URL for video/audio; null for text. */
  messageUrl: z.nullable(z.string()),
  /** A frame of the video, shown before play (signed like messageUrl); null for audio, text, or none made. */
  posterUrl: z.nullable(z.string()),
  text: z.nullable(z.string()),
  senderName: z.string(),
  reactionsEnabled: z.boolean(),
  hasReaction: z.boolean(),
  planDetails: z.object({ planName: z.string() }),
  recipientId: z.nullable(z.string()),
  recipientName: z.string(),
  recipientEmail: z.nullable(z.string()),
  /** A group gift's other messages, in the organizer's order, after the organizer's own (empty for a single gift). */
  contributions: z.array(RevealedContribution),
  /** The group's combined MP4 where the plan includes downloads and it is made; null otherwise. */
  combinedDownloadUrl: z.nullable(z.string()),
  /**
   * Keepsake (issue 40): where the plan includes downloads, the video or voice message as a download link that saves
   * it as "Message from {sender}.mp4"; null otherwise (a text message, or a plan without downloads).
   */
  messageDownloadUrl: z.optional(z.nullable(z.string())),
  /** When the plan ends (null: never): the page says to keep the message before then. */
  validUntil: z.optional(z.nullable(z.string())),
});
export type GiftMessageResponse = z.infer<typeof GiftMessageResponse>;

// POST /api/reactions/play-consent
export const PlayConsentRequest = z.object({
  giftId: GiftId,
  recipientId: z.optional(z.nullable(z.string())),
  recipientName: z.optional(z.nullable(z.string().check(z.maxLength(100)))),
  recipientEmail: z.optional(z.nullable(z.string().check(z.maxLength(254)))),
  mediaDuration: z.nullable(z.number().check(z.int(), z.nonnegative())),
  playbackSessionId: z.string().check(z.minLength(8), z.maxLength(100)),
});
export const PlayConsentResponse = z.object({
  success: z.literal(true),
  allowRecording: z.boolean(),
  message: z.string(),
  data: z.nullable(z.object({ id: z.string() })),
});
export type PlayConsentResponse = z.infer<typeof PlayConsentResponse>;

// POST /api/reactions/consent
export const ConsentRequest = z.object({
  reactionId: z.string().check(z.minLength(1)),
  consentGranted: z.boolean(),
  deviceInfo: z.object({ userAgent: z.string().check(z.maxLength(500)), platform: z.string().check(z.maxLength(100)), language: z.string().check(z.maxLength(50)) }),
  browserInfo: z.object({ cookieEnabled: z.boolean(), onLine: z.boolean() }),
});

// POST /api/reactions/start-synced-recording
export const StartSyncedRecordingRequest = z.object({
  reactionId: z.string().check(z.minLength(1)),
  mediaStartTime: z.number(),
  playbackSessionId: z.string().check(z.minLength(8), z.maxLength(100)),
});

// POST /api/reactions/upload (multipart: reaction (webm), reactionId, recordingQuality, durationSeconds, mediaEndTime, syncOffsetMs)
export const ReactionUploadFields = z.object({
  reactionId: z.string().check(z.minLength(1)),
  recordingQuality: z.literal('high'),
  durationSeconds: z.coerce.number().check(z.nonnegative()),
  mediaEndTime: z.coerce.number(),
  syncOffsetMs: z.coerce.number(),
});
export const ReactionUploadResponse = z.object({ success: z.literal(true), message: z.string() });


// POST /api/demo/scan/{demoId} (multipart: scan) — the demo gift shipped with the web app; no grant, no message.
export const DemoScanResponse = z.object({ success: z.literal(true), matched: z.boolean(), score: z.number() });
export type DemoScanResponse = z.infer<typeof DemoScanResponse>;
