import { texts } from '@giftlens/contract/texts';
import { API } from '@giftlens/contract/routes';
import { MeResponse } from '@giftlens/contract/sender';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../lib/api-client.ts';

/**
 * GET /me: the server session is the authority on who is signed in; a 401 means it is gone. Read by the sender
 * wizard (session check), the share page (the sender's first name), My Gifts and the routes that need a sender.
 */
export function getMe(signal?: AbortSignal) {
  return apiRequest('GET', API.me, undefined, {
    fallbackError: texts.sender.sessionExpired,
    schema: MeResponse,
    signal,
  });
}

export function useSenderMe() {
  return useQuery({
    queryKey: senderMeQueryKey,
    queryFn: ({ signal }) => getMe(signal),
    retry: false,
    staleTime: Infinity,
  });
}

export const senderMeQueryKey = ['sender-me'] as const;

/** The server says there is no sender session (never signed in, signed out, or ended on another device). */
export function isSignedOutError(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 401 || err.status === 403);
}

/**
 * After sign-out or account deletion: every cached server answer goes (the sender's gifts, deliveries, signed
 * media links), and /me is asked again, so screens that need a session show the sign-in.
 */
export function forgetSender(queryClient: QueryClient): Promise<void> {
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== senderMeQueryKey[0] });
  return queryClient.resetQueries({ queryKey: senderMeQueryKey });
}
