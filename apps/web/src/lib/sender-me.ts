import { M } from '@giftlens/contract/messages';
import { API } from '@giftlens/contract/routes';
import { MeResponse } from '@giftlens/contract/sender';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client.ts';

/**
 * GET /me: the server session is the authority on who is signed in; a 401 means it is gone. Kept here because
 * the sender wizard (session check) and the share page (the sender's first name) both read it.
 */
export function getMe(signal?: AbortSignal) {
  return apiRequest('GET', API.me, undefined, {
    fallbackError: M.sessionExpired,
    schema: MeResponse,
    signal,
  });
}

export function useSenderMe() {
  return useQuery({
    queryKey: ['sender-me'],
    queryFn: ({ signal }) => getMe(signal),
    retry: false,
    staleTime: Infinity,
  });
}
