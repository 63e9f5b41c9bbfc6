import { texts } from '@giftlens/contract/texts';
import { PushSubscriptionBody, PushUnsubscribeBody } from '@giftlens/contract/push';
import { API } from '@giftlens/contract/routes';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RequireSender } from '../sender-auth/sender-session.ts';
import type { PushService } from './push.service.ts';

const tags = ['notifications'];

/** The VAPID key for the browser, and the signed-in sender's devices that want notices. */
export function pushRoutes(
  app: FastifyInstance,
  opts: { service: PushService; publicKey: string; requireSender: RequireSender },
  done: (err?: Error) => void,
) {
  const { service, requireSender } = opts;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = { preValidation: requireSender.hook, config: { validationFallback: texts.sender.pushSubscriptionInvalid } };

  api.get(API.pushPublicKey, { schema: { tags, summary: 'The VAPID application server key' } }, () => ({
    success: true,
    publicKey: opts.publicKey,
  }));

  api.post(
    API.pushSubscribe,
    { ...signedIn, schema: { tags, summary: 'Store this device’s push subscription for the sender', body: PushSubscriptionBody } },
    async (request) => {
      await service.subscribe(await requireSender(request), request.body);
      return { success: true };
    },
  );

  api.post(
    API.pushUnsubscribe,
    { ...signedIn, schema: { tags, summary: 'Forget this device’s push subscription', body: PushUnsubscribeBody } },
    async (request) => {
      await service.unsubscribe(await requireSender(request), request.body.endpoint);
      return { success: true };
    },
  );
  done();
}
