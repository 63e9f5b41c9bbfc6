/**
 * Every user-facing text the API returns, verbatim from the specification where it has one:
 * `texts.sender` for the sender's side, `texts.recipient` for the recipient's. One place, so server and web
 * cannot drift apart.
 */
import { errorTexts } from './error-texts.ts';

/** The sender's texts: the product specification's words verbatim where it gives them, ours where it does not. */
const sender = {
  // Signing in and the gift's details
  invalidEmail: 'Please enter a valid email address',
  invalidCharacters: 'The request holds a character that cannot be kept (NUL). Please remove it and try again.',
  sendCodeFailed: 'Failed to send verification code.',
  invalidCode: 'Invalid verification code.',
  codeExpired: 'Verification code has expired. Please request a new one.',
  tooManyAttempts: 'Too many incorrect attempts. Please request a new code.',
  resendTooEarly: 'Please wait before requesting another code',
  tooManyCodesToday: 'Too many codes were sent to this address today. Please try again tomorrow.',
  saveUserFailed: 'Failed to save user details.',
  firstNameRequired: 'First name is required',
  firstNameTooLong: 'First name must be at most 50 characters',
  firstNameInvalid: 'Please write the first name on one line, without special control characters.',
  sessionExpired: 'Session expired. Please start over.',
  recipientNameRequired: 'Recipient name is required',
  recipientNameTooLong: 'Recipient name must be at most 80 characters',
  recipientNameInvalid: 'Please write the recipient’s name on one line, without special control characters.',
  recipientContactRequired: 'Recipient contact information is required',
  giftImageRequired: 'Gift image is required',
  occasionRequired: 'Occasion is required',
  planRequired: 'Please select a plan',
  createGiftFailed: 'Failed to create gift.',
  giftImageInvalid: 'Gift image must be a PNG, JPG, GIF or WebP image up to 10MB',
  tooManyGiftImages: 'You can add up to 3 gift photos.',
  giftFieldTooLong: 'One of the gift details is too long. Please shorten it and try again.',
  giftPhotoUnreadable: 'We could not read this photo. Please choose a clear photo of the gift, at least 64 pixels wide.',
  giftNotFound: 'Gift not found',
  // A gift staff took down (issue 37): frozen for its sender until staff lift it.
  giftTakenDown: 'GiftLens staff took this gift down, so it can no longer be changed, sent, shared or deleted. Please contact support if you think this is a mistake.',
  // the recognisability rating at enrolment (decision 031)
  recognisability: (rating: number) => `Recognisability ${rating}/5`,
  recognisabilityLow: 'Your recipient’s camera may struggle to recognise this gift.',
  qualityReasons: {
    plain: 'The photo is too plain: there is little print, pattern or texture to recognise.',
    blurred: 'The photo is blurred. Hold the phone still and let it focus.',
    small: 'The gift is too small in the photo. Move closer so it fills most of the frame.',
    repetitive: 'The pattern repeats, so one part looks like another. Include a label, tag or logo.',
    concentrated:
      'Most of the detail is in one small part of the photo, such as a logo on a plain box. Products of one brand share their logo: add a photo of the side with the most print, of the product out of its box, or of the card or tag inside.',
  },
  addAnotherAngle: 'Add another angle',
  anotherAngleFile: 'Photo of the gift from another angle',
  addAnotherAngleAdvice: 'Add a photo from another side of the gift, with its label, tag or logo in view.',
  addingPhoto: 'Adding photo…',
  photoAdded: 'Photo added.',
  maxPhotosReached: 'This gift has 3 photos, the most it can have.',
  lookalikeWarning:
    'This gift looks very like another of your gifts or of this recipient’s, such as two products of one brand. Their camera may not tell the two apart — add a photo of the side with the most print, of the product out of its box, or of the card or tag inside.',
  giftIdMissing: 'Gift ID not found. Please try submitting the gift again.',
  uploadUrlFailed: 'Failed to get upload URL.',
  uploadStorageFailed: 'Failed to upload file to storage.',
  confirmUploadFailed: 'Failed to confirm upload.',
  uploadUrlInvalid: 'This upload link is invalid or has expired.',
  uploadChanged: 'The file changed while it was being checked. Please upload it again.',
  fileTypeInvalid: 'This file type is not supported. Please upload a video or audio file.',
  fileTooLarge: (planName: string, limit: string, sizeMb: string) =>
    `File size too large! Your ${planName} allows files up to ${limit}. Your file is ${sizeMb}MB.`,
  messageRequired: 'Please record or upload a message first.',
  giftAlreadyPaid: 'This gift has already been paid for.',
  giftNotReadyForPayment: 'Please upload your message before checkout.',
  paymentVerificationFailed: 'Verification failed',
  paymentSignatureInvalid: 'Payment signature is invalid.',
  paymentNotCompleted: 'Your payment has not been completed yet.',
  paymentProviderUnavailable: 'We could not reach the payment provider. Please try again.',
  scheduleDateTimeRequired: 'Please select both date and time for delivery',
  scheduleContactRequired: 'Please enter recipient contact information',
  scheduleFuture: 'Please select a future date and time',
  scheduleFailed: 'Failed to schedule delivery',
  scheduleGiftNotPaid: 'Please complete payment before scheduling delivery.',
  // After scheduling, the spec's jump to / waits REDIRECT_AFTER_SCHEDULE_MS: the confirmation is read out first and
  // the sender may stay.
  deliveryScheduled: (date: string, time: string) => `Delivery scheduled for ${date} at ${time}!`,
  leavingAfterSchedule: 'Taking you to the home page in 2 seconds.',
  stayOnThisPage: 'Stay on this page',
  timezoneInvalid: 'Please choose a valid time zone.',
  whatsappUnavailable: 'WhatsApp delivery is not available yet. Please use e-mail.',
  whatsappNumberInvalid: 'Please enter the WhatsApp number with its country code, e.g. +919876543210',
  messageUnreadable: 'We could not read this file as a video or voice message. Please upload it again.',
  messageLocked: 'This gift has been opened, so its message can no longer be changed.',
  deliveryNotFound: 'Delivery not found',
  deliveryAlreadySent: 'This delivery has already been sent.',
  deliveryCancelled: 'This delivery was cancelled. Please schedule a new one.',
  deliverySending: 'This delivery is being sent right now.',
  deliveryNothingToChange: 'Please change the time or the contact.',
  pushSubscriptionInvalid: 'This browser sent a push subscription we cannot use.',
  pushServiceNotAllowed: 'Notifications from this browser’s push service are not supported.',
  pushSubscriptionTaken: 'These notifications are linked to another account. Please turn notifications on again.',
  indianPhoneLength: 'Indian mobile numbers must be 10 digits',
  indianPhoneStart: 'Indian mobile numbers must start with 6, 7, 8, or 9',
  usPhoneLength: 'US phone numbers must be 10 digits',
  // a recipient's number typed with "+" that is no international number (the spec passes "+" numbers through)
  internationalPhoneInvalid: 'Please enter the phone number with its country code, e.g. +447911123456',
  generic: errorTexts.generic,
  notFound: 'Not found',
  mediaLinkExpired: 'This link has expired.',
  // downloads are named for people (the extension is the file's own)
  downloadMessageName: (recipientName: string) => `Message for ${recipientName}`,
  downloadReactionName: (recipientName: string) => `${recipientName}'s reaction`,
  // Send now on the share page: said when accepted, then when the runner has sent it
  sendNowSending: (email: string) => `Sending the link to ${email}…`,
  sendNowSent: (email: string) => `Sent the link to ${email}.`,
  // a reaction being converted (its notice is sent when it can be watched)
  reactionProcessing: 'Reaction processing…',
  reactionProcessingDetail: (recipientName: string) =>
    `${recipientName} recorded a reaction. We are preparing it so it plays everywhere; we will tell you when it is ready.`,
  reactionFailed: (recipientName: string) => `${recipientName}’s reaction could not be converted, so it cannot be shown.`,
  // The Lifetime plan's bonus note on the message step
  lifetimeBonus: 'Lifetime bonus: your message can be up to 50MB, it never expires, and your recipient can record their reaction for you.',
  // the price region: detected, and switchable for the session
  pricesFor: { IN: 'Prices for India (₹)', US: 'Prices for everywhere outside India ($)' },
  priceRegionLabel: 'Show prices for',
  priceRegions: { IN: 'India (₹)', US: 'Everywhere else ($)' },
  tooManyRequests: 'Too many requests. Please slow down.',
  crossSiteRefused: 'This request came from another website and was refused. Please use GiftLens directly.',
  unauthorized: 'Please verify your email to continue.',
} as const;

/** The recipient's texts, the product specification's words verbatim. */
const recipient = {
  invalidEmail: 'Please enter a valid email address',
  noActiveGifts: 'No active gifts found for this email',
  verifyEmailFailed: 'Failed to verify email',
  sendCodeFailed: 'Failed to send verification code',
  verifyCodeFailed: 'Failed to verify code',
  resendFailed: 'Failed to resend code',
  somethingWrong: errorTexts.somethingWrong,
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
  // A gift id that does not exist or was deleted (404 gift_not_found): not an outage, so no "try again later".
  giftLinkGone: "This gift link doesn't exist or has been removed.",
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
  // The browser's recorder stopped with 0 bytes (seen in a WebKit browser): nothing is uploaded.
  reactionRecordedNothing:
    'Your browser recorded nothing, so there is no reaction to send. You can keep watching the message. To try recording again, reload this page and choose Play & Record Video, or open the gift link in another browser.',
  // Server-side refusals that the spec does not word; written here once.
  scanLimitReached: 'This gift has reached its scan limit. We have told the sender.',
  giftExpired: 'This gift message has expired.',
  giftUnavailable: 'This gift is no longer available.',
  tooManyFailedScans: 'Too many unsuccessful scans. Please wait a few minutes and try again.',
  revealRequired: 'Please scan your gift to view the message.',
  reactionsNotAllowed: 'Reaction recording is only available on the Lifetime plan.',
  reactionExists: 'This gift already has a recorded reaction.',
  scanUnreadable: 'We could not read this photo. Please take another picture of your gift.',
  scanTooLarge: 'This photo is too large. Please take another picture of your gift.',
  // 503 scan_busy (ScanBusyBody): the page keeps the photo, shows this, and sends it again after Retry-After.
  scanBusy: 'Lots of gifts are being scanned right now. Trying again in a moment…',
  // Live scanning: the quiet state while frames are being matched, the frame checks' hints, and the 429 once the
  // live budget is spent (the page stops sending frames; Take Photo still works).
  looking: 'Looking…',
  // After STILL_LOOKING_AFTER_MS of live frames without a match (the live scan goes on).
  stillLooking: 'Still looking. Hold the whole gift in the frame, in good light, or tap Take Photo.',
  hintMoveCloser: 'Move closer',
  hintMoreLight: 'More light',
  hintHoldStill: 'Hold still',
  liveBudgetSpent: 'Tap Take Photo to scan your gift.',
  tooManyFrames: 'Too many frames. Slow down.',
  // A live frame whose scan_session is not the id the scanner makes (16-64 letters, digits, "-" or "_").
  scanSessionInvalid: 'This camera session is not valid. Please open the camera again.',
  reactionConsentAsked: 'Would you like to record your reaction while the message plays?',
  reactionNotFound: 'This reaction recording was not found. Please play the message again.',
  reactionConsentRequired: 'Recording needs your consent first.',
  reactionFileInvalid: 'The reaction must be a WebM or MP4 video up to 50MB.',
  reactionSavedServer: 'Reaction saved.',
  demoNotFound: 'This demo does not exist.',
} as const;

/** A recording's length as a refusal names it: "15 min 0 s". */
export const recordingLength = (seconds: number) => {
  const whole = Math.ceil(seconds);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
};

/**
 * Refusals of a message or reaction file read before it is converted (MEDIA_LIMITS), and of an over-large photo;
 * `what` names it for the person: "video", "voice message" or "reaction". Every part is a string (the web matches
 * these templates with any filling, lib/user-text.ts).
 */
const media = {
  tooLong: (what: string, length: string) =>
    `This ${what} is ${length} long. It can be up to 10 minutes: please shorten it and try again.`,
  frameTooLarge: (what: string, size: string) =>
    `This ${what} is ${size} pixels. It can be up to 3840×2160 (4K): please save it at a smaller size and try again.`,
  frameRateTooHigh: (what: string, framesPerSecond: string) =>
    `This ${what} has ${framesPerSecond} frames a second. It can have up to 60: please save it at 30 or 60 frames a second and try again.`,
  // A render stopped by its CPU-time or memory limit: the file decodes far slower than its length says.
  tooCostly: 'We could not convert this file within its time limit. Please upload a shorter or smaller version.',
  imageTooManyPixels: (megapixels: string) => `This photo is ${megapixels} megapixels. Please use a photo of up to 50 megapixels.`,
} as const;

/**
 * The gift's 8-digit backup code (decision 039): the sender sees it (My Gifts, the share page, the payment
 * confirmation e-mail) and may write it on the card; the recipient types it when recognition fails.
 */
const backupCode = {
  // the recipient's side
  choose: "Enter the gift's backup code",
  title: "Enter the gift's backup code",
  intro: 'The person who sent the gift has an 8-digit backup code. It may be written on the card. Type it here to open your message.',
  label: 'Backup code (8 digits)',
  submit: 'Open my message',
  checking: 'Checking…',
  incomplete: 'Please enter all 8 digits of the code.',
  wrong: "That code doesn't match this gift.",
  tooManyWrong: 'Too many wrong codes for this gift. Please wait an hour and try again.',
  backToCamera: 'Back to the camera',
  // the sender's side
  heading: 'Backup code',
  writeOnCard: "Write it on the card: if the camera can't recognise the gift, your recipient can type this code instead.",
  regenerate: 'Make a new code',
  regenerating: 'Making a new code…',
  regenerated: 'New backup code made. The old one no longer works.',
  regenerateFailed: 'Could not make a new code. Please try again.',
  notPaid: 'A gift gets its backup code once it is paid.',
  confirmRegenerate: 'Make a new backup code? The old code stops working at once, so a card with it written on would no longer open the gift.',
  // the payment confirmation e-mail
  emailSubject: (recipientName: string) => `Your gift for ${recipientName} is ready: its backup code`,
  emailHeading: 'Payment received, your gift is ready',
  emailIntro: (recipientName: string) =>
    `Thank you! Your gift message for ${recipientName} is paid for. Share the gift link from your gift's page whenever you like.`,
  emailCode: (code: string) => `Backup code: ${code}`,
  emailAction: 'Share your gift',
} as const;

/** A backup code as people read it: "1234 5678". */
export const spacedBackupCode = (code: string) => `${code.slice(0, 4)} ${code.slice(4)}`;

/** The offer to add the web app to the home screen: there is no app to install from a store. */
const pwa = {
  addToHomeScreen: 'Add GiftLens to your home screen',
  addToHomeScreenNote: 'Open your gifts in one tap.',
  addToHomeScreenAction: 'Add',
  later: 'Later',
} as const;

export const texts = { sender, recipient, media, backupCode, pwa } as const;
