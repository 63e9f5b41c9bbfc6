import { PlansQuery } from '@giftlens/contract/plans-api';
import { API } from '@giftlens/contract/routes';
import type { FastifyInstance } from 'fastify';
import { parse } from '../../lib/http.ts';
import { plansForCountry } from './plans.service.ts';

export function plansRoutes(app: FastifyInstance) {
  app.get(API.plans, (request) => {
    const raw = request.query as Record<string, unknown>;
    // An empty ?country= means "not known yet": the default (US) list.
    const { country } = parse(PlansQuery, { ...raw, country: raw.country === '' ? undefined : raw.country });
    return { success: true, ...plansForCountry(country) };
  });
}
