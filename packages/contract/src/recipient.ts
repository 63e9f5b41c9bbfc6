import { z } from 'zod';
import { Code, Email, GiftId } from './common.ts';

/** Recipient-side texts (recipient-side §8), verbatim. */
export const RM = {
  invalidEmail: 'Please enter a valid email address',
  noActiveGifts: 'No active gifts found for this email',
  verifyEmailFailed: 'Failed to verify email',
  sendCodeFailed: 'Failed to send verification code',
  verifyCodeFailed: 'Failed to verify code',
  resendFailed: 'Failed to resend code',
  somethingWrong: 'Something went wrong',
  incompleteCode: 'Please enter the complete verification code',
  noGiftsForEmail: 'No gifts found for this email address.',
  giftNotReady: 'Your gift is not ready yet. Please check back later.',
  giftPreparing: 'Your gift message is being prepared. Please try again in a minute.',
  invalidGiftLink: 'Invalid gift link',
  failedToVerifyGift: 'Failed to verify gift',
  verifyGiftHttpFailed: 'Failed to verify gift. Please try again later.',
  verificationFailed: 'Verification failed',
  unexpected: 'An unexpected error occurred. Please try again later.',
  giftNotReadyToast: 'Gift not ready yet',
  codeSent: 'Verification code sent!',
  emailVerified: 'Email verified successfully!',
  newCodeSent: 'New verification code sent!',
  cameraRequired: 'Camera access is required to scan your gift',
  cameraRequiredRecipientSuffix: '. Please allow camera permissions.',
  cameraError: 'There was an error accessing your camera. Please try again.',
  cameraInitFailed: 'Failed to initialize camera. Please try again.',
  noMatch: 'No matching gift found. Please try again or contact support.',
  scanFailed: 'Failed to process scan',
  apiError: (status: number) => `API error: ${status}`,
  giftNotFoundPage: "We couldn't find your gift. Please try again later or contact support.",
  recipientIdMissing: 'Recipient ID not found. Please try verifying your email again.',
  scanToView: 'Please scan your gift to view the message.',
  linkExpired: 'Message link has expired. Please scan your gift again.',
  loadMessageFailed: 'Failed to load message. Please scan your gift again.',
  unableToPlay: 'Unable to play media. Please refresh and try again.',
  fetchMessageFailed: 'Failed to fetch gift message details',
  alreadyReacted: 'This gift already has a recorded reaction. Playing message...',
  unableToRecord: (reason: string) => `Unable to start recording: ${reason}`,
  saveReactionFailed: (reason: string) => `Failed to save your reaction: ${reason}`,
  consentFailed: 'Failed to request consent',
  uploadFailed: 'Upload failed',
  recordingReaction: 'Recording your reaction...',
  reactionSaved: 'Your video reaction has been captured and saved!',
  // Server-side refusals that the spec does not word; written here once.
  scanLimitReached: 'This gift has reached its scan limit. Ask the sender to upgrade the plan.',
  giftExpired: 'This gift message has expired.',
  tooManyFailedScans: 'Too many unsuccessful scans. Please wait a few minutes and try again.',
  revealRequired: 'Please scan your gift to view the message.',
  reactionsNotAllowed: 'Reaction recording is only available on the Lifetime plan.',
  reactionExists: 'This gift already has a recorded reaction.',
  scanUnreadable: 'We could not read this photo. Please take another picture of your gift.',
  scanTooLarge: 'This photo is too large. Please take another picture of your gift.',
  reactionConsentAsked: 'Would you like to record your reaction while the message plays?',
  reactionNotFound: 'This reaction recording was not found. Please play the message again.',
  reactionConsentRequired: 'Recording needs your consent first.',
  reactionFileInvalid: 'The reaction must be a WebM or MP4 video up to 50MB.',
  reactionSavedServer: 'Reaction saved.',
  demoNotFound: 'This demo does not exist.',
} as const;

// POST /api/verification-recipient/check-email
export const CheckEmailRequest = z.object({ email: Email });
export const CheckEmailResponse = z.object({
  success: z.literal(true),
  exists: z.boolean(),
  message: z.string().optional(),
});
export type CheckEmailResponse = z.infer<typeof CheckEmailResponse>;

// POST /api/verification-recipient/send-otp
export const RecipientSendOtpRequest = z.object({ email: Email, type: z.literal('recipient') });
export const RecipientSendOtpResponse = z.object({ success: z.literal(true), resendAfter: z.number().int() });

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
  giftMessageUrl: z.string().nullable(),
  gifts_message_url: z.string().nullable(),
  /** Signed media URL valid 5 minutes (video/audio), or null for a text message. */
  messageUrl: z.string().nullable(),
  senderName: z.string(),
  sender_name: z.string(),
  senderEmail: z.string(),
  recipientName: z.string(),
  recipient_name: z.string(),
  recipientEmail: z.string().nullable(),
  giftImageUrl: z.string().nullable(),
});
export const ScanResponse = z.object({
  success: z.boolean(),
  giftId: GiftId.nullable(),
  matchResult: z.object({
    matched: z.boolean(),
    matchFound: z.boolean(),
    giftId: GiftId.nullable(),
    score: z.number(),
  }),
  /** Kept for the spec's field shape: "yes" when our matcher decided the photo shows the gift. */
  openAIResponse: z.object({ content: z.enum(['yes', 'no']) }),
  giftDetails: ScanGiftDetails.nullable(),
  error: z.string().optional(),
});
export type ScanResponse = z.infer<typeof ScanResponse>;

// GET /api/verification-recipient/gift-message/{giftId} — needs a reveal grant (a matching scan < 5 min ago).
export const GiftMessageResponse = z.object({
  success: z.literal(true),
  giftId: GiftId,
  messageType: z.enum(['video', 'audio', 'text']),
  /** Signed, expiring media URL for video/audio; null for text. */
  messageUrl: z.string().nullable(),
  /** A frame of the video, shown before play (signed like messageUrl); null for audio, text, or none made. */
  posterUrl: z.string().nullable(),
  text: z.string().nullable(),
  senderName: z.string(),
  reactionsEnabled: z.boolean(),
  hasReaction: z.boolean(),
  planDetails: z.object({ planName: z.string() }),
  recipientId: z.string().nullable(),
  recipientName: z.string(),
  recipientEmail: z.string().nullable(),
});
export type GiftMessageResponse = z.infer<typeof GiftMessageResponse>;

// POST /api/reactions/play-consent
export const PlayConsentRequest = z.object({
  giftId: GiftId,
  recipientId: z.string().nullable().optional(),
  recipientName: z.string().max(100).nullable().optional(),
  recipientEmail: z.string().max(254).nullable().optional(),
  mediaDuration: z.number().int().nonnegative().nullable(),
  playbackSessionId: z.string().min(8).max(100),
});
export const PlayConsentResponse = z.object({
  success: z.literal(true),
  allowRecording: z.boolean(),
  message: z.string(),
  data: z.object({ id: z.string() }).nullable(),
});
export type PlayConsentResponse = z.infer<typeof PlayConsentResponse>;

// POST /api/reactions/consent
export const ConsentRequest = z.object({
  reactionId: z.string().min(1),
  consentGranted: z.boolean(),
  deviceInfo: z.object({ userAgent: z.string().max(500), platform: z.string().max(100), language: z.string().max(50) }),
  browserInfo: z.object({ cookieEnabled: z.boolean(), onLine: z.boolean() }),
});

// POST /api/reactions/start-synced-recording
export const StartSyncedRecordingRequest = z.object({
  reactionId: z.string().min(1),
  mediaStartTime: z.number(),
  playbackSessionId: z.string().min(8).max(100),
});

// POST /api/reactions/upload (multipart: reaction (webm), reactionId, recordingQuality, durationSeconds, mediaEndTime, syncOffsetMs)
export const ReactionUploadFields = z.object({
  reactionId: z.string().min(1),
  recordingQuality: z.literal('high'),
  durationSeconds: z.coerce.number().nonnegative(),
  mediaEndTime: z.coerce.number(),
  syncOffsetMs: z.coerce.number(),
});
export const ReactionUploadResponse = z.object({ success: z.literal(true), message: z.string() });

export const RECIPIENT_API = {
  checkEmail: '/api/verification-recipient/check-email',
  sendOtp: '/api/verification-recipient/send-otp',
  verifyOtp: '/api/verification-recipient/verify-otp',
  verifyGift: (giftId: string) => `/api/verification-recipient/verify-gift/${giftId}`,
  recipient: (recipientId: string) => `/api/verification-recipient/recipient/${recipientId}`,
  processScanDirect: (giftId: string) => `/api/verification-recipient/process-scan/${giftId}`,
  processScan: '/api/verification-recipient/process-scan',
  giftMessage: (giftId: string) => `/api/verification-recipient/gift-message/${giftId}`,
  playConsent: '/api/reactions/play-consent',
  consent: '/api/reactions/consent',
  startSyncedRecording: '/api/reactions/start-synced-recording',
  reactionUpload: '/api/reactions/upload',
  demoScan: (demoId: string) => `/api/demo/scan/${demoId}`,
} as const;

// POST /api/demo/scan/{demoId} (multipart: scan) — the demo gift shipped with the web app; no grant, no message.
export const DemoScanResponse = z.object({ success: z.literal(true), matched: z.boolean(), score: z.number() });
export type DemoScanResponse = z.infer<typeof DemoScanResponse>;
