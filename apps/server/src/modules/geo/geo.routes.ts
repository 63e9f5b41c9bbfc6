import { API } from '@giftlens/contract/routes';
import type { FastifyInstance } from 'fastify';
import type { IpCountry } from '../../adapters/ip-country.ts';
import { visitorCountry } from './geo.service.ts';

export function geoRoutes(app: FastifyInstance, opts: { trustProxy: boolean; ipCountry: () => IpCountry }, done: (err?: Error) => void) {
  app.get(
    API.geo,
    { schema: { tags: ['plans'], summary: 'The visitor’s country: a trusted proxy’s header, else the embedded IP-to-country table' } },
    (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return visitorCountry(request.headers, request.ip, opts.trustProxy, opts.ipCountry());
    },
  );
  done();
}
