import { MERCHANT_KEY_PREFIX, MERCHANT_KEY_RANDOM_CHARS, merchantTexts, type MerchantUsageMonth, type StaffMerchant } from '@giftlens/contract/merchants';
import { SIGNED_URL_TTL_MS } from '@giftlens/contract/constants';
import type { MediaStorage } from '../../adapters/media-storage.ts';
import type { Executor } from '../../db/database.ts';
import { randomBase62, randomHex, sha256Hex } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { outboundUrl } from '../../lib/outbound-url.ts';
import { createSealer } from '../../lib/sealed.ts';
import * as repo from './merchants.repository.ts';
import type { Merchant } from './merchants.table.ts';

/**
 * What staff do to merchants (decision 058), each in the caller's transaction so the console audits it in the same
 * one (modules/staff). Keys: `gl_live_` + 32 base62 characters (about 190 bits) from the CSPRNG, kept as SHA-256;
 * webhook secrets: `whsec_` + 32 base62 characters, kept sealed (the HMAC needs the secret itself).
 */
export function webhookSecrets(sessionSecret: string) {
  const sealer = createSealer(sessionSecret, 'merchant-webhook-secrets');
  return {
    fresh(merchantId: string) {
      const secret = `whsec_${randomBase62(32)}`;
      return { secret, sealed: sealer.seal(merchantId, secret) };
    },
    open: (merchant: Pick<Merchant, 'id' | 'webhook_secret'>) => sealer.open(merchant.id, merchant.webhook_secret),
  };
}
export type WebhookSecrets = ReturnType<typeof webhookSecrets>;

export const merchantNotFound = () => new AppError(404, 'merchant_not_found', merchantTexts.merchantNotFound);

/** A webhook URL staff may set: https (or http to a WEBHOOK_ALLOW_HTTP_HOSTS host), no credentials, no internal address. */
export function checkWebhookUrl(raw: string, allowHttpHosts: readonly string[]): string {
  const url = outboundUrl(raw, allowHttpHosts);
  if (!url) throw new AppError(400, 'webhook_url_invalid', merchantTexts.webhookUrlInvalid, { field: 'webhookUrl' });
  return url.toString();
}

async function newKey(trx: Executor, merchantId: string, now: string): Promise<string> {
  const key = `${MERCHANT_KEY_PREFIX}${randomBase62(MERCHANT_KEY_RANDOM_CHARS)}`;
  await repo.insertKey(trx, { id: randomHex(16), merchant_id: merchantId, key_hash: sha256Hex(key), prefix: key.slice(0, MERCHANT_KEY_PREFIX.length + 4), created_at: now });
  return key;
}

export async function createMerchant(trx: Executor, secrets: WebhookSecrets, now: string, m: { name: string; webhookUrl: string }) {
  const id = randomHex(16);
  const { secret, sealed } = secrets.fresh(id);
  await repo.insertMerchant(trx, { id, name: m.name, display_name: null, brand_colour: null, logo_path: null, webhook_url: m.webhookUrl, webhook_secret: sealed, created_at: now, updated_at: now });
  const apiKey = await newKey(trx, id, now);
  return { merchant: { id, name: m.name }, apiKey, webhookSecret: secret };
}

async function existing(trx: Executor, merchantId: string): Promise<Merchant> {
  const merchant = /^[0-9a-f]{32}$/.test(merchantId) ? await repo.findMerchant(trx, merchantId) : undefined;
  if (!merchant) throw merchantNotFound();
  return merchant;
}

/** A new key; every earlier key stops working at once. */
export async function rotateKey(trx: Executor, merchantId: string, now: string) {
  await existing(trx, merchantId);
  const revoked = await repo.revokeKeys(trx, merchantId, now);
  return { apiKey: await newKey(trx, merchantId, now), revoked };
}

/** Every key stops working (a leak); the shop has none until staff rotate. */
export async function revokeKeys(trx: Executor, merchantId: string, now: string) {
  await existing(trx, merchantId);
  return { revoked: await repo.revokeKeys(trx, merchantId, now) };
}

/** A new webhook secret; webhooks signed from now on use it (a retry of an older one too). */
export async function rotateWebhookSecret(trx: Executor, secrets: WebhookSecrets, merchantId: string, now: string) {
  await existing(trx, merchantId);
  const { secret, sealed } = secrets.fresh(merchantId);
  await repo.updateMerchant(trx, merchantId, { webhook_secret: sealed }, now);
  return { webhookSecret: secret };
}

export async function updateMerchant(
  trx: Executor,
  merchantId: string,
  now: string,
  change: { displayName?: string | null; brandColour?: string | null; webhookUrl?: string; logoPath?: string },
) {
  const before = await existing(trx, merchantId);
  await repo.updateMerchant(
    trx,
    merchantId,
    {
      ...(change.displayName !== undefined ? { display_name: change.displayName } : {}),
      ...(change.brandColour !== undefined ? { brand_colour: change.brandColour?.toLowerCase() ?? null } : {}),
      ...(change.webhookUrl !== undefined ? { webhook_url: change.webhookUrl } : {}),
      ...(change.logoPath !== undefined ? { logo_path: change.logoPath } : {}),
    },
    now,
  );
  return before;
}

export async function listMerchants(db: Executor, media: MediaStorage, now: Date): Promise<StaffMerchant[]> {
  const [merchants, keys] = await Promise.all([repo.listMerchants(db), repo.activeKeyPrefixes(db)]);
  const prefix = new Map(keys.map((k) => [k.merchant_id, k.prefix]));
  return merchants.map((m) => ({
    id: m.id,
    name: m.name,
    displayName: m.display_name,
    brandColour: m.brand_colour,
    logoUrl: m.logo_path ? media.signedUrl(m.logo_path, SIGNED_URL_TTL_MS, now) : null,
    webhookUrl: m.webhook_url,
    keyPrefix: prefix.get(m.id) ?? null,
    createdAt: m.created_at,
  }));
}

export async function usage(db: Executor, merchantId: string): Promise<MerchantUsageMonth[]> {
  await existing(db, merchantId);
  return repo.monthlyCounts(db, merchantId);
}

/** The invoice's lines as CSV: month, gifts created, gifts first opened. */
export const usageCsv = (months: MerchantUsageMonth[]) => ['month,gifts_created,gifts_opened', ...months.map((m) => `${m.month},${m.created},${m.opened}`)].join('\r\n') + '\r\n';

export { existing as findMerchantOrThrow };
