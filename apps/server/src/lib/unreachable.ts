/** Node's codes for a service that could not be reached, or whose connection broke or timed out. */
export const UNREACHABLE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * Whether an error says a service (the database, the media store) could not be reached or did not answer: one of
 * node's network codes, or the AWS SDK's `TimeoutError` for a store that accepted the connection and said nothing.
 */
export function isUnreachable(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown } | null;
  return (typeof e?.code === 'string' && UNREACHABLE_CODES.has(e.code)) || e?.name === 'TimeoutError';
}
