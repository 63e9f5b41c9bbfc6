import { ApiError } from '../../../lib/api-client.ts';

/** The quiet back-off after a network error doubles from FIRST_BACK_OFF_MS up to this. */
const MAX_BACK_OFF_MS = 8000;
const FIRST_BACK_OFF_MS = 500;
/** When a 429/503 carries no Retry-After. */
const DEFAULT_RETRY_AFTER_S = 1;

/**
 * What live scanning does after a frame failed (contract: LiveFrameResponse's comment):
 * - `spent`: 429 live_budget_spent — stop sending, say so; Take Photo still works;
 * - `wait`: 429 too_many_frames or 503 scan_busy — back off for Retry-After; a network error, a 5xx or an answer
 *   that is not the contract's (`failures` in a row) — back off, doubling, and keep trying quietly;
 * - `stop`: any other refusal (gift not found, not ready, signed out, scan limit): live frames cannot help, stop
 *   quietly and leave it to Take Photo, whose answer the page shows.
 */
export type LiveFrameFailure = { kind: 'spent' } | { kind: 'stop' } | { kind: 'wait'; ms: number };

export function liveFrameFailure(err: unknown, failures: number): LiveFrameFailure {
  if (err instanceof ApiError) {
    if (err.status === 429 && err.code === 'live_budget_spent') return { kind: 'spent' };
    if ((err.status === 429 && err.code === 'too_many_frames') || err.status === 503) {
      return { kind: 'wait', ms: (err.retryAfter ?? DEFAULT_RETRY_AFTER_S) * 1000 };
    }
    if (err.status >= 400 && err.status < 500) return { kind: 'stop' };
  }
  return { kind: 'wait', ms: Math.min(MAX_BACK_OFF_MS, FIRST_BACK_OFF_MS * 2 ** Math.max(0, failures - 1)) };
}
