import { texts } from '@giftlens/contract/texts';
import type { PushSubscriptionBody } from '@giftlens/contract/push';
import type { Clock } from '../../adapters/clock.ts';
import type { Db } from '../../db/database.ts';
import { randomHex } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { outboundUrl } from '../../lib/outbound-url.ts';
import type { Sender } from '../sender-auth/sender-auth.table.ts';
import * as repo from './push.repository.ts';

/**
 * The push services of the browsers people use. The server posts to whatever endpoint a subscription names, so
 * only these hosts (and their subdomains) are accepted: a subscription cannot aim our server at anything else.
 */
export const DEFAULT_PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'push.services.mozilla.com',
  'notify.windows.com',
  'push.apple.com',
];

export interface PushDeps {
  db: Db;
  clock: Clock;
  /** Host names (a subdomain of one counts) that subscription endpoints may point at. */
  allowedHosts: string[];
}

export function isAllowedEndpoint(endpoint: string, allowedHosts: string[]): boolean {
  // The same guard as a merchant's webhook URL (https, no credentials, no internal address), then the push services.
  const url = outboundUrl(endpoint, [], allowedHosts);
  if (!url) return false;
  const host = url.hostname.toLowerCase();
  return allowedHosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
}

export function createPushService({ db, clock, allowedHosts }: PushDeps) {
  return {
    async subscribe(sender: Sender, sub: PushSubscriptionBody): Promise<void> {
      if (!isAllowedEndpoint(sub.endpoint, allowedHosts))
        throw new AppError(400, 'push_service_not_allowed', texts.sender.pushServiceNotAllowed);
      const stored = await repo.upsertSubscription(db, {
        id: randomHex(16),
        senderId: sender.id,
        endpoint: sub.endpoint,
        p256dh: sub.keys.p256dh,
        auth: sub.keys.auth,
        now: clock.now().toISOString(),
      });
      // Another sender's device, and the caller does not hold its keys: the owner's row stays as it is.
      if (!stored) throw new AppError(409, 'push_subscription_taken', texts.sender.pushSubscriptionTaken);
    },

    async unsubscribe(sender: Sender, endpoint: string): Promise<void> {
      await repo.deleteSenderSubscription(db, sender.id, endpoint);
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;
