import type { Clock } from '../../adapters/clock.ts';
import type { Db } from '../../db/database.ts';
import { HOUSEKEEPING_JOB_KEY } from '../../jobs/keys.ts';
import { ensureRecurringJob } from '../../jobs/queue.ts';
import type { JobHandler } from '../../jobs/runner.ts';
import { type HousekeepingLog, type HousekeepingService, leftTotal } from './housekeeping.service.ts';

export const HOUSEKEEPING_INTERVAL_MS = 60 * 60 * 1000;
/** The first run after a fresh start waits a minute, so it does not compete with the server warming up. */
export const HOUSEKEEPING_FIRST_DELAY_MS = 60 * 1000;
/** A run that spent its budget with work left is followed by another this soon (decision 044). */
export const HOUSEKEEPING_FOLLOW_UP_MS = 60 * 1000;

/**
 * Housekeeping as one recurring job: whichever worker claims it runs it, so it never runs twice at once. Hourly, or a
 * minute after a run that left work for later.
 */
export function housekeepingJob({
  service,
  clock,
  log,
}: {
  service: HousekeepingService;
  clock: Clock;
  log: HousekeepingLog;
}): JobHandler<'housekeeping'> {
  return {
    async run(_payload, ctx) {
      const started = Date.now();
      const report = await service.run(ctx.signal);
      const left = leftTotal(report);
      log.info({ ...report, ms: Date.now() - started }, left > 0 ? `housekeeping: done for now, ${left} left` : 'housekeeping: done');
      // Work left (a backlog, or an inflow faster than one run a hour takes): the next run comes in a minute.
      return { rescheduleAt: new Date(clock.now().getTime() + (left > 0 ? HOUSEKEEPING_FOLLOW_UP_MS : HOUSEKEEPING_INTERVAL_MS)) };
    },
  };
}

export function scheduleHousekeeping(db: Db, clock: Clock): Promise<void> {
  const now = clock.now();
  return ensureRecurringJob(db, now, 'housekeeping', {}, HOUSEKEEPING_JOB_KEY, new Date(now.getTime() + HOUSEKEEPING_FIRST_DELAY_MS));
}
