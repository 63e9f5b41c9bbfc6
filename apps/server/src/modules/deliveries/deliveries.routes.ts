import { texts } from '@giftlens/contract/texts';
import { API } from '@giftlens/contract/routes';
import {
  ChangeDeliveryRequest,
  DeliveriesQuery,
  ScheduleRequest,
  SendNowRequest,
} from '@giftlens/contract/scheduling';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import type { RequireSender } from '../sender-auth/sender-session.ts';
import type { DeliveriesService } from './deliveries.service.ts';

const DeliveryParams = z.object({ id: z.string() });
const tags = ['deliveries'];

/** Delivery ids are 32 hex characters; anything else is as unknown as a missing one (404, not 400). */
function deliveryId(id: string): string {
  if (!/^[0-9a-f]{32}$/.test(id)) throw new AppError(404, 'delivery_not_found', texts.sender.deliveryNotFound);
  return id;
}

/** Deliveries of a gift link, all scoped to the sender's session. */
export function deliveriesRoutes(app: FastifyInstance, opts: { service: DeliveriesService; requireSender: RequireSender }, done: (err?: Error) => void) {
  const { service, requireSender } = opts;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = { preValidation: requireSender.hook };

  api.post(
    API.scheduledMessages,
    { ...signedIn, schema: { tags, summary: 'Schedule the gift link to go out at an instant', body: ScheduleRequest } },
    async (request) => service.schedule(await requireSender(request), request.body),
  );

  api.post(
    API.sendNow,
    { ...signedIn, schema: { tags, summary: 'Send the gift link now', body: SendNowRequest } },
    async (request) => ({ success: true, delivery: await service.sendNow(await requireSender(request), request.body) }),
  );

  api.get(
    API.scheduledMessages,
    { ...signedIn, schema: { tags, summary: 'A gift’s deliveries, and whether WhatsApp is offered', querystring: DeliveriesQuery } },
    async (request) => service.list(await requireSender(request), request.query.giftId),
  );

  api.patch(
    API.scheduledMessage(':id'),
    { ...signedIn, schema: { tags, summary: 'Change a delivery’s instant or contact (pending or failed)', params: DeliveryParams, body: ChangeDeliveryRequest } },
    async (request) => {
      const id = deliveryId(request.params.id);
      return { success: true, delivery: await service.change(await requireSender(request), id, request.body) };
    },
  );

  api.delete(
    API.scheduledMessage(':id'),
    { ...signedIn, schema: { tags, summary: 'Cancel a delivery not yet sent', params: DeliveryParams } },
    async (request) => {
      const id = deliveryId(request.params.id);
      return { success: true, delivery: await service.cancel(await requireSender(request), id) };
    },
  );
  done();
}
