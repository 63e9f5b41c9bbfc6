import { GiftId } from '@giftlens/contract/common';
import { API } from '@giftlens/contract/routes';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RevealGrants } from '../reveal-grants/reveal-grants.ts';
import type { MessagesService } from './messages.service.ts';

const GiftParams = z.object({ giftId: GiftId });

export function messagesRoutes(app: FastifyInstance, opts: { service: MessagesService; grants: RevealGrants }, done: (err?: Error) => void) {
  app.withTypeProvider<ZodTypeProvider>().get(
    API.giftMessage(':giftId'),
    { schema: { tags: ['recipient'], summary: 'The revealed message (needs the reveal grant of a matching scan)', params: GiftParams } },
    async (request, reply) => {
      const { giftId } = request.params;
      // A playing message page asks again every few minutes: its reveal is renewed (up to an hour after the scan).
      await opts.grants.renew(request, reply, giftId);
      // Signed URLs inside: never cached by the browser or a proxy.
      reply.header('cache-control', 'no-store');
      return opts.service.giftMessage(giftId);
    },
  );
  done();
}
