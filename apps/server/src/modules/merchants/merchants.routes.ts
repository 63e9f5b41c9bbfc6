import { GIFT_IMAGE_MAX_BYTES } from '@giftlens/contract/constants';
import { CARD_LANGUAGES } from '@giftlens/contract/gift-card';
import {
  CreateMerchantGiftResponse,
  GiftBrandResponse,
  giftBrandApi,
  MERCHANT_MAX_PRODUCT_IMAGES,
  MerchantGiftsResponse,
  MerchantGiftStatusResponse,
  merchantApi,
  merchantTexts,
  ORDER_ID_MAX,
  RecordConfirmRequest,
  RecordLinkResponse,
  RecordTextRequest,
  RecordUploadUrlRequest,
  recordApi,
} from '@giftlens/contract/merchants';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { multipartRoutes, readMultipart } from '../../lib/multipart.ts';
import { cardHeaders, type GiftCardService } from '../gift-card/gift-card.service.ts';
import type { RateLimit } from '../sender-auth/sender-session.ts';
import { idempotencyKeyOf, type MerchantCaller, type MerchantsService } from './merchants.service.ts';

const GiftParams = z.object({ giftId: z.string().max(64) });
const OrderQuery = z.object({ orderId: z.string({ message: merchantTexts.fieldRequired('orderId') }).min(1, { message: merchantTexts.fieldRequired('orderId') }).max(ORDER_ID_MAX, { message: merchantTexts.fieldTooLong('orderId', ORDER_ID_MAX) }) });
const TokenParams = z.object({ token: z.string().max(128) });
/** A copy of a contract schema carrying an example for /api/docs (the contract's own schema stays as it is). */
function withExample<S extends z.core.$ZodType>(schema: S & { clone(): S }, example: unknown): S {
  const copy = schema.clone();
  z.globalRegistry.add(copy, { example });
  return copy;
}
const CardQuery = z.object({ lang: z.enum(CARD_LANGUAGES).default('en') });

const EXAMPLE_GIFT = {
  giftId: '3f2b9c1d4e5f60718293a4b5c6d7e8f9',
  recordUrl: 'https://giftlens.example/record/3f2b9c1d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9',
  backupCode: '48213907',
  cardUrl: 'https://giftlens.example/api/merchant/v1/gifts/3f2b9c1d4e5f60718293a4b5c6d7e8f9/card.pdf',
  status: 'awaiting_message',
  quality: { recognisable: true, score: 0.82, rating: 5, reasons: [] },
  lookalike: false,
};
const EXAMPLE_STATUS = {
  giftId: EXAMPLE_GIFT.giftId,
  orderId: 'SHOP-10042',
  status: 'opened',
  createdAt: '2026-12-01T09:30:00.000Z',
  messageReadyAt: '2026-12-01T18:02:11.000Z',
  openedAt: '2026-12-24T08:15:40.000Z',
  reactionReady: false,
};

/**
 * The merchant API (`/api/merchant/v1/*`, bearer API keys, a rate limit per key) and the buyer's record link
 * (`/api/record/{token}`, no account), decision 058.
 */
export function merchantsRoutes(
  app: FastifyInstance,
  opts: { service: MerchantsService; giftCard: GiftCardService; rateLimit: RateLimit; recordRateLimit: RateLimit },
  done: (err?: Error) => void,
) {
  const { service } = opts;
  const seen = new WeakMap<FastifyRequest, MerchantCaller>();

  async function requireMerchant(request: FastifyRequest, reply?: FastifyReply): Promise<MerchantCaller> {
    const known = seen.get(request);
    if (known) return known;
    const header = request.headers.authorization;
    const caller = await service.authenticate(header);
    if (!caller) {
      reply?.header('www-authenticate', 'Bearer realm="GiftLens merchant API"');
      throw new AppError(401, 'unauthorized', header ? merchantTexts.keyInvalid : merchantTexts.keyMissing);
    }
    seen.set(request, caller);
    return caller;
  }

  const security = [{ bearerAuth: [] }];
  const tags = ['merchant API'];
  const guarded = {
    preValidation: async (request: FastifyRequest, reply: FastifyReply) => void (await requireMerchant(request, reply)),
    config: {
      rateLimit: {
        ...opts.rateLimit,
        hook: 'preHandler' as const,
        keyGenerator: async (request: FastifyRequest) => `merchant-key:${(await requireMerchant(request)).keyId}`,
      },
    },
  };

  multipartRoutes(app, (scope) => {
    scope.withTypeProvider<ZodTypeProvider>().post(
      merchantApi.gifts,
      {
        ...guarded,
        schema: {
          tags,
          security,
          summary: 'Create a paid gift for an order (multipart: fields and 1–4 productImage catalogue photos; Idempotency-Key header)',
          description:
            'Fields: orderId, buyerEmail, optional buyerName, recipientName, optional recipientEmail, occasion, planId, optional release (now | on_delivery | an ISO 8601 time). ' +
            'Each productImage is checked, normalised and enrolled like a sender’s gift photo; quality and lookalike are its recognisability rating and look-alike warning. ' +
            'The same Idempotency-Key answers the same gift again. The buyer is mailed recordUrl.',
          consumes: ['multipart/form-data'],
          headers: z.object({ 'idempotency-key': z.string().optional().describe('Any 1–200 visible characters; the same key returns the same gift') }),
          response: { 201: withExample(CreateMerchantGiftResponse, EXAMPLE_GIFT) },
        },
      },
      async (request, reply) => {
        const caller = await requireMerchant(request);
        const idempotencyKey = idempotencyKeyOf(request.headers['idempotency-key']);
        const images: Buffer[] = [];
        const refused = (message: string) => () => new AppError(400, 'invalid_field', message, { field: 'productImage' });
        const fields = await readMultipart(
          request,
          { fileSize: GIFT_IMAGE_MAX_BYTES, files: MERCHANT_MAX_PRODUCT_IMAGES, fields: 20, fieldSize: 2_000 },
          {
            invalid: () => new AppError(400, 'multipart_required', merchantTexts.multipartRequired),
            fileTooLarge: () => new AppError(413, 'gift_image_too_large', merchantTexts.imageTooLarge, { field: 'productImage' }),
            tooMany: refused(merchantTexts.tooManyImages),
            fieldTooLong: (field) => new AppError(400, 'invalid_field', merchantTexts.fieldTooLong(field, 2_000), { field }),
          },
          async (part) => {
            const data = await part.toBuffer();
            if (part.fieldname === 'productImage' && data.length > 0) images.push(data);
          },
        );
        const answer = await service.createGift(caller, fields, images, idempotencyKey);
        return reply.code(201).send(answer);
      },
    );
  });

  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    merchantApi.gifts,
    {
      ...guarded,
      schema: { tags, security, summary: 'Your gifts for an order (?orderId=…)', querystring: OrderQuery, response: { 200: withExample(MerchantGiftsResponse, { gifts: [EXAMPLE_STATUS] }) } },
    },
    async (request) => service.byOrder(await requireMerchant(request), request.query.orderId),
  );
  api.get(
    merchantApi.gift(':giftId'),
    {
      ...guarded,
      schema: { tags, security, summary: 'A gift’s status: awaiting_message, ready, sent, opened or cancelled', params: GiftParams, response: { 200: withExample(MerchantGiftStatusResponse, EXAMPLE_STATUS) } },
    },
    async (request) => service.status(await requireMerchant(request), request.params.giftId),
  );
  api.post(
    merchantApi.cancel(':giftId'),
    {
      ...guarded,
      schema: {
        tags,
        security,
        summary: 'Cancel a gift (a cancelled or refunded order): it no longer opens (410 for the recipient); its media go on the usual schedule',
        params: GiftParams,
        response: { 200: withExample(MerchantGiftStatusResponse, { ...EXAMPLE_STATUS, status: 'cancelled', openedAt: null }) },
      },
    },
    async (request) => service.cancel(await requireMerchant(request), request.params.giftId),
  );
  api.post(
    merchantApi.delivered(':giftId'),
    {
      ...guarded,
      schema: {
        tags,
        security,
        summary: 'The parcel was delivered: a gift with release on_delivery sends the recipient their link now (once its message is ready)',
        params: GiftParams,
        response: { 200: withExample(MerchantGiftStatusResponse, { ...EXAMPLE_STATUS, status: 'ready', openedAt: null }) },
      },
    },
    async (request) => service.delivered(await requireMerchant(request), request.params.giftId),
  );
  api.get(
    merchantApi.card(':giftId'),
    {
      ...guarded,
      schema: {
        tags,
        security,
        summary: 'The printable card for the box (A4 PDF: a folded A6 card and a credit-card size card with the link, its QR code and the backup code), ?lang=en|hi',
        params: GiftParams,
        querystring: CardQuery,
      },
    },
    async (request, reply) => {
      await service.ownGift(await requireMerchant(request), request.params.giftId);
      const card = await opts.giftCard.cardOfGift(request.params.giftId, request.query.lang);
      return reply.headers(cardHeaders(card.recipientName)).send(card.pdf);
    },
  );

  // ---------- the recipient's pages: the brand beside the sender's name ----------
  api.get(
    giftBrandApi(':giftId'),
    { config: { rateLimit: opts.recordRateLimit }, schema: { tags: ['recipient'], summary: 'The brand of a merchant’s gift (its name, logo and colour), or null', params: GiftParams, response: { 200: GiftBrandResponse } } },
    async (request) => ({ success: true as const, ...(/^[0-9a-f]{32}$/.test(request.params.giftId) ? await service.brand(request.params.giftId) : { brand: null, senderName: null }) }),
  );

  // ---------- the buyer's record link (no account; the token is the credential) ----------
  const recordTags = ['record link'];
  const recordLimited = { config: { rateLimit: opts.recordRateLimit } };
  api.get(
    recordApi.record(':token'),
    { ...recordLimited, schema: { tags: recordTags, summary: 'The gift behind a record link: recipient, brand, plan, message so far', params: TokenParams, response: { 200: RecordLinkResponse } } },
    async (request) => service.recordInfo(request.params.token),
  );
  api.post(
    recordApi.text(':token'),
    { ...recordLimited, schema: { tags: recordTags, summary: 'A text message instead of a recording', params: TokenParams, body: RecordTextRequest } },
    async (request) => service.recordText(request.params.token, request.body.text),
  );
  api.post(
    recordApi.uploadUrl(':token'),
    { ...recordLimited, schema: { tags: recordTags, summary: 'A signed URL to PUT the video or voice message to (the plan’s size limit)', params: TokenParams, body: RecordUploadUrlRequest } },
    async (request) => service.recordUploadUrl(request.params.token, request.body),
  );
  api.post(
    recordApi.confirm(':token'),
    { ...recordLimited, schema: { tags: recordTags, summary: 'Check the uploaded file (the hostile-media gate) and make it the message', params: TokenParams, body: RecordConfirmRequest } },
    async (request) => service.recordConfirm(request.params.token, request.body),
  );
  done();
}
