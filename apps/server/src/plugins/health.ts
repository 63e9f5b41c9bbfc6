import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Mailer } from '../adapters/mail.ts';
import type { MediaStorage } from '../adapters/media-storage.ts';
import type { RateLimitStore } from '../adapters/rate-limit-store.ts';
import type { Db } from '../db/database.ts';

export interface HealthOptions {
  db: Db;
  media: MediaStorage;
  mailer: Mailer;
  rateLimitStore: RateLimitStore;
}

/**
 * Health for monitoring (database, media storage and mail: 503 naming what does not answer), readiness for a load
 * balancer (database and storage only: a mail relay outage must not take every node out of rotation; mail waits in
 * the job queue), and liveness (the process answers).
 * Redis, when configured, is reported by both as 'ok' (the limits are shared) or 'degraded' (it does not answer, and
 * each node enforces every limit in its own memory). Monitoring gets a 503, someone should look; readiness stays
 * 200: Redis is shared, so its outage would take every node out of rotation at once, and a node still serves safely.
 */
export function healthRoutes(app: FastifyInstance, { db, media, mailer, rateLimitStore: store }: HealthOptions, done: (err?: Error) => void) {
  const probe = (check: () => Promise<unknown>) =>
    Promise.race([
      check().then(() => 'ok' as const),
      new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 3000).unref()),
    ]).catch(() => 'unreachable' as const);
  const serving = () => Promise.all([probe(() => sql`select 1`.execute(db)), probe(() => media.check())]);
  const redisState = (mode: 'shared' | 'local') => (mode === 'shared' ? ('ok' as const) : ('degraded' as const));
  app.get(
    '/api/health',
    { schema: { tags: ['operations'], summary: 'Whether the database, media storage, mail and Redis (when set) are reachable' } },
    async (_request, reply) => {
      const [[database, storage], mail, redisAnswers] = await Promise.all([
        serving(),
        probe(() => mailer.check()),
        // A PING (at most the command timeout): its answer also switches the limits back to shared, or to local.
        store.kind === 'redis' ? store.check() : null,
      ]);
      const redis = redisAnswers === null ? null : redisState(redisAnswers ? 'shared' : 'local');
      const healthy = database === 'ok' && storage === 'ok' && mail === 'ok' && (redis === null || redis === 'ok');
      reply.code(healthy ? 200 : 503);
      return { success: healthy, database, storage, mail, ...(redis === null ? {} : { redis }) };
    },
  );
  app.get(
    '/api/health/ready',
    { schema: { tags: ['operations'], summary: 'Whether this node can serve: its database and media storage answer' } },
    async (_request, reply) => {
      const [database, storage] = await serving();
      const ready = database === 'ok' && storage === 'ok';
      reply.code(ready ? 200 : 503);
      // No Redis round trip per probe: the state its last command or PING left (a PING every 10 s).
      return { success: ready, database, storage, ...(store.kind === 'redis' ? { redis: redisState(store.mode()) } : {}) };
    },
  );
  app.get('/api/health/live', { schema: { tags: ['operations'], summary: 'Whether the process answers' } }, () => ({
    success: true,
  }));
  done();
}
