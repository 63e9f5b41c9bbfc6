import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.ts';
import { bearerMatches, type Metrics } from '../lib/metrics.ts';

export interface MetricsPluginOptions {
  metrics: Metrics;
  /** METRICS_TOKEN: the bearer token a scrape must carry. */
  token: string;
}

/** Where Prometheus scrapes; never in the API reference. */
export const METRICS_PATH = '/metrics';

/**
 * [root] Registered only with METRICS_TOKEN set (without it, /metrics is the 404 of any unknown path and no request
 * is measured). Every answered request is observed in `http_request_duration_seconds` by its route's pattern
 * (`/api/gifts/:giftId`, never the URL; `unmatched` for the 404 of no route) in one synchronous onResponse hook:
 * Fastify's own elapsed time, one histogram observation. `GET /metrics` answers the exposition to the right bearer
 * token (401 otherwise), uncached, without a rate limit (a scrape every 15 s must never be refused).
 */
export const metricsPlugin = fp(
  function metricsPlugin(app: FastifyInstance, { metrics, token }: MetricsPluginOptions, done: (err?: Error) => void) {
    app.addHook('onResponse', (request, reply, hookDone) => {
      metrics.request(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
      hookDone();
    });
    app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (!bearerMatches(request.headers.authorization, token)) {
        reply.header('www-authenticate', 'Bearer');
        throw new AppError(401, 'metrics_unauthorized', 'Scraping needs Authorization: Bearer with METRICS_TOKEN');
      }
      const body = await metrics.scrape();
      reply.type(metrics.contentType);
      return body;
    });
    done();
  },
  { name: 'giftlens-metrics' },
);
