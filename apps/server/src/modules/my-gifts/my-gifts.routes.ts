import { NewBackupCodeResponse } from '@giftlens/contract/backup-code';
import { GiftId } from '@giftlens/contract/common';
import { MyGiftsResponse } from '@giftlens/contract/my-gifts';
import { API } from '@giftlens/contract/routes';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clearSenderCookie } from '../../lib/http.ts';
import type { RequireSender } from '../sender-auth/sender-session.ts';
import type { MyGiftsService } from './my-gifts.service.ts';

const GiftParams = z.object({ giftId: GiftId });
const tags = ['my gifts'];

/** The sender's own place: the list of their gifts, deleting a gift, deleting the account. */
export function myGiftsRoutes(
  app: FastifyInstance,
  opts: { service: MyGiftsService; requireSender: RequireSender; secureCookies: boolean },
  done: (err?: Error) => void,
) {
  const { service, requireSender } = opts;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = { preValidation: requireSender.hook };

  api.get(
    API.myGifts,
    { ...signedIn, schema: { tags, summary: 'The sender’s gifts, newest first, with their state', response: { 200: MyGiftsResponse } } },
    async (request, reply) => {
      const gifts = await service.list(await requireSender(request));
      reply.header('cache-control', 'no-store');
      return { success: true as const, gifts };
    },
  );

  api.delete(
    API.senderGift(':giftId'),
    { ...signedIn, schema: { tags, summary: 'Delete a gift and everything of it, files included', params: GiftParams } },
    async (request) => {
      await service.deleteGift(await requireSender(request), request.params.giftId);
      return { success: true };
    },
  );

  api.post(
    API.backupCode(':giftId'),
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'A new 8-digit backup code for the sender’s own paid gift (the old one stops working at once)',
        params: GiftParams,
        response: { 200: NewBackupCodeResponse },
      },
    },
    async (request, reply) => {
      const backupCode = await service.renewBackupCode(await requireSender(request), request.params.giftId);
      reply.header('cache-control', 'no-store');
      return { success: true as const, giftId: request.params.giftId, backupCode };
    },
  );

  api.delete(API.account, { ...signedIn, schema: { tags, summary: 'Delete the account and all its gifts' } }, async (request, reply) => {
    await service.deleteAccount(await requireSender(request));
    clearSenderCookie(reply, opts.secureCookies);
    return { success: true };
  });
  done();
}
