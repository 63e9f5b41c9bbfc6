import { GiftId } from '@giftlens/contract/common';
import { RemindersRequest, RemindersResponse } from '@giftlens/contract/my-gifts';
import { GIFT_EXTRAS_API } from '@giftlens/contract/gift-extras-api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RequireSender } from '../sender-auth/sender-session.ts';
import type { RemindersService } from './reminders.service.ts';

const GiftParams = z.object({ giftId: GiftId });

/** PUT /api/gift-sender/gifts/{giftId}/reminders { enabled }: the sender's switch for the gift's reminders. */
export function remindersRoutes(
  app: FastifyInstance,
  opts: { service: RemindersService; requireSender: RequireSender },
  done: (err?: Error) => void,
) {
  const { service, requireSender } = opts;
  app.withTypeProvider<ZodTypeProvider>().put(
    GIFT_EXTRAS_API.giftReminders(':giftId'),
    {
      preValidation: requireSender.hook,
      schema: {
        tags: ['my gifts'],
        summary: 'Turn the gift’s reminders (the sender’s “not opened yet”, the recipient’s “ends tomorrow”) on or off',
        params: GiftParams,
        body: RemindersRequest,
        response: { 200: RemindersResponse },
      },
    },
    async (request) => {
      const remindersEnabled = await service.setEnabled(await requireSender(request), request.params.giftId, request.body.enabled);
      return { success: true as const, giftId: request.params.giftId, remindersEnabled };
    },
  );
  done();
}
