/** Worker-thread entry of the matcher pool: runs enrol/match/lookalike in-thread and posts results back. */
import { parentPort, workerData } from 'node:worker_threads';
import sharp from 'sharp';
import { loadCv } from './cv.ts';
import { orbModel } from './describe.ts';
import { CONFIG } from './config.ts';
import { match } from './engine.ts';
import { enrol } from './enrol.ts';
import { matchesAny } from './quality.ts';
import { MatcherError } from './errors.ts';

/**
 * A match names its references by bytes (cloned, not kept) or by key: the worker's cache holds keyed bytes, the
 * pool decides what it holds (`provide` adds, `evict` drops; pool.ts keeps the same list per worker). A key the
 * cache lacks all the same is asked for (`need`); the pool answers with `provide` for the same id.
 */
export type WorkerRequest =
  | { id: number; op: 'enrol'; image: Uint8Array }
  | {
      id: number;
      op: 'match';
      image: Uint8Array;
      references: (Uint8Array | string)[][];
      provide?: [string, Uint8Array][];
      evict?: string[];
    }
  | { id: number; op: 'provide'; provide: [string, Uint8Array][]; evict?: string[] }
  | { id: number; op: 'lookalike'; reference: Uint8Array; others: Uint8Array[] };

export type WorkerResponse =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { name: string; message: string; code?: string }; retire?: boolean }
  | { id: number; need: string[] };

// One libvips thread per worker: the pool already runs one worker per core.
sharp.concurrency(1);
sharp.cache(false);

const port = parentPort;
if (!port) throw new Error('worker.ts must run in a worker thread');

// the pool's `config` option (benchmarks only)
Object.assign(CONFIG, (workerData as { config?: Partial<typeof CONFIG> } | null)?.config ?? {});

// Warm up OpenCV, and check the descriptor stage against it (describe.ts), before the first request arrives.
void loadCv().then((cv) => orbModel(cv));

/** Keyed reference bytes this worker holds (what the pool sent and has not told it to drop). */
const cache = new Map<string, Uint8Array>();
/** A match waiting for bytes it asked for. */
let waiting: (WorkerRequest & { op: 'match' }) | undefined;

function keep(req: { provide?: [string, Uint8Array][]; evict?: string[] }): void {
  for (const k of req.evict ?? []) cache.delete(k);
  for (const [k, b] of req.provide ?? []) cache.set(k, b);
}

/** The match's references as bytes, or the keys this worker lacks. */
function resolve(req: WorkerRequest & { op: 'match' }): Uint8Array[][] | string[] {
  const need: string[] = [];
  const refs = req.references.map((gift) =>
    gift.map((r) => {
      if (typeof r !== 'string') return r;
      const b = cache.get(r);
      if (!b) need.push(r);
      return b!;
    }),
  );
  return need.length > 0 ? need : refs;
}

port.on('message', (msg: WorkerRequest) => {
  let req = msg;
  if (msg.op === 'match' || msg.op === 'provide') {
    keep(msg);
    // a new match means the pool gave up on the one that waited (its bytes could not be loaded)
    if (msg.op === 'match') waiting = undefined;
    if (msg.op === 'provide') {
      if (!waiting || waiting.id !== msg.id) return;
      req = waiting;
      waiting = undefined;
    }
  }
  void (async () => {
    let res: WorkerResponse;
    try {
      let value: unknown;
      if (req.op === 'enrol') value = await enrol(req.image);
      else if (req.op === 'match') {
        const refs = resolve(req);
        if (typeof refs[0] === 'string') {
          waiting = req;
          port.postMessage({ id: req.id, need: refs as string[] } satisfies WorkerResponse);
          return;
        }
        value = await match(req.image, refs as Uint8Array[][]);
      } else if (req.op === 'lookalike') value = matchesAny(req.reference, req.others);
      res = { id: req.id, ok: true, value };
    } catch (err) {
      const e = err instanceof Error ? err : new Error(String(err));
      res = {
        id: req.id,
        ok: false,
        error: { name: e.name, message: e.message, ...(err instanceof MatcherError ? { code: err.code } : {}) },
        // anything but our own refusal may have left OpenCV's WebAssembly memory in a bad state: replace this worker
        ...(err instanceof MatcherError ? {} : { retire: true }),
      };
    }
    if (res.ok && req.op === 'enrol') {
      const v = res.value as { reference: Uint8Array };
      port.postMessage(res, [v.reference.buffer as ArrayBuffer]);
    } else port.postMessage(res);
  })();
});
