import { useMutation } from '@tanstack/react-query';
import { ApiError } from '../lib/api-client.ts';

/** How many times a scan answered "busy" is sent again before the page gives up (then no attempt is used). */
export const MAX_BUSY_RETRIES = 3;

/**
 * A scan the server turned away because its matcher is saturated: 503 with `Retry-After`. Nothing was counted on
 * the server, so the same photo is sent again after that many seconds; it is never a failed attempt.
 */
export function isScanBusy(err: unknown): err is ApiError & { retryAfter: number } {
  return err instanceof ApiError && err.status === 503 && typeof err.retryAfter === 'number' && err.retryAfter >= 0;
}

/**
 * Sends a scan photo (`send`: the scanner's process-scan or the demo's scan call) through TanStack Query's
 * mutation retry: an answer of busy is retried after its Retry-After, at most MAX_BUSY_RETRIES times; anything
 * else settles at once. `waiting` is the server's busy text while such a retry is pending, else null.
 */
export function useScanRequest<Vars, Result>(send: (vars: Vars) => Promise<Result>) {
  const mutation = useMutation<Result, unknown, Vars>({
    mutationFn: send,
    // Offline, the call fails at once (the page says so) rather than waiting for the network to return.
    networkMode: 'always',
    retry: (failures, err) => isScanBusy(err) && failures < MAX_BUSY_RETRIES,
    retryDelay: (_failures, err) => (isScanBusy(err) ? err.retryAfter * 1000 : 0),
  });
  const reason = mutation.failureReason;
  const waiting = mutation.isPending && isScanBusy(reason) ? reason.message : null;
  return { send: mutation.mutateAsync, waiting };
}
