/** Worker-thread entry of the matcher pool: runs enrol/match/lookalike in-thread and posts results back. */
import { parentPort, workerData } from 'node:worker_threads';
import sharp from 'sharp';
import { loadCv } from './cv.ts';
import { orbModel } from './describe.ts';
import { CONFIG, enrol, match } from './engine.ts';
import { matchesAny } from './quality.ts';
import { MatcherError } from './errors.ts';

export type WorkerRequest =
  | { id: number; op: 'enrol'; image: Uint8Array }
  | { id: number; op: 'match'; image: Uint8Array; references: Uint8Array[][] }
  | { id: number; op: 'lookalike'; reference: Uint8Array; others: Uint8Array[] };

export type WorkerResponse =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { name: string; message: string; code?: string }; retire?: boolean };

// One libvips thread per worker: the pool already runs one worker per core.
sharp.concurrency(1);
sharp.cache(false);

const port = parentPort;
if (!port) throw new Error('worker.ts must run in a worker thread');

// the pool's `config` option (benchmarks only)
Object.assign(CONFIG, (workerData as { config?: Partial<typeof CONFIG> } | null)?.config ?? {});

// Warm up OpenCV, and check the descriptor stage against it (describe.ts), before the first request arrives.
void loadCv().then((cv) => orbModel(cv));

port.on('message', (req: WorkerRequest) => {
  void (async () => {
    let res: WorkerResponse;
    try {
      const value =
        req.op === 'enrol' ? await enrol(req.image) : req.op === 'match' ? await match(req.image, req.references) : matchesAny(req.reference, req.others);
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
