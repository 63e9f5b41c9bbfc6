import { API } from '@giftlens/contract/routes';
import {
  ChangeDeliveryRequest,
  DeliveriesQuery,
  ScheduleRequest,
  SendNowRequest,
} from '@giftlens/contract/scheduling';
import { M } from '@giftlens/contract/messages';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { parse, type RequireSender } from '../../lib/http.ts';
import type { DeliveriesService } from './deliveries.service.ts';

/** Delivery ids are 32 hex characters; anything else is as unknown as a missing one. */
function deliveryId(params: unknown): string {
  const id = (params as { id?: unknown }).id;
  if (typeof id !== 'string' || !/^[0-9a-f]{32}$/.test(id)) throw new AppError(404, 'delivery_not_found', M.deliveryNotFound);
  return id;
}

/** Deliveries of a gift link, all scoped to the sender's session. */
export function deliveriesRoutes(app: FastifyInstance, opts: { service: DeliveriesService; requireSender: RequireSender }) {
  const { service, requireSender } = opts;

  app.post(API.scheduledMessages, async (request) => {
    const sender = await requireSender(request);
    return service.schedule(sender, parse(ScheduleRequest, request.body));
  });

  app.post(API.sendNow, async (request) => {
    const sender = await requireSender(request);
    return { success: true, delivery: await service.sendNow(sender, parse(SendNowRequest, request.body)) };
  });

  app.get(API.scheduledMessages, async (request) => {
    const sender = await requireSender(request);
    return service.list(sender, parse(DeliveriesQuery, request.query).giftId);
  });

  app.patch(API.scheduledMessage(':id'), async (request) => {
    const sender = await requireSender(request);
    const id = deliveryId(request.params);
    return { success: true, delivery: await service.change(sender, id, parse(ChangeDeliveryRequest, request.body)) };
  });

  app.delete(API.scheduledMessage(':id'), async (request) => {
    const sender = await requireSender(request);
    const id = deliveryId(request.params);
    return { success: true, delivery: await service.cancel(sender, id) };
  });
}
