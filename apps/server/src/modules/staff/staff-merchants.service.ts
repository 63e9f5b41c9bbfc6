import { merchantTexts, type StaffCreateMerchantRequest, type StaffUpdateMerchantRequest } from '@giftlens/contract/merchants';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import type { Clock } from '../../adapters/clock.ts';
import type { MediaStorage } from '../../adapters/media-storage.ts';
import type { Db, Executor } from '../../db/database.ts';
import { randomHex } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { pixelsOverLimit } from '../../lib/images.ts';
import * as admin from '../merchants/merchant-admin.ts';
import * as repo from './staff.repository.ts';
import type { StaffMember } from './staff-auth.service.ts';

export interface StaffMerchantsDeps {
  db: Db;
  media: MediaStorage;
  clock: Clock;
  secrets: admin.WebhookSecrets;
  /** WEBHOOK_ALLOW_HTTP_HOSTS. */
  webhookAllowHttpHosts: readonly string[];
}

const LOGO_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp']);

/**
 * The console's merchants (decision 058): create one (its key and webhook secret shown once), list them, rotate or
 * revoke keys, rotate the webhook secret, set the brand, the monthly counts. Every change is audited with its reason
 * in the change's own transaction (decision 051), never with a key or a secret in the details.
 */
export function createStaffMerchantsService({ db, media, clock, secrets, webhookAllowHttpHosts }: StaffMerchantsDeps) {
  function audited<T>(who: StaffMember, action: string, reason: string, details: Record<string, unknown>, effect: (trx: Executor, now: string) => Promise<T>): Promise<T> {
    return db.transaction().execute(async (trx) => {
      const now = clock.now().toISOString();
      const result = await effect(trx, now);
      await repo.audit(trx, { staffEmail: who.email, action, giftId: null, reason, details, now });
      return result;
    });
  }

  return {
    async create(who: StaffMember, req: StaffCreateMerchantRequest) {
      const webhookUrl = admin.checkWebhookUrl(req.webhookUrl, webhookAllowHttpHosts);
      return audited(who, 'create_merchant', req.reason, { name: req.name, webhookUrl }, async (trx, now) => {
        const created = await admin.createMerchant(trx, secrets, now, { name: req.name, webhookUrl });
        return created;
      });
    },

    list: async () => ({ merchants: await admin.listMerchants(db, media, clock.now()) }),

    rotateKey: (who: StaffMember, merchantId: string, reason: string) =>
      audited(who, 'rotate_merchant_key', reason, { merchantId }, (trx, now) => admin.rotateKey(trx, merchantId, now)),

    revokeKeys: (who: StaffMember, merchantId: string, reason: string) =>
      audited(who, 'revoke_merchant_keys', reason, { merchantId }, (trx, now) => admin.revokeKeys(trx, merchantId, now)),

    rotateWebhookSecret: (who: StaffMember, merchantId: string, reason: string) =>
      audited(who, 'rotate_merchant_webhook_secret', reason, { merchantId }, (trx, now) => admin.rotateWebhookSecret(trx, secrets, merchantId, now)),

    async update(who: StaffMember, merchantId: string, req: StaffUpdateMerchantRequest) {
      const webhookUrl = req.webhookUrl !== undefined ? admin.checkWebhookUrl(req.webhookUrl, webhookAllowHttpHosts) : undefined;
      const change = {
        ...(req.displayName !== undefined ? { displayName: req.displayName } : {}),
        ...(req.brandColour !== undefined ? { brandColour: req.brandColour } : {}),
        ...(webhookUrl !== undefined ? { webhookUrl } : {}),
      };
      await audited(who, 'update_merchant', req.reason, { merchantId, ...change }, (trx, now) => admin.updateMerchant(trx, merchantId, now, change));
      return this.list();
    },

    /** The brand's logo: sniffed, decoded and re-encoded (PNG, at most 512 px) before it is stored. */
    async setLogo(who: StaffMember, merchantId: string, logo: Buffer | null, reason: string) {
      await admin.findMerchantOrThrow(db, merchantId);
      const type = logo ? await fileTypeFromBuffer(logo) : undefined;
      if (!logo || !type || !LOGO_TYPES.has(type.mime) || (await pixelsOverLimit(logo)) !== null) throw new AppError(400, 'logo_invalid', merchantTexts.logoInvalid, { field: 'logo' });
      let png: Buffer;
      try {
        png = await sharp(logo, { failOn: 'error' }).resize(512, 512, { fit: 'inside', withoutEnlargement: true }).png().toBuffer();
      } catch {
        throw new AppError(400, 'logo_invalid', merchantTexts.logoInvalid, { field: 'logo' });
      }
      const key = `merchants/${merchantId}/logo-${randomHex(6)}.png`;
      await media.put(key, png);
      let before;
      try {
        before = await audited(who, 'set_merchant_logo', reason, { merchantId }, (trx, now) => admin.updateMerchant(trx, merchantId, now, { logoPath: key }));
      } catch (err) {
        await media.delete(key).catch(() => undefined);
        throw err;
      }
      if (before.logo_path) await media.delete(before.logo_path).catch(() => undefined);
      return this.list();
    },

    usage: async (merchantId: string) => ({ months: await admin.usage(db, merchantId) }),
    usageCsv: async (merchantId: string) => admin.usageCsv(await admin.usage(db, merchantId)),
  };
}

export type StaffMerchantsService = ReturnType<typeof createStaffMerchantsService>;
