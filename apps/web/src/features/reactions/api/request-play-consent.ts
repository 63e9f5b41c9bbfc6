import { PlayConsentResponse, RECIPIENT_API, RM, type PlayConsentRequest } from '@giftlens/contract/recipient';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST play-consent: may this playback be recorded (Lifetime plan, no reaction yet)? Opens a reaction id. */
export function requestPlayConsent(body: z.infer<typeof PlayConsentRequest>) {
  return apiRequest('POST', RECIPIENT_API.playConsent, body, { fallbackError: RM.consentFailed, schema: PlayConsentResponse });
}
