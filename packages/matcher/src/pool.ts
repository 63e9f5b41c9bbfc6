/**
 * A worker-thread pool running enrol/match off the main event loop, one worker per core by default.
 * Works whether the parent runs under tsx, vitest or plain node: the worker entry is plain JS that registers tsx's
 * loader and then imports the TypeScript worker.
 *
 * What the main thread does per scan is what bounds one process (decision 045), so it does little:
 * - the photo is copied once into a buffer of the pool's own and transferred (never the caller's buffer);
 * - references given by key (`KeyedReference`) are kept in the workers: each worker holds a cache of reference bytes
 *   by key, and the pool keeps, per worker, the list of what that worker holds (least recently used first, bounded
 *   in bytes: `cacheBytes`). A scan sends the photo and the keys, plus the bytes of only those keys its worker lacks
 *   and the keys it must drop. Bytes the pool loaded itself (`ReferenceLoader`) are transferred, bytes the caller
 *   handed in are copied first (the caller may keep using them);
 * - among idle workers, a scan goes to the one already holding most of its references' bytes;
 * - a worker that lacks a key all the same (its cache went with a restart the pool did not see) asks for it, and the
 *   pool sends it, so the answer never depends on the cache;
 * - the answer is a few numbers.
 * References given as plain Uint8Arrays are cloned into the worker with every scan, as before (not cached).
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CONFIG } from './config.ts';
import type { enrol as enrolFn, EnrolResult } from './enrol.ts';
import type { MatchDecision } from './engine.ts';
import { MatcherError, type MatcherErrorCode } from './errors.ts';
import type { WorkerRequest, WorkerResponse } from './worker.ts';

/**
 * Threads in libuv's threadpool: one per process, shared by the main thread and every worker thread, and where
 * sharp decodes and resizes each scan's photo (decision 045). Read from UV_THREADPOOL_SIZE at process start (libuv's
 * default 4); setting it inside the process is too late.
 */
export const threadpoolSize = (): number => Math.max(1, Math.min(1024, Math.floor(Number(process.env.UV_THREADPOOL_SIZE)) || 4));

/** The threadpool a process with a pool of `size` workers wants: one thread per worker's decode, plus libuv's 4. */
export const threadpoolWanted = (size: number): number => size + 4;

/** Reference bytes a worker keeps by default: about 560 references of 56 KB (190 gifts of 3 photos) per worker. */
export const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;

export interface MatcherPoolOptions {
  /** number of worker threads; default: the number of cores */
  size?: number;
  /**
   * engine settings to override in the workers (benchmarks comparing recipes in one run); the server never sets it.
   * Settings of the reference side must stay as enrolled, or stored references stop matching.
   */
  config?: Partial<typeof CONFIG>;
  /** bytes of keyed references each worker keeps (least recently used dropped first); default DEFAULT_CACHE_BYTES */
  cacheBytes?: number;
}

/**
 * Gives the bytes of keys a worker lacks (and the caller did not hand in); a scan's references that share one loader
 * are loaded in one call. The pool takes ownership: a buffer that is the whole of its ArrayBuffer is transferred to
 * the worker (detached here), so return fresh buffers only, never ones kept elsewhere.
 */
export type ReferenceLoader = (keys: string[]) => Promise<Map<string, Uint8Array>>;

/**
 * An enrolled reference by name. `key` must name these exact bytes for good: bytes that change get a new key (the
 * server names a photo's features by its id and the recipe that enrolled them, decision 053). `bytes`, when the
 * caller has them at hand, are copied (never transferred: the caller keeps them) when a worker lacks the key; without
 * them `load` is asked.
 */
export interface KeyedReference {
  key: string;
  bytes?: Uint8Array;
  load?: ReferenceLoader;
}

/** A candidate's reference: its bytes (cloned into the worker on every scan) or a key the workers may keep. */
export type ReferenceInput = Uint8Array | KeyedReference;

export interface PoolStats {
  /** scans (match calls) answered */
  scans: number;
  /** keyed references a scan found in its worker, and those whose bytes had to be sent (misses) */
  hits: number;
  misses: number;
  /** misses the worker itself reported (its cache was gone without the pool knowing) */
  asked: number;
  /** reference bytes sent to workers (keyed misses plus plain references) */
  bytesSent: number;
  /** ms of the main thread inside postMessage (serialising, transferring) and in the workers' answers */
  postMs: number;
  answerMs: number;
  /** per worker: bytes of references it holds now */
  cachedBytes: number[];
}

export interface MatcherPool {
  enrol: typeof enrolFn;
  /** references[i] holds candidate i's references (bytes, or keys the workers keep); bestIndex points into it */
  match(query: Buffer | Uint8Array, references: ReferenceInput[][]): Promise<MatchDecision>;
  /** whether a scan could not tell `reference` from any of `others` (quality.ts matchesAny), off the event loop */
  lookalike(reference: Uint8Array, others: Uint8Array[]): Promise<boolean>;
  /** counters since the pool started (benchmarks, tests) */
  stats(): PoolStats;
  /** waits for running work, then stops the workers; later calls reject */
  close(): Promise<void>;
}

type Op =
  | { op: 'enrol'; image: Uint8Array }
  | { op: 'match'; image: Uint8Array; references: ReferenceInput[][] }
  | { op: 'lookalike'; reference: Uint8Array; others: Uint8Array[] };

interface Task {
  id: number;
  op: Op;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  task: Task | undefined;
  /** what this worker's reference cache holds: key → bytes, least recently used first */
  cache: Map<string, number>;
  cached: number;
}

/** The parent's flags minus loader flags (the entry registers tsx itself; see worker-entry.mjs). */
function workerExecArgv(): string[] {
  const out: string[] = [];
  const a = process.execArgv;
  for (let i = 0; i < a.length; i++) {
    const arg = a[i]!;
    if (arg === '--import' || arg === '--require' || arg === '--loader' || arg === '--experimental-loader' || arg === '-r') {
      i++;
      continue;
    }
    if (/^--(import|require|loader|experimental-loader)=/.test(arg)) continue;
    out.push(arg);
  }
  return out;
}

/** A private, exactly-sized copy (so the worker receives only these bytes and the caller's buffer is untouched). */
function ownCopy(image: unknown): Uint8Array {
  if (!(image instanceof Uint8Array)) throw new MatcherError('unreadable_image', 'The image must be a Buffer or Uint8Array');
  return new Uint8Array(image);
}

/** Bytes the pool owns, ready to transfer: the loader's buffer itself when it is a whole ArrayBuffer, else a copy. */
function transferable(bytes: Uint8Array): Uint8Array {
  const whole = bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return whole ? bytes : new Uint8Array(bytes);
}

const WORKERS = Symbol('workers');

const invalidReferences = () => new MatcherError('invalid_reference', 'references must be an array of arrays');

/** The keyed references of a scan, each once. */
function keysOf(references: ReferenceInput[][]): Map<string, KeyedReference> {
  const keys = new Map<string, KeyedReference>();
  for (const gift of references) {
    for (const r of gift) if (!(r instanceof Uint8Array) && !keys.has(r.key)) keys.set(r.key, r);
  }
  return keys;
}

function checkReferences(references: unknown): asserts references is ReferenceInput[][] {
  if (!Array.isArray(references)) throw invalidReferences();
  for (const gift of references) {
    if (!Array.isArray(gift)) throw new MatcherError('invalid_reference', 'each candidate must be an array of references');
    for (const r of gift) {
      if (r instanceof Uint8Array) continue;
      const k = r as Partial<KeyedReference> | null;
      if (typeof k?.key !== 'string' || (k.bytes !== undefined && !(k.bytes instanceof Uint8Array)) || (k.load !== undefined && typeof k.load !== 'function')) {
        throw new MatcherError('invalid_reference', 'a reference is its bytes or { key, bytes?, load? }');
      }
      if (!k.bytes && !k.load) throw new MatcherError('invalid_reference', 'a reference given by key needs its bytes or a loader');
    }
  }
}

export function createMatcherPool(opts: MatcherPoolOptions = {}): MatcherPool {
  const size = Math.max(1, Math.floor(opts.size ?? availableParallelism()));
  const budget = Math.max(0, opts.cacheBytes ?? DEFAULT_CACHE_BYTES);
  const url = new URL('./worker-entry.mjs', import.meta.url);
  const execArgv = workerExecArgv();
  const queue: Task[] = [];
  const slots: Slot[] = [];
  let nextId = 1;
  let closed = false;
  /** workers that died since the last successful reply; past a limit the pool stops respawning (startup failure) */
  let crashes = 0;
  let broken: Error | undefined;
  const counters = { scans: 0, hits: 0, misses: 0, asked: 0, bytesSent: 0, postMs: 0, answerMs: 0 };

  const post = (slot: Slot, req: WorkerRequest, transfer: ArrayBuffer[]): void => {
    const t0 = performance.now();
    const list = [...new Set(transfer)];
    try {
      slot.worker.postMessage(req, list);
    } catch (err) {
      // a loader's buffer that cannot be transferred (marked untransferable by its maker): cloned instead
      if ((err as Error).name !== 'DataCloneError' || (req.op !== 'match' && req.op !== 'provide')) throw err;
      slot.worker.postMessage(req, req.op === 'match' ? [req.image.buffer as ArrayBuffer] : []);
    }
    counters.postMs += performance.now() - t0;
  };

  /** The bytes of `keys`: the caller's (copied), else their loaders' (transferred), one call per loader. */
  const bytesOf = async (keys: string[], given: Map<string, KeyedReference>): Promise<Map<string, Uint8Array>> => {
    const out = new Map<string, Uint8Array>();
    const byLoader = new Map<ReferenceLoader, string[]>();
    for (const k of keys) {
      const r = given.get(k)!;
      if (r.bytes) out.set(k, new Uint8Array(r.bytes));
      else byLoader.set(r.load!, [...(byLoader.get(r.load!) ?? []), k]);
    }
    await Promise.all(
      [...byLoader].map(async ([load, absent]) => {
        const loaded = await load(absent);
        for (const k of absent) {
          const b = loaded.get(k);
          if (b !== undefined && !(b instanceof Uint8Array)) throw new MatcherError('invalid_reference', `the bytes of reference ${k} are not a Uint8Array`);
          // a key the loader has no bytes for is gone (its photo deleted since it was listed): left out of the scan
          if (b) out.set(k, transferable(b));
        }
      }),
    );
    return out;
  };

  /** Records that `slot`'s worker gets `provided` and keeps `wanted`; returns the keys it must drop to stay in budget. */
  const admit = (slot: Slot, wanted: Map<string, KeyedReference>, provided: Map<string, Uint8Array>): string[] => {
    for (const [k, b] of provided) {
      slot.cache.set(k, b.byteLength);
      slot.cached += b.byteLength;
    }
    const evict: string[] = [];
    for (const [k, n] of slot.cache) {
      if (slot.cached <= budget) break;
      if (wanted.has(k)) continue; // this scan needs it: over budget until the next scan
      slot.cache.delete(k);
      slot.cached -= n;
      evict.push(k);
    }
    return evict;
  };

  /** Sends a match to its worker: the keys it holds by name, the bytes of those it lacks. */
  const sendMatch = async (slot: Slot, task: Task & { op: { op: 'match' } }): Promise<void> => {
    const { image, references } = task.op;
    const wanted = keysOf(references);
    const missing: string[] = [];
    for (const k of wanted.keys()) {
      const n = slot.cache.get(k);
      if (n === undefined) missing.push(k);
      else {
        // most recently used: to the end
        slot.cache.delete(k);
        slot.cache.set(k, n);
      }
    }
    counters.hits += wanted.size - missing.length;
    counters.misses += missing.length;
    const provided = missing.length > 0 ? await bytesOf(missing, wanted) : new Map<string, Uint8Array>();
    if (slot.task !== task) return; // the worker died while the bytes loaded; the task was rejected
    const evict = admit(slot, wanted, provided);
    const transfer: ArrayBuffer[] = [image.buffer as ArrayBuffer];
    let plain = 0;
    const gone = (k: string) => !provided.has(k) && !slot.cache.has(k);
    const refs = references.map((gift) =>
      gift.flatMap((r): (Uint8Array | string)[] => {
        if (r instanceof Uint8Array) {
          plain += r.byteLength;
          return [r];
        }
        return gone(r.key) ? [] : [r.key];
      }),
    );
    for (const b of provided.values()) {
      transfer.push(b.buffer as ArrayBuffer);
      counters.bytesSent += b.byteLength;
    }
    counters.bytesSent += plain;
    const req: WorkerRequest = {
      id: task.id,
      op: 'match',
      image,
      references: refs,
      ...(provided.size > 0 ? { provide: [...provided] } : {}),
      ...(evict.length > 0 ? { evict } : {}),
    };
    post(slot, req, transfer);
  };

  const dispatch = (slot: Slot, task: Task): void => {
    slot.task = task;
    slot.worker.ref();
    const { op } = task;
    if (op.op === 'match') {
      sendMatch(slot, task as Task & { op: typeof op }).catch((err: unknown) => {
        if (slot.task !== task) return;
        slot.task = undefined;
        task.reject(err instanceof Error ? err : new Error(String(err)));
        pump();
      });
    } else if (op.op === 'enrol') post(slot, { id: task.id, op: 'enrol', image: op.image }, [op.image.buffer as ArrayBuffer]);
    else post(slot, { id: task.id, op: 'lookalike', reference: op.reference, others: op.others }, []);
  };

  /** The worker lacked keys the pool thought it held: forget them there, send their bytes. */
  const resend = async (slot: Slot, task: Task, keys: string[]): Promise<void> => {
    counters.asked += keys.length;
    for (const k of keys) {
      const n = slot.cache.get(k);
      if (n !== undefined) {
        slot.cache.delete(k);
        slot.cached -= n;
      }
    }
    const op = task.op as Op & { op: 'match' };
    const wanted = keysOf(op.references);
    const provided = await bytesOf(keys, wanted);
    if (slot.task !== task) return;
    const gone = keys.filter((k) => !provided.has(k));
    if (gone.length > 0) throw new MatcherError('invalid_reference', `no bytes for reference ${gone[0]}`);
    const evict = admit(slot, wanted, provided);
    const transfer = [...provided.values()].map((b) => b.buffer as ArrayBuffer);
    for (const b of provided.values()) counters.bytesSent += b.byteLength;
    post(slot, { id: task.id, op: 'provide', provide: [...provided], ...(evict.length > 0 ? { evict } : {}) }, transfer);
  };

  const spawn = (): Slot => {
    const worker = new Worker(url, { execArgv, workerData: { config: opts.config ?? {} } });
    const slot: Slot = { worker, task: undefined, cache: new Map(), cached: 0 };
    worker.on('message', (res: WorkerResponse) => {
      const t0 = performance.now();
      const task = slot.task;
      if (!task || task.id !== res.id) return;
      if ('need' in res) {
        resend(slot, task, res.need).catch((err: unknown) => {
          if (slot.task !== task) return;
          slot.task = undefined;
          task.reject(err instanceof Error ? err : new Error(String(err)));
          pump();
        });
        counters.answerMs += performance.now() - t0;
        return;
      }
      slot.task = undefined;
      crashes = 0;
      if (task.op.op === 'match') counters.scans++;
      if (res.ok) task.resolve(res.value);
      else {
        const { code, message, name } = res.error;
        const err = code ? new MatcherError(code as MatcherErrorCode, message) : Object.assign(new Error(message), { name });
        task.reject(err);
        if (res.retire && !closed) {
          // an unexpected failure inside the worker: take it out of service before it gets another task
          const i = slots.indexOf(slot);
          if (i >= 0) slots.splice(i, 1);
          void worker.terminate();
          slots.push(spawn());
        }
      }
      pump();
      counters.answerMs += performance.now() - t0;
    });
    const fail = (err: Error): void => {
      const i = slots.indexOf(slot);
      if (i >= 0) slots.splice(i, 1);
      const task = slot.task;
      slot.task = undefined;
      task?.reject(err);
      if (closed || broken) return;
      if (++crashes > 3 * size) {
        // e.g. the worker cannot even load: stop respawning and fail loudly instead of looping
        broken = new Error(`matcher workers keep failing: ${err.message}`, { cause: err });
        for (const t of queue.splice(0)) t.reject(broken);
        return;
      }
      // the new worker starts with an empty cache, and its slot knows it
      slots.push(spawn());
      pump();
    };
    worker.on('error', (err) => fail(err));
    worker.on('exit', (code) => {
      if (slots.includes(slot)) fail(new Error(`matcher worker exited with code ${code}`));
    });
    worker.unref();
    return slot;
  };

  /** Among idle workers, the one holding most of the scan's references (bytes); the first idle one otherwise. */
  const pick = (idle: Slot[], task: Task): Slot => {
    if (idle.length === 1 || task.op.op !== 'match') return idle[0]!;
    let best = idle[0]!;
    let bestBytes = -1;
    for (const slot of idle) {
      let held = 0;
      for (const gift of task.op.references) for (const r of gift) if (!(r instanceof Uint8Array)) held += slot.cache.get(r.key) ?? 0;
      if (held > bestBytes) {
        best = slot;
        bestBytes = held;
      }
    }
    return best;
  };

  const pump = (): void => {
    let idle = slots.filter((s) => !s.task);
    while (idle.length > 0 && queue.length > 0) {
      const task = queue.shift()!;
      const slot = pick(idle, task);
      idle = idle.filter((s) => s !== slot);
      dispatch(slot, task);
    }
    for (const slot of idle) slot.worker.unref();
  };

  for (let i = 0; i < size; i++) slots.push(spawn());

  const run = <T>(op: Op): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (closed) return reject(new Error('The matcher pool is closed'));
      if (broken) return reject(broken);
      queue.push({ id: nextId++, op, resolve: resolve as (v: unknown) => void, reject });
      pump();
    });

  const pool: MatcherPool & { [WORKERS]: () => Worker[] } = {
    [WORKERS]: () => slots.map((s) => s.worker),
    enrol: async (image) => run<EnrolResult>({ op: 'enrol', image: ownCopy(image) }),
    match: async (image, references) => {
      checkReferences(references);
      return run<MatchDecision>({ op: 'match', image: ownCopy(image), references });
    },
    lookalike: async (reference, others) => {
      if (!(reference instanceof Uint8Array) || !Array.isArray(others)) throw new MatcherError('invalid_reference', 'lookalike takes a reference and an array of references');
      if (others.length === 0) return false;
      return run<boolean>({ op: 'lookalike', reference, others });
    },
    stats: () => ({ ...counters, cachedBytes: slots.map((s) => s.cached) }),
    close: async () => {
      closed = true;
      for (const t of queue.splice(0)) t.reject(new Error('The matcher pool is closed'));
      await Promise.all(
        slots.splice(0).map(async (slot) => {
          if (slot.task) await new Promise<void>((r) => {
            const t = slot.task!;
            const { resolve, reject } = t;
            t.resolve = (v) => (resolve(v), r());
            t.reject = (e) => (reject(e), r());
          });
          await slot.worker.terminate();
        }),
      );
    },
  };
  return pool;
}

/** Test hook: the pool's worker threads now (a test terminates one to see the pool answer without its cache). */
export const workersOf = (pool: MatcherPool): Worker[] => (pool as unknown as { [WORKERS]?: () => Worker[] })[WORKERS]?.() ?? [];
