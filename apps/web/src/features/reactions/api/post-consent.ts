import { SuccessBody } from '@giftlens/contract/common';
import { type ConsentRequest } from '@giftlens/contract/recipient';
import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import type * as z from 'zod/mini';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST consent: the recipient's answer, with the device facts kept alongside it. */
export function postConsent(reactionId: string, consentGranted: boolean) {
  const body: z.infer<typeof ConsentRequest> = {
    reactionId,
    consentGranted,
    deviceInfo: {
      userAgent: navigator.userAgent.slice(0, 500),
      platform: (navigator.platform || 'unknown').slice(0, 100),
      language: (navigator.language || 'unknown').slice(0, 50),
    },
    browserInfo: { cookieEnabled: navigator.cookieEnabled, onLine: navigator.onLine },
  };
  return apiRequest('POST', API.consent, body, { fallbackError: texts.recipient.consentFailed, schema: SuccessBody });
}
