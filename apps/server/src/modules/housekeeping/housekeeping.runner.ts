import type { HousekeepingLog, HousekeepingReport } from './housekeeping.service.ts';

export interface HousekeepingRunnerOptions {
  run: (signal: AbortSignal) => Promise<HousekeepingReport>;
  log: HousekeepingLog;
  /** The first run, shortly after start (not during it, while the server is still warming up). */
  firstDelayMs?: number;
  intervalMs?: number;
}

/**
 * Runs housekeeping once shortly after start and then every interval. A tick while a run is still going is
 * skipped, the timers never keep the process alive, and stop() ends the current run between batches.
 */
export function startHousekeeping({
  run,
  log,
  firstDelayMs = 60_000,
  intervalMs = 60 * 60 * 1000,
}: HousekeepingRunnerOptions) {
  const stopping = new AbortController();
  let current: Promise<void> | null = null;

  function tick(): Promise<void> {
    if (stopping.signal.aborted) return Promise.resolve();
    if (current) {
      log.info({}, 'housekeeping: previous run still going, skipped');
      return current;
    }
    const started = Date.now();
    current = run(stopping.signal)
      .then((report) => log.info({ ...report, ms: Date.now() - started }, 'housekeeping: done'))
      .catch((err: unknown) => log.error({ err }, 'housekeeping: run failed'))
      .finally(() => {
        current = null;
      });
    return current;
  }

  const first = setTimeout(() => void tick(), firstDelayMs).unref();
  const every = setInterval(() => void tick(), intervalMs).unref();

  return {
    /** Starts a run now unless one is going (for tests and operators). */
    tick,
    /** Clears the timers and waits for a run in progress to reach its next batch boundary. */
    async stop(): Promise<void> {
      clearTimeout(first);
      clearInterval(every);
      stopping.abort();
      await current;
    },
  };
}

export type HousekeepingRunner = ReturnType<typeof startHousekeeping>;
