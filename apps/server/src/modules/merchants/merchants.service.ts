import { SIGNED_URL_TTL_MS } from '@giftlens/contract/constants';
import { Email, PLAIN_NAME } from '@giftlens/contract/common';
import {
  type Brand,
  type CreateMerchantGiftResponse,
  IDEMPOTENCY_KEY_MAX,
  MERCHANT_KEY_PREFIX,
  MERCHANT_MAX_PRODUCT_IMAGES,
  type MerchantGiftStatus,
  type MerchantGiftStatusResponse,
  merchantApi,
  merchantTexts,
  ORDER_ID_MAX,
  type RecordLinkResponse,
} from '@giftlens/contract/merchants';
import { OCCASIONS, type Occasion } from '@giftlens/contract/occasions';
import { findPlan, PLAN_IDS, type PlanId } from '@giftlens/contract/plans';
import { regionalPhone } from '@giftlens/contract/phone';
import type { PhotoQuality } from '@giftlens/contract/sender';
import * as z from 'zod';
import type { Clock } from '../../adapters/clock.ts';
import type { MediaStorage } from '../../adapters/media-storage.ts';
import type { Db, Executor } from '../../db/database.ts';
import { merchantBuyerMailJob, merchantReleaseJob } from '../../jobs/keys.ts';
import { enqueue } from '../../jobs/queue.ts';
import { randomHex, sha256Hex } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import * as deliveries from '../deliveries/deliveries.repository.ts';
import { planOf } from '../gifts/gift-plan.ts';
import * as gifts from '../gifts/gifts.repository.ts';
import type { GiftsService } from '../gifts/gifts.service.ts';
import type { Gift } from '../gifts/gifts.table.ts';
import { findSenderByEmail, findSenderById, insertSenderIfNew, updateSender } from '../sender-auth/sender-auth.repository.ts';
import type { Sender } from '../sender-auth/sender-auth.table.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import { queueMerchantEvent } from './merchant-events.ts';
import { releaseIfDue } from './merchant-release.ts';
import type { RecordLinks } from './record-links.ts';
import * as repo from './merchants.repository.ts';
import type { MerchantGift, MerchantReleaseKind } from './merchants.table.ts';

/** The merchant a valid API key belongs to. */
export interface MerchantCaller {
  id: string;
  name: string;
  keyId: string;
}

export interface MerchantsDeps {
  db: Db;
  media: MediaStorage;
  clock: Clock;
  gifts: GiftsService;
  uploads: UploadsService;
  links: RecordLinks;
  publicOrigin: string;
  /** WhatsApp Cloud API configured: a recipient's number is taken and the release sends the link there too. */
  whatsappEnabled: boolean;
  wakeJobs?: (() => void) | undefined;
}

const fieldError = (field: string, message: string) => new AppError(400, 'invalid_field', message, { field });
const notFound = () => new AppError(404, 'gift_not_found', merchantTexts.giftNotFound);
const recordLinkInvalid = () => new AppError(404, 'record_link_invalid', merchantTexts.recordLinkInvalid);
// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const VISIBLE = /^[^\u0000-\u001f\u007f]+$/;

export interface MerchantGiftInput {
  orderId: string;
  buyerEmail: string;
  buyerName: string | null;
  recipientName: string;
  recipientEmail: string | null;
  /** E.164, for the WhatsApp release where it is configured. */
  recipientPhone: string | null;
  occasion: Occasion;
  planId: PlanId;
  release: { kind: MerchantReleaseKind; at: string | null };
}

/** The multipart fields of POST /api/merchant/v1/gifts, each refusal naming its field. */
export function validateGiftFields(fields: Record<string, string>, imageCount: number, now: Date, whatsappEnabled = false): MerchantGiftInput {
  const text = (field: string, max: number, required: boolean): string | null => {
    const value = fields[field]?.trim() ?? '';
    if (!value) {
      if (required) throw fieldError(field, merchantTexts.fieldRequired(field));
      return null;
    }
    if (value.length > max) throw fieldError(field, merchantTexts.fieldTooLong(field, max));
    if (!PLAIN_NAME.test(value)) throw fieldError(field, merchantTexts.fieldInvalid(field, 'it holds control characters.'));
    return value;
  };
  const email = (field: string, required: boolean): string | null => {
    const value = text(field, 254, required);
    if (value === null) return null;
    const parsed = z.safeParse(Email, value);
    if (!parsed.success) throw fieldError(field, merchantTexts.fieldInvalid(field, 'not an e-mail address.'));
    return parsed.data;
  };
  const orderId = text('orderId', ORDER_ID_MAX, true)!;
  const buyerEmail = email('buyerEmail', true)!;
  const buyerName = text('buyerName', 40, false);
  const recipientName = text('recipientName', 80, true)!;
  const recipientEmail = email('recipientEmail', false);
  const occasion = text('occasion', 40, true)!;
  if (!(OCCASIONS as readonly string[]).includes(occasion)) throw fieldError('occasion', merchantTexts.fieldInvalid('occasion', `one of ${OCCASIONS.join(', ')}.`));
  const planId = text('planId', 40, true)!;
  if (!(PLAN_IDS as readonly string[]).includes(planId)) throw fieldError('planId', merchantTexts.fieldInvalid('planId', `one of ${PLAN_IDS.join(', ')}.`));
  const phoneText = text('recipientPhone', 40, false);
  let recipientPhone: string | null = null;
  if (phoneText !== null) {
    if (!whatsappEnabled) throw fieldError('recipientPhone', merchantTexts.whatsappOff);
    const phone = regionalPhone(findPlan(planId)?.region ?? 'US', phoneText);
    if (!phone.ok) throw fieldError('recipientPhone', merchantTexts.fieldInvalid('recipientPhone', phone.error));
    recipientPhone = phone.phone;
  }
  const releaseText = text('release', 40, false) ?? 'now';
  let release: MerchantGiftInput['release'];
  if (releaseText === 'now' || releaseText === 'on_delivery') release = { kind: releaseText, at: null };
  else {
    const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(releaseText) ? Date.parse(releaseText) : NaN;
    if (Number.isNaN(at)) throw fieldError('release', merchantTexts.fieldInvalid('release', '"now", "on_delivery" or an ISO 8601 time with its offset (2026-12-24T18:00:00+05:30).'));
    if (at > now.getTime() + 366 * 24 * 60 * 60 * 1000) throw fieldError('release', merchantTexts.fieldInvalid('release', 'at most a year ahead.'));
    release = { kind: 'at', at: new Date(at).toISOString() };
  }
  if (imageCount === 0) throw fieldError('productImage', merchantTexts.imageRequired);
  if (imageCount > MERCHANT_MAX_PRODUCT_IMAGES) throw fieldError('productImage', merchantTexts.tooManyImages);
  return { orderId, buyerEmail, buyerName, recipientName, recipientEmail, recipientPhone, occasion: occasion as Occasion, planId: planId as PlanId, release };
}

/** The Idempotency-Key header: absent, or 1–200 visible characters. */
export function idempotencyKeyOf(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || value.length > IDEMPOTENCY_KEY_MAX || !VISIBLE.test(value)) throw fieldError('Idempotency-Key', merchantTexts.idempotencyKeyInvalid);
  return value;
}

/** What the shop sees of its gift (the five states). */
export function statusOf(mg: MerchantGift, gift: Pick<Gift, 'first_opened_at' | 'message_state' | 'message_type'> | undefined): MerchantGiftStatus {
  if (mg.cancelled_at) return 'cancelled';
  if (mg.opened_at || gift?.first_opened_at) return 'opened';
  if (mg.sent_at) return 'sent';
  if (mg.message_ready_at || (gift && gift.message_type !== null && gift.message_state === 'ready')) return 'ready';
  return 'awaiting_message';
}

/** A key is `gl_live_` and 32 base62 characters. */
const KEY_SHAPE = new RegExp(`^${MERCHANT_KEY_PREFIX}[0-9A-Za-z]{32}$`);

/** The brand shown to the buyer and the recipient, with a freshly signed logo URL. */
export async function brandOf(db: Executor, media: MediaStorage, now: Date, giftId: string): Promise<Brand | null> {
  const row = await repo.brandOfGift(db, giftId);
  if (!row) return null;
  return {
    name: row.display_name ?? row.name,
    logoUrl: row.logo_path ? media.signedUrl(row.logo_path, SIGNED_URL_TTL_MS, now) : null,
    colour: row.brand_colour,
  };
}

export function createMerchantsService({ db, media, clock, gifts: giftsService, uploads, links, publicOrigin, whatsappEnabled, wakeJobs }: MerchantsDeps) {
  async function buyerOf(email: string, name: string | null): Promise<Sender> {
    const now = clock.now().toISOString();
    await insertSenderIfNew(db, { id: randomHex(16), email, now });
    const sender = await findSenderByEmail(db, email);
    if (!sender) throw new Error('the buyer could not be stored');
    if (name && !sender.first_name) {
      await updateSender(db, sender.id, { first_name: name, updated_at: now });
      return { ...sender, first_name: name };
    }
    return sender;
  }

  async function answerFor(mg: MerchantGift): Promise<CreateMerchantGiftResponse> {
    const gift = await gifts.findGift(db, mg.gift_id);
    if (!gift) throw notFound();
    return {
      giftId: mg.gift_id,
      recordUrl: links.url(mg.gift_id),
      backupCode: (gift.backup_code && (await giftsService.backupCode(gift))) ?? '',
      cardUrl: `${publicOrigin}${merchantApi.card(mg.gift_id)}`,
      status: statusOf(mg, gift),
      quality: JSON.parse(mg.quality) as PhotoQuality,
      lookalike: mg.lookalike === 1,
    };
  }

  async function own(merchant: MerchantCaller, giftId: string): Promise<MerchantGift> {
    const mg = /^[0-9a-f]{32}$/.test(giftId) ? await repo.findOwnGift(db, merchant.id, giftId) : undefined;
    if (!mg) throw notFound();
    return mg;
  }

  async function statusResponse(mg: MerchantGift): Promise<MerchantGiftStatusResponse> {
    const gift = await gifts.findGift(db, mg.gift_id);
    return {
      giftId: mg.gift_id,
      orderId: mg.order_id,
      status: statusOf(mg, gift),
      createdAt: mg.created_at,
      messageReadyAt: mg.message_ready_at,
      openedAt: mg.opened_at ?? gift?.first_opened_at ?? null,
      reactionReady: mg.reaction_ready_at !== null,
    };
  }

  /** The record link's gift and its buyer (the gift's sender), or a 404. */
  async function recordGift(token: string): Promise<{ gift: Gift; buyer: Sender; mg: MerchantGift }> {
    const giftId = links.giftIdOf(token);
    const mg = giftId ? await repo.findMerchantGift(db, giftId) : undefined;
    const gift = mg ? await gifts.findGift(db, mg.gift_id) : undefined;
    const buyer = gift ? await findSenderById(db, gift.sender_id) : undefined;
    if (!mg || !gift || !buyer) throw recordLinkInvalid();
    if (mg.cancelled_at) throw new AppError(410, 'gift_cancelled', merchantTexts.cancelled);
    return { gift, buyer, mg };
  }

  return {
    /** The merchant of a bearer key; null for a missing, malformed, wrong, revoked or replaced one. */
    async authenticate(authorization: string | undefined): Promise<MerchantCaller | null> {
      const key = /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1];
      if (!key || !KEY_SHAPE.test(key)) return null;
      const row = await repo.activeKeyByHash(db, sha256Hex(key));
      return row ? { id: row.id, name: row.name, keyId: row.keyId } : null;
    },

    async createGift(merchant: MerchantCaller, fields: Record<string, string>, images: Buffer[], idempotencyKey: string | null): Promise<CreateMerchantGiftResponse> {
      if (idempotencyKey) {
        const earlier = await repo.findByIdempotencyKey(db, merchant.id, idempotencyKey);
        if (earlier) return answerFor(earlier);
      }
      const now = clock.now();
      const input = validateGiftFields(fields, images.length, now, whatsappEnabled);
      const buyer = await buyerOf(input.buyerEmail, input.buyerName);
      let made;
      try {
        made = await giftsService.createPaidGift(
          buyer,
          { recipientName: input.recipientName, recipientEmail: input.recipientEmail ?? undefined, recipientPhone: input.recipientPhone ?? undefined, occasion: input.occasion, planId: input.planId },
          images,
          async (trx, giftId, r) => {
            await repo.insertMerchantGift(trx, {
              gift_id: giftId,
              merchant_id: merchant.id,
              order_id: input.orderId,
              idempotency_key: idempotencyKey,
              lookalike: r.lookalike ? 1 : 0,
              quality: JSON.stringify(r.quality ?? null),
              release: input.release.kind,
              release_at: input.release.at,
              delivered_at: null,
              released_at: null,
              message_ready_at: null,
              sent_at: null,
              opened_at: null,
              reaction_ready_at: null,
              cancelled_at: null,
              created_at: now.toISOString(),
            });
            await enqueue(trx, now, 'merchant.buyer_mail', { giftId }, merchantBuyerMailJob(giftId));
          },
        );
      } catch (err) {
        // Another call with the same key won the race: that gift is the answer (this one was rolled back).
        if (idempotencyKey) {
          const earlier = await repo.findByIdempotencyKey(db, merchant.id, idempotencyKey);
          if (earlier) return answerFor(earlier);
        }
        // The photo's own refusal (type, size, pixels, unreadable), said of the field.
        if (err instanceof AppError && err.statusCode < 500) throw new AppError(err.statusCode, err.code, merchantTexts.imageRefused(err.message), { field: 'productImage' });
        throw err;
      }
      wakeJobs?.();
      return {
        giftId: made.giftId,
        recordUrl: links.url(made.giftId),
        backupCode: made.backupCode,
        cardUrl: `${publicOrigin}${merchantApi.card(made.giftId)}`,
        status: 'awaiting_message',
        quality: made.quality ?? { recognisable: false, score: 0, rating: 1, reasons: [] },
        lookalike: made.lookalike,
      };
    },

    async status(merchant: MerchantCaller, giftId: string) {
      return statusResponse(await own(merchant, giftId));
    },

    async byOrder(merchant: MerchantCaller, orderId: string) {
      const rows = await repo.findByOrder(db, merchant.id, orderId);
      return { gifts: await Promise.all(rows.map(statusResponse)) };
    },

    /** Own gift (else 404): the card is the issue-40 renderer's; until it is merged this says so. */
    ownGift: own,

    /**
     * A cancelled or refunded order: the gift no longer opens (410 for the recipient, as a take-down), its pending
     * deliveries and release go, the shop gets gift.cancelled; its media go on the usual schedule. Repeating it is
     * harmless.
     */
    async cancel(merchant: MerchantCaller, giftId: string) {
      const mg = await own(merchant, giftId);
      if (!mg.cancelled_at) {
        const now = clock.now();
        await db.transaction().execute(async (trx) => {
          await gifts.lockGifts(trx, [mg.gift_id]);
          if (!(await repo.findMerchantGift(trx, mg.gift_id))?.cancelled_at) {
            await gifts.withdrawGift(trx, mg.gift_id, 'taken_down_at', now.toISOString());
            await deliveries.cancelPendingOfGift(trx, mg.gift_id, now.toISOString());
            await queueMerchantEvent(trx, now, mg.gift_id, 'gift.cancelled');
          }
        });
        wakeJobs?.();
      }
      return statusResponse((await repo.findMerchantGift(db, mg.gift_id)) ?? mg);
    },

    /** The parcel arrived: a gift released on delivery sends the recipient their link now (once its message is ready). */
    async delivered(merchant: MerchantCaller, giftId: string) {
      const mg = await own(merchant, giftId);
      if (mg.cancelled_at) throw new AppError(409, 'gift_cancelled', merchantTexts.cancelled);
      if (mg.release !== 'on_delivery') throw new AppError(409, 'not_on_delivery', merchantTexts.notOnDelivery);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        if (await repo.markMoment(trx, mg.gift_id, 'delivered_at', now.toISOString())) {
          await enqueue(trx, now, 'merchant.release', { giftId: mg.gift_id }, merchantReleaseJob(mg.gift_id, 'delivered'));
        }
      });
      await releaseIfDue(db, clock.now(), mg.gift_id, whatsappEnabled);
      wakeJobs?.();
      return statusResponse((await repo.findMerchantGift(db, mg.gift_id)) ?? mg);
    },

    // ---------- the buyer's record link ----------

    async recordInfo(token: string): Promise<RecordLinkResponse> {
      const { gift } = await recordGift(token);
      return {
        success: true,
        giftId: gift.id,
        recipientName: gift.recipient_name,
        occasion: gift.occasion,
        brand: (await brandOf(db, media, clock.now(), gift.id)) ?? { name: '', logoUrl: null, colour: null },
        planId: planOf(gift).id,
        messageType: gift.message_type,
        messageState: gift.message_state,
        open: gift.first_opened_at === null && gift.taken_down_at === null,
      };
    },

    async recordText(token: string, text: string) {
      const { gift, buyer } = await recordGift(token);
      await uploads.saveTextMessage(buyer, { giftId: gift.id, text });
      return { success: true as const };
    },

    async recordUploadUrl(token: string, req: { fileType: string; fileSize?: number | undefined; messageType: 'video' | 'audio' }) {
      const { gift, buyer } = await recordGift(token);
      return uploads.generateUploadUrl(buyer, { giftId: gift.id, fileType: req.fileType, fileName: 'message', messageType: req.messageType, ...(req.fileSize !== undefined ? { fileSize: req.fileSize } : {}) });
    },

    async recordConfirm(token: string, req: { filePath: string; messageType: 'video' | 'audio' }) {
      const { gift, buyer } = await recordGift(token);
      await uploads.confirmUpload(buyer, { giftId: gift.id, publicUrl: '', filePath: req.filePath, messageType: req.messageType });
      return { success: true as const };
    },

    /** The brand of a gift and its buyer's first name, for the recipient's pages (null: a sender's own gift). */
    async brand(giftId: string): Promise<{ brand: Brand | null; senderName: string | null }> {
      const brand = await brandOf(db, media, clock.now(), giftId);
      if (!brand) return { brand: null, senderName: null };
      const gift = await gifts.findGift(db, giftId);
      const buyer = gift ? await findSenderById(db, gift.sender_id) : undefined;
      return { brand, senderName: buyer?.first_name ?? null };
    },
  };
}

export type MerchantsService = ReturnType<typeof createMerchantsService>;
