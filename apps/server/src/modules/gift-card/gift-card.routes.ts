import { GiftId } from '@giftlens/contract/common';
import { CARD_LANGUAGES } from '@giftlens/contract/gift-card';
import { GIFT_EXTRAS_API } from '@giftlens/contract/gift-extras-api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RequireSender } from '../sender-auth/sender-session.ts';
import { cardHeaders, type GiftCardService } from './gift-card.service.ts';

const GiftParams = z.object({ giftId: GiftId });
const CardQuery = z.object({ lang: z.enum(CARD_LANGUAGES).default('en') });

/** GET /api/gift-sender/gifts/{giftId}/card.pdf?lang=en|hi: the printable card for the sender's own paid gift. */
export function giftCardRoutes(
  app: FastifyInstance,
  opts: { service: GiftCardService; requireSender: RequireSender },
  done: (err?: Error) => void,
) {
  const { service, requireSender } = opts;
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    GIFT_EXTRAS_API.giftCard(':giftId'),
    {
      preValidation: requireSender.hook,
      schema: {
        tags: ['my gifts'],
        summary: 'The printable card for the box (A4 PDF: a folded A6 card and a credit-card size card), in English or Hindi',
        params: GiftParams,
        querystring: CardQuery,
      },
    },
    async (request, reply) => {
      const card = await service.cardFor(await requireSender(request), request.params.giftId, request.query.lang);
      return reply.headers(cardHeaders(card.recipientName)).send(card.pdf);
    },
  );
  done();
}
