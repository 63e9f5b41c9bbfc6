import { describe, expect, test } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import { liveFrameFailure } from './live-frame-errors.ts';

const apiError = (status: number, code: string, retryAfter?: number) => new ApiError('text', status, code, retryAfter);

describe('what live scanning does after a failed frame', () => {
  test('a spent live budget stops it for good', () => {
    expect(liveFrameFailure(apiError(429, 'live_budget_spent', 600), 1)).toEqual({ kind: 'spent' });
  });

  test('too many frames and a busy matcher wait for Retry-After (1 s without one)', () => {
    expect(liveFrameFailure(apiError(429, 'too_many_frames', 2), 1)).toEqual({ kind: 'wait', ms: 2000 });
    expect(liveFrameFailure(apiError(503, 'scan_busy', 3), 4)).toEqual({ kind: 'wait', ms: 3000 });
    expect(liveFrameFailure(apiError(503, 'http_503'), 1)).toEqual({ kind: 'wait', ms: 1000 });
  });

  test('network errors, 5xx and unreadable answers back off quietly, doubling up to 8 s', () => {
    const waits = [1, 2, 3, 4, 5, 6].map((n) => liveFrameFailure(apiError(0, 'network_error'), n));
    expect(waits).toEqual([500, 1000, 2000, 4000, 8000, 8000].map((ms) => ({ kind: 'wait', ms })));
    expect(liveFrameFailure(apiError(500, 'http_500'), 1)).toEqual({ kind: 'wait', ms: 500 });
    expect(liveFrameFailure(apiError(200, 'bad_response'), 2)).toEqual({ kind: 'wait', ms: 1000 });
    expect(liveFrameFailure(new Error('The camera has no picture yet'), 1)).toEqual({ kind: 'wait', ms: 500 });
  });

  test('other refusals stop it quietly: Take Photo shows them', () => {
    for (const [status, code] of [
      [404, 'gift_not_found'],
      [403, 'gift_preparing'],
      [401, 'unauthorized'],
      [410, 'gift_expired'],
      [429, 'too_many_failed_scans'],
    ] as const) {
      expect(liveFrameFailure(apiError(status, code), 1)).toEqual({ kind: 'stop' });
    }
  });
});
