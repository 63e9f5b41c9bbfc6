import type { core } from 'zod/mini';
import { GROUP_FALLBACK, isGroupText } from '../lib/group-text.ts';

/** Every group call's options: its answer's schema, the shared fallback, and the group texts shown as sent. */
export const options = <T>(schema: core.$ZodType<T>, signal?: AbortSignal) => ({
  fallbackError: GROUP_FALLBACK,
  schema,
  signal,
  isOwnText: isGroupText,
});
