import { API } from '@giftlens/contract/routes';
import type { FastifyInstance } from 'fastify';
import { countryFromHeaders } from './geo.service.ts';

export function geoRoutes(app: FastifyInstance, opts: { trustProxy: boolean }) {
  app.get(API.geo, { schema: { tags: ['plans'], summary: 'The visitor’s country, from a trusted proxy header' } }, (request, reply) => {
    reply.header('cache-control', 'private, no-store');
    return countryFromHeaders(request.headers, opts.trustProxy);
  });
}
