import { SuccessBody } from '@giftlens/contract/common';
import { texts } from '@giftlens/contract/texts';
import { PushPublicKeyResponse } from '@giftlens/contract/push';
import { API } from '@giftlens/contract/routes';
import { apiRequest } from '../../../lib/api-client.ts';

/** GET /api/push/public-key: the server's VAPID key (base64url) that push subscriptions are made for. */
export async function getPushPublicKey(): Promise<string> {
  const res = await apiRequest('GET', API.pushPublicKey, undefined, {
    fallbackError: texts.sender.generic,
    schema: PushPublicKeyResponse,
  });
  return res.publicKey;
}

/** POST /api/push/subscribe: this device's subscription, for the signed-in sender's notices. */
export function subscribePush(subscription: PushSubscriptionJSON) {
  return apiRequest('POST', API.pushSubscribe, subscription, {
    fallbackError: texts.sender.generic,
    schema: SuccessBody,
  });
}

/** POST /api/push/unsubscribe: the server forgets this device's subscription. */
export function unsubscribePush(endpoint: string) {
  return apiRequest(
    'POST',
    API.pushUnsubscribe,
    { endpoint },
    { fallbackError: texts.sender.generic, schema: SuccessBody },
  );
}
