import { PushSubscriptionBody, PushUnsubscribeBody } from '@giftlens/contract/push';
import { M } from '@giftlens/contract/messages';
import { API } from '@giftlens/contract/routes';
import type { FastifyInstance } from 'fastify';
import { parse, type RequireSender } from '../../lib/http.ts';
import type { PushService } from './push.service.ts';

/** The VAPID key for the browser, and the signed-in sender's devices that want notices. */
export function pushRoutes(
  app: FastifyInstance,
  opts: { service: PushService; publicKey: string; requireSender: RequireSender },
) {
  app.get(API.pushPublicKey, () => ({ success: true, publicKey: opts.publicKey }));

  app.post(API.pushSubscribe, async (request) => {
    const sender = await opts.requireSender(request);
    await opts.service.subscribe(sender, parse(PushSubscriptionBody, request.body, M.pushSubscriptionInvalid));
    return { success: true };
  });

  app.post(API.pushUnsubscribe, async (request) => {
    const sender = await opts.requireSender(request);
    await opts.service.unsubscribe(sender, parse(PushUnsubscribeBody, request.body, M.pushSubscriptionInvalid).endpoint);
    return { success: true };
  });
}
