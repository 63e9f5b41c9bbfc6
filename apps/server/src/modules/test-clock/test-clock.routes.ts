import type { FastifyInstance } from 'fastify';
import { BlockList, isIPv6 } from 'node:net';
import { texts } from '@giftlens/contract/texts';
import { z } from 'zod';
import type { AdjustableClock } from '../../adapters/clock.ts';
import { AppError } from '../../lib/errors.ts';

/** Where the browser tests move the server's clock; registered only on a server started with TEST_CLOCK=1. */
export const TEST_CLOCK_PATH = '/api/test/clock';

const LOOPBACK = (() => {
  const list = new BlockList();
  list.addSubnet('127.0.0.0', 8, 'ipv4');
  list.addAddress('::1', 'ipv6');
  list.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');
  return list;
})();

const AdvanceRequest = z.object({ to: z.iso.datetime({ offset: true }) });

/**
 * POST /api/test/clock `{ to }`: the server's clock (and its in-process job runner's) jumps forward to that instant,
 * and the runner looks for due jobs at once. Answers the clock's new time. config.ts allows TEST_CLOCK only where the
 * test checkout is on for a loopback origin (the server then listens on loopback only); the call is refused from
 * any other peer all the same. Not in the API reference.
 */
export function testClockRoutes(
  app: FastifyInstance,
  deps: { clock: AdjustableClock; wakeJobs?: () => void },
  done: (err?: Error) => void,
): void {
  app.post(TEST_CLOCK_PATH, { schema: { hide: true, body: AdvanceRequest } }, (request) => {
    const peer = request.socket.remoteAddress ?? '';
    if (!LOOPBACK.check(peer, isIPv6(peer) ? 'ipv6' : 'ipv4')) throw new AppError(403, 'test_clock_loopback_only', texts.sender.generic);
    const { to } = AdvanceRequest.parse(request.body);
    const now = deps.clock.advanceTo(new Date(to));
    deps.wakeJobs?.();
    return { success: true, now: now.toISOString() };
  });
  done();
}
