import { PlansQuery } from '@giftlens/contract/plans-api';
import { API } from '@giftlens/contract/routes';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { plansForCountry } from './plans.service.ts';

// An empty ?country= means "not known yet": the default (US) list.
const Query = z.object({ country: z.preprocess((v) => (v === '' ? undefined : v), PlansQuery.shape.country) });

export function plansRoutes(app: FastifyInstance, _opts: object, done: (err?: Error) => void) {
  // The plans are constants of the contract: each region's answer is serialized once (the landing and pricing
  // pages ask on every visit; decision 027).
  const answers = new Map<string, string>();
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(API.plans, { schema: { tags: ['plans'], summary: 'The plans and prices for a country', querystring: Query } }, (request, reply) => {
      const { region, plans, scanTopUp } = plansForCountry(request.query.country);
      let body = answers.get(region);
      if (body === undefined) answers.set(region, (body = JSON.stringify({ success: true, region, plans, scanTopUp })));
      return reply.type('application/json; charset=utf-8').send(body);
    });
  done();
}
