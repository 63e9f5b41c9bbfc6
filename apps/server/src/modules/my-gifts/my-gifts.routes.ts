import { GiftId } from '@giftlens/contract/common';
import { API } from '@giftlens/contract/routes';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { clearSenderCookie, parse, type RequireSender } from '../../lib/http.ts';
import type { MyGiftsService } from './my-gifts.service.ts';

const GiftParams = z.object({ giftId: GiftId });

/** The sender's own place: the list of their gifts, deleting a gift, deleting the account. */
export function myGiftsRoutes(
  app: FastifyInstance,
  opts: { service: MyGiftsService; requireSender: RequireSender; secureCookies: boolean },
) {
  const { service, requireSender } = opts;

  app.get(API.myGifts, async (request, reply) => {
    const sender = await requireSender(request);
    reply.header('cache-control', 'no-store');
    return { success: true, gifts: await service.list(sender) };
  });

  app.delete(API.senderGift(':giftId'), async (request) => {
    const sender = await requireSender(request);
    await service.deleteGift(sender, parse(GiftParams, request.params).giftId);
    return { success: true };
  });

  app.delete(API.account, async (request, reply) => {
    const sender = await requireSender(request);
    await service.deleteAccount(sender);
    clearSenderCookie(reply, opts.secureCookies);
    return { success: true };
  });
}
