import type { PushNotice } from '@giftlens/contract/push';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Agent } from 'node:https';
import path from 'node:path';
import webpush, { WebPushError } from 'web-push';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  /** A mailto: or https: contact the push services may use to reach us. */
  subject: string;
}

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** Web Push (RFC 8030) with VAPID (RFC 8292), the payload encrypted for the browser (RFC 8291). */
export interface PushSender {
  /** The application server key the browser subscribes with, base64url. */
  readonly publicKey: string;
  /** 'gone' when the push service says the subscription no longer exists (404 or 410): it should be removed. */
  send(target: PushTarget, notice: PushNotice): Promise<'sent' | 'gone'>;
}

/** `agent` lets tests trust a loopback push receiver's own certificate. */
export function createWebPushSender(keys: VapidKeys, opts: { agent?: Agent } = {}): PushSender {
  const vapidDetails = { subject: keys.subject, publicKey: keys.publicKey, privateKey: keys.privateKey };
  return {
    publicKey: keys.publicKey,
    async send(target, notice) {
      try {
        await webpush.sendNotification(
          { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
          JSON.stringify(notice),
          {
            vapidDetails,
            // A notice older than a day is no news any more.
            TTL: 24 * 60 * 60,
            urgency: 'normal',
            timeout: 30_000,
            ...(opts.agent ? { agent: opts.agent } : {}),
          },
        );
        return 'sent';
      } catch (err) {
        if (err instanceof WebPushError && (err.statusCode === 404 || err.statusCode === 410)) return 'gone';
        if (err instanceof WebPushError) throw new Error(`The push service answered ${err.statusCode}: ${err.body}`.slice(0, 500));
        throw err;
      }
    },
  };
}

/**
 * VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY when set; otherwise a pair generated once and kept in DATA_DIR/vapid.json,
 * so subscriptions survive restarts. Several machines must share one pair: set the variables there.
 */
export function resolveVapidKeys(
  env: { publicKey: string | null; privateKey: string | null; subject: string },
  dataDir: string,
): VapidKeys {
  if (env.publicKey && env.privateKey) return { publicKey: env.publicKey, privateKey: env.privateKey, subject: env.subject };
  const file = path.join(dataDir, 'vapid.json');
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as Partial<VapidKeys>;
    if (kept.publicKey && kept.privateKey) return { publicKey: kept.publicKey, privateKey: kept.privateKey, subject: env.subject };
  }
  const generated = webpush.generateVAPIDKeys();
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(generated)}\n`, { mode: 0o600 });
  return { ...generated, subject: env.subject };
}
