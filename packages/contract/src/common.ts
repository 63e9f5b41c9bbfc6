import * as z from 'zod/mini';
import { texts } from './texts.ts';

/** Every failed call answers `{ success: false, error, code }`: `error` is the text the user sees. */
export const ErrorBody = z.object({
  success: z.literal(false),
  error: z.string(),
  code: z.string(),
  /** Seconds until the call may be repeated (429 on a too-early resend; 503 scan_busy), as in `Retry-After`. */
  retryAfter: z.optional(z.number().check(z.int())),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const SuccessBody = z.object({ success: z.literal(true) });
/** A success answer read only for its `success`: whatever else it carries is kept, not refused (the web app's calls). */
export const LooseSuccessBody = z.looseObject(SuccessBody.shape);

export const Email = z.pipe(
  z.string({ error: texts.sender.invalidEmail }).check(z.trim(), z.toLowerCase()),
  z.email({ error: texts.sender.invalidEmail }).check(z.maxLength(254, { error: texts.sender.invalidEmail })),
);

/** Gift ids are 128-bit random values, written as 32 lowercase hex characters. */
/**
 * A name as one plain line: no control characters (line breaks, tabs, NUL) and no bidirectional overrides or
 * isolates (U+202A–U+202E, U+2066–U+2069), so a name in an e-mail's subject or a "From {name}" line reads as it is.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this refuses
export const PLAIN_NAME = /^[^\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]*$/;

export const GiftId = z.string().check(z.regex(/^[0-9a-f]{32}$/, { error: texts.sender.giftNotFound }));
export type GiftId = z.infer<typeof GiftId>;

export const Code = z.string().check(z.regex(/^\d{6}$/, { error: texts.sender.invalidCode }));
