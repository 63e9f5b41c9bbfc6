import { PlansQuery } from '@giftlens/contract/plans-api';
import { API } from '@giftlens/contract/routes';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { plansForCountry } from './plans.service.ts';

// An empty ?country= means "not known yet": the default (US) list.
const Query = z.object({ country: z.preprocess((v) => (v === '' ? undefined : v), PlansQuery.shape.country) });

export function plansRoutes(app: FastifyInstance) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(API.plans, { schema: { tags: ['plans'], summary: 'The plans and prices for a country', querystring: Query } }, (request) => ({
      success: true,
      ...plansForCountry(request.query.country),
    }));
}
