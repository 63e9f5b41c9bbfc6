import type { core } from 'zod/mini';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';
import { isStaffText, STAFF_FALLBACK } from '../lib/staff-text.ts';

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT';

/** Every staff call: the staff texts shown as the server words them, the shared fallback for anything else. */
export function staffRequest<T>(
  method: Method,
  path: string,
  body: unknown,
  schema: core.$ZodType<T>,
  signal?: AbortSignal,
): Promise<T> {
  return apiRequest(method, path, body, {
    fallbackError: STAFF_FALLBACK,
    schema,
    signal,
    isOwnText: isStaffText,
  });
}

/** The staff session is over (expired after 8 h, revoked, or never there): the sign-in shows again. */
export function isSignedOut(err: unknown): boolean {
  return err instanceof ApiError && err.status === 401;
}
