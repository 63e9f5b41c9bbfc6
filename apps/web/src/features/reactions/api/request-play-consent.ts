import { PlayConsentResponse, type PlayConsentRequest } from '@giftlens/contract/recipient';
import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import type * as z from 'zod/mini';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST play-consent: may this playback be recorded (Lifetime plan, no reaction yet)? Opens a reaction id. */
export function requestPlayConsent(body: z.infer<typeof PlayConsentRequest>) {
  return apiRequest('POST', API.playConsent, body, { fallbackError: texts.recipient.consentFailed, schema: PlayConsentResponse });
}
