import { M } from '@giftlens/contract/messages';
import { API } from '@giftlens/contract/routes';
import { MeResponse } from '@giftlens/contract/sender';
import { apiRequest } from '../../../lib/api-client.ts';

/** GET /me: the server session is the authority on who is signed in; a 401 means it is gone. */
export function getMe(signal?: AbortSignal) {
  return apiRequest('GET', API.me, undefined, { fallbackError: M.sessionExpired, schema: MeResponse, signal });
}
