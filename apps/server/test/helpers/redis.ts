import { Redis } from 'ioredis';

/** The Redis the tests use (TEST_REDIS_URL), and whether CI requires it (REQUIRE_REDIS=1: no skipping). */
export const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
export const REQUIRE_REDIS = process.env.REQUIRE_REDIS === '1';

/** Null when Redis answers a PING; else why not. */
export async function probeRedis(): Promise<string | null> {
  const client = new Redis(REDIS_URL, { connectTimeout: 1000, maxRetriesPerRequest: 0, lazyConnect: true });
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    client.disconnect();
  }
}

/** Why the Redis tests are skipped (null: they run); under REQUIRE_REDIS they never are, and fail instead. */
export const redisProblem = REQUIRE_REDIS ? null : await probeRedis();
if (redisProblem) console.log(`Redis not reachable at ${REDIS_URL} (${redisProblem}): skipping the Redis tests.`);
