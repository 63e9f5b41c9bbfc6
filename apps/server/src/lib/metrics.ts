import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The jobs table as the gauges read it at scrape time (jobs/job-gauges.ts). */
export interface JobGaugeReading {
  /** Jobs by kind in each waiting or failed state (done and cancelled ones are history), each state capped. */
  counts: { kind: string; status: string; count: number }[];
  /** Seconds the oldest due job has been due and not claimed (0: none). */
  oldestDueLagSeconds: number;
}

/** What the gauges read at scrape time; each is set by whoever builds the thing it reads (composition). */
export interface MetricSources {
  jobs?: () => Promise<JobGaugeReading>;
  /** Scans and frames waiting for a matcher worker (recogniser.waiting). */
  matcherWaiting?: () => number;
  /** 1 while Redis answers and the limits are shared, 0 while each process counts them alone; unset: no Redis. */
  rateLimitStoreShared?: () => number;
}

export type JobOutcomeLabel = 'done' | 'rescheduled' | 'retry' | 'dead';
export type ScanOutcomeLabel = 'matched' | 'no_match' | 'unreadable' | 'busy' | 'error';
export type LiveRefusal = 'rate' | 'budget' | 'busy';

/** Seconds: an API call (5 ms … 10 s). */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: a job, from a mail (tens of ms) to a render (minutes; RENDER_CPU_SECONDS allows an hour). */
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600];
/** Seconds: one match on a worker (~75 ms idle, decision 045), and the p99 alert's 1 s. */
const MATCH_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * The Prometheus metrics of one process (an API node or a worker), in a registry of its own: two apps in one test
 * process never share a series. Counters and histograms are moved by the code that does the work (through the
 * observers below, handed over at composition); gauges read their source when scraped.
 */
export function createMetrics() {
  const registry = new Registry();
  const sources: MetricSources = {};
  // Process CPU, memory, heap, event-loop delay, GC: read at scrape time (the event-loop monitor samples every 10 ms).
  collectDefaultMetrics({ register: registry });
  /** One read of the jobs table per scrape, shared by its two gauges (the registry collects them concurrently). */
  let jobsReading: Promise<JobGaugeReading | null> | null = null;
  const readJobs = () => (jobsReading ??= sources.jobs ? sources.jobs() : Promise.resolve(null));

  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern (unmatched: no route) and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });

  new Gauge({
    name: 'giftlens_jobs',
    help: 'Jobs in the table by kind and state (queued, running, dead), each state counted up to 10000',
    labelNames: ['kind', 'status'] as const,
    registers: [registry],
    async collect() {
      const reading = await readJobs();
      this.reset();
      for (const { kind, status, count } of reading?.counts ?? []) this.set({ kind, status }, count);
    },
  });
  new Gauge({
    name: 'giftlens_jobs_oldest_due_lag_seconds',
    help: 'How long the oldest due job has waited to be claimed (0: none waits)',
    registers: [registry],
    async collect() {
      this.set((await readJobs())?.oldestDueLagSeconds ?? 0);
    },
  });
  const jobDuration = new Histogram({
    name: 'giftlens_job_duration_seconds',
    help: 'Job runs by kind (renders are the *.render kinds) and outcome (done, rescheduled, retry, dead)',
    labelNames: ['kind', 'outcome'] as const,
    buckets: JOB_BUCKETS,
    registers: [registry],
  });
  const jobWait = new Histogram({
    name: 'giftlens_job_wait_seconds',
    help: 'How long a job waited after it was due before it ran, by kind',
    labelNames: ['kind'] as const,
    buckets: JOB_BUCKETS,
    registers: [registry],
  });

  const scans = new Counter({
    name: 'giftlens_scans_total',
    help: 'Matches asked of the matcher by kind (scan: process-scan and the demo; live: live frames) and outcome',
    labelNames: ['kind', 'outcome'] as const,
    registers: [registry],
  });
  const matchDuration = new Histogram({
    name: 'giftlens_matcher_seconds',
    help: 'Time of a match that ran (queue wait included), by kind',
    labelNames: ['kind'] as const,
    buckets: MATCH_BUCKETS,
    registers: [registry],
  });
  new Gauge({
    name: 'giftlens_matcher_waiting',
    help: 'Scans and frames waiting for a matcher worker in this process',
    registers: [registry],
    collect() {
      this.set(sources.matcherWaiting?.() ?? 0);
    },
  });
  const liveRefused = new Counter({
    name: 'giftlens_live_frames_refused_total',
    help: 'Live frames refused, by reason (rate: per second per client; budget: per target or client in the window; busy: the matcher had a queue)',
    labelNames: ['reason'] as const,
    registers: [registry],
  });

  const mails = new Counter({
    name: 'giftlens_mails_total',
    help: 'Mails handed to the relay (or the outbox), by result (sent, failed)',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const pushes = new Counter({
    name: 'giftlens_pushes_total',
    help: 'Web Push notices, by result (sent; gone: the subscription expired; failed)',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'giftlens_rate_limit_store_shared',
    help: 'With REDIS_URL: 1 while Redis answers (limits shared), 0 while it does not (each process counts alone)',
    registers: [registry],
    collect() {
      this.reset();
      if (sources.rateLimitStoreShared) this.set(sources.rateLimitStoreShared());
    },
  });
  for (const result of ['sent', 'failed']) mails.inc({ result }, 0);
  for (const result of ['sent', 'gone', 'failed']) pushes.inc({ result }, 0);
  for (const reason of ['rate', 'budget', 'busy']) liveRefused.inc({ reason }, 0);

  return {
    registry,
    /** Sets what the gauges read (composition: the jobs table, the matcher, the rate-limit store). */
    watch(given: MetricSources): void {
      Object.assign(sources, given);
    },
    /** One request answered: `route` is the route's pattern, never the URL. */
    request(method: string, route: string, statusCode: number, seconds: number): void {
      httpDuration.observe({ method, route, status_code: statusCode }, seconds);
    },
    /** The job runner's observer (runner.ts JobObserver). */
    jobs: {
      finished(kind: string, outcome: JobOutcomeLabel, ms: number, waitedMs?: number): void {
        jobDuration.observe({ kind, outcome }, ms / 1000);
        if (waitedMs !== undefined) jobWait.observe({ kind }, waitedMs / 1000);
      },
    },
    scan(kind: 'scan' | 'live', outcome: ScanOutcomeLabel, ms?: number): void {
      scans.inc({ kind, outcome });
      if (ms !== undefined) matchDuration.observe({ kind }, ms / 1000);
    },
    /** A live frame refused (an arrow: handed to the live-frames service and the admission hook alone). */
    liveFrameRefused: (reason: LiveRefusal): void => {
      liveRefused.inc({ reason });
    },
    mail(result: 'sent' | 'failed'): void {
      mails.inc({ result });
    },
    push(result: 'sent' | 'gone' | 'failed'): void {
      pushes.inc({ result });
    },
    contentType: registry.contentType,
    /** The text exposition (gauges read their sources now). */
    scrape: async (): Promise<string> => {
      jobsReading = null;
      try {
        return await registry.metrics();
      } finally {
        jobsReading = null;
      }
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** `Authorization: Bearer <token>`, compared in constant time (a wrong length is refused without comparing bytes). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice('Bearer '.length).trim());
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * A worker's own listener (METRICS_PORT): `GET /metrics` with the bearer token, as an API node answers it on its port;
 * 401 without it, 404 for any other path. Resolves once listening (rejects when the port is taken).
 */
export async function serveMetrics(metrics: Metrics, { host, port, token }: { host: string; port: number; token: string }): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"success":false,"error":"Not found","code":"not_found"}');
      return;
    }
    if (!bearerMatches(req.headers.authorization, token)) {
      res
        .writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer', 'cache-control': 'no-store' })
        .end('{"success":false,"error":"Scraping needs Authorization: Bearer with METRICS_TOKEN","code":"metrics_unauthorized"}');
      return;
    }
    metrics.scrape().then(
      (body) => res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : body),
      () => res.writeHead(500, { 'content-type': 'application/json' }).end('{"success":false,"error":"Metrics could not be read","code":"internal"}'),
    );
  });
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
