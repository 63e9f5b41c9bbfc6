/** Business constants: the product specification's figures (codes, sizes, time-outs), then ours. */
export const CODE_LENGTH = 6;
export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;
/**
 * Sign-in codes (issue 37): limits that slow the requester, never lock out the target.
 * - per client address: `perClient` code requests within `clientWindowMs`, for any addresses and purposes (429);
 * - per client address and target: one request per resend cooldown (60 s sender and staff, 30 s recipient and
 *   contributor) for the same purpose (429 resend_too_early);
 * - per target (and purpose): a pace between mails. While the target's latest code is live (unused, unexpired) and
 *   was mailed less than the pace ago, a request is answered 200 and no new mail goes: that code, in the inbox, still
 *   signs in. The pace is `paceMs`, or `slowPaceMs` once `burst` codes went to the address within `clientWindowMs`.
 */
export const CODE_LIMITS = {
  perClient: 10,
  clientWindowMs: 60 * 60 * 1000,
  paceMs: 60 * 1000,
  burst: 3,
  slowPaceMs: 10 * 60 * 1000,
} as const;
export const SENDER_RESEND_COOLDOWN_S = 60;
export const RECIPIENT_RESEND_COOLDOWN_S = 30;
export const FIRST_NAME_MAX = 50;
export const RECIPIENT_NAME_MAX = 80;
export const TEXT_MESSAGE_MAX = 2000;

export const MB = 1024 * 1024;
export const DEFAULT_MESSAGE_LIMIT_BYTES = 30 * MB;
export const LIFETIME_MESSAGE_LIMIT_BYTES = 50 * MB;
export const GIFT_IMAGE_MAX_BYTES = 10 * MB;
export const MAX_REFERENCE_PHOTOS = 3;

export const IMAGE_COMPRESSION = { maxWidthOrHeight: 1200, initialQuality: 0.8, minQuality: 0.5, maxSizeMB: 0.5 };
export const SCAN_COMPRESSION = { maxWidthOrHeight: 600, initialQuality: 0.5, minQuality: 0.3, maxSizeMB: 0.2 };

export const CACHE_CLEANUP_AGE_MS = 24 * 60 * 60 * 1000;
export const UPLOAD_STATUS_POLL_MS = 1000;
export const STEP_HISTORY_MAX = 10;
export const PROGRESS_STEPS_TOTAL = 3;
export const DELIVERY_TIME_STEP_MINUTES = 10;
export const COPIED_RESET_MS = 2000;
export const PAYMENT_VERIFY_RETRIES = 5;
export const PAYMENT_VERIFY_RETRY_DELAY_MS = 2000;
export const REDIRECT_AFTER_PAYMENT_MS = 1500;
export const REDIRECT_AFTER_SCHEDULE_MS = 2000;
export const DEFAULT_COUNTRY = 'US';

export const SIGNED_URL_TTL_MS = 5 * 60 * 1000;
export const REVEAL_GRANT_TTL_MS = 5 * 60 * 1000;
/**
 * A message page that is playing keeps its reveal alive (issue 37): each GET of the message renews the grant for
 * REVEAL_GRANT_TTL_MS more, never beyond this long after the scan, so a long message plays to its end.
 */
export const REVEAL_GRANT_MAX_MS = 60 * 60 * 1000;
/** How often a playing message page asks for its message again (fresh links, the grant renewed): within the TTL. */
export const REVEAL_KEEPALIVE_MS = 4 * 60 * 1000;
export const UPLOAD_URL_TTL_MS = 60 * 60 * 1000;
export const MAX_SCAN_ATTEMPTS = 2;

/** Live frames without a match for this long: the scanner says it is still looking and offers Take Photo. */
export const STILL_LOOKING_AFTER_MS = 8000;

/**
 * Every paid gift's backup code (decision 039, issue 37), counted in the database (every API node sees it), within
 * `windowMs`: `wrongPerClient` wrong codes for one gift from one client address, then that address's next try for
 * it answers 429 with Retry-After; `wrongPerClientAll` wrong codes from one client address over all gifts, the same;
 * `wrongPerGift` wrong codes for one gift from every address together (the gift's pace), then only an address that
 * has not yet guessed wrong for it is still compared (so its owner, typing the right code, still opens it).
 */
export const BACKUP_CODE = { digits: 8, wrongPerClient: 5, wrongPerClientAll: 20, wrongPerGift: 20, windowMs: 60 * 60 * 1000 } as const;

/** Failed scans allowed per gift (or recipient e-mail) and per client address within the window. */
export const SCAN_FAILURE_LIMIT = { perTarget: 10, perClient: 20, windowMs: 10 * 60 * 1000 } as const;

/**
 * Live scanning (decisions 029 and 030): while the camera runs the page checks frames itself and sends a good one
 * every `intervalMs` (300-500 ms), at most one in flight. The server matches each and never stores it. A live frame
 * that does not match is not a failed attempt (only Take Photo counts); instead live frames have their own budget per
 * gift (or recipient e-mail) and per client address within the window, and a rate limit per client.
 */
export const LIVE_SCAN = {
  intervalMs: 400,
  /** frames per second one client address may send (a burst above it answers 429 with Retry-After) */
  perClientPerSecond: 4,
  /** frames per gift (or recipient e-mail) and per client address within the window */
  perTarget: 150,
  perClient: 300,
  windowMs: 10 * 60 * 1000,
} as const;

/**
 * How long after its URL expired an upload can still be confirmed. Housekeeping deletes intents (and their files)
 * a day after expiry: confirm stops well before, so it never stores a path whose file is about to go.
 */
export const UPLOAD_CONFIRM_GRACE_MS = 6 * 60 * 60 * 1000;

/**
 * Years a paid order's accounting record (amount, currency, dates, payment provider ids; no names, e-mails or
 * messages) is kept after its gift or account is deleted, as tax and accounting law asks; then it is deleted.
 */
export const ORDER_RECORD_YEARS = 8;

/**
 * What a message or reaction may be, read by ffprobe before anything is converted (decision 038): longer, larger or
 * faster recordings are refused at confirm with the texts in `texts.media`. 3840×2160 in either orientation.
 */
export const MEDIA_LIMITS = {
  maxSeconds: 10 * 60,
  maxLongSide: 3840,
  maxShortSide: 2160,
  maxFramesPerSecond: 60,
} as const;

/** The largest gift or scan photo that is decoded: its header is read first, and larger ones are refused. */
export const IMAGE_MAX_PIXELS = 50_000_000;
