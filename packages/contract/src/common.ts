import { z } from 'zod';
import { texts } from './texts.ts';

/** Every failed call answers `{ success: false, error, code }`: `error` is the text the user sees. */
export const ErrorBody = z.object({
  success: z.literal(false),
  error: z.string(),
  code: z.string(),
  /** Seconds until the call may be repeated (429 on a too-early resend; 503 scan_busy), as in `Retry-After`. */
  retryAfter: z.number().int().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const SuccessBody = z.object({ success: z.literal(true) });

export const Email = z
  .string({ error: texts.sender.invalidEmail })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: texts.sender.invalidEmail }).max(254, { error: texts.sender.invalidEmail }));

/** Gift ids are 128-bit random values, written as 32 lowercase hex characters. */
export const GiftId = z.string().regex(/^[0-9a-f]{32}$/, { error: texts.sender.giftNotFound });
export type GiftId = z.infer<typeof GiftId>;

export const Code = z.string().regex(/^\d{6}$/, { error: texts.sender.invalidCode });
