import { PlansQuery } from '@giftlens/contract/plans-api';
import { API } from '@giftlens/contract/routes';
import type { FastifyInstance } from 'fastify';
import { parse } from '../../lib/http.ts';
import { plansForCountry } from './plans.service.ts';

export function plansRoutes(app: FastifyInstance) {
  app.get(API.plans, (request) => {
    const { country } = parse(PlansQuery, request.query);
    return { success: true, ...plansForCountry(country) };
  });
}
