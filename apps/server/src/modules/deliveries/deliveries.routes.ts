import { API } from '@giftlens/contract/routes';
import { ScheduleRequest } from '@giftlens/contract/scheduling';
import type { FastifyInstance } from 'fastify';
import { parse, type RequireSender } from '../../lib/http.ts';
import type { DeliveriesService } from './deliveries.service.ts';

export function deliveriesRoutes(
  app: FastifyInstance,
  opts: { service: DeliveriesService; requireSender: RequireSender },
) {
  app.post(API.scheduledMessages, async (request) => {
    const sender = await opts.requireSender(request);
    return opts.service.schedule(sender, parse(ScheduleRequest, request.body));
  });
}
