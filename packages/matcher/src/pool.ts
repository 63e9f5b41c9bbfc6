/**
 * A worker-thread pool running enrol/match off the main event loop, one worker per core by default.
 * Works whether the parent runs under tsx, vitest or plain node: the worker entry is plain JS that registers tsx's
 * loader and then imports the TypeScript worker.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CONFIG, enrol as enrolFn, match as matchFn, EnrolResult, MatchDecision } from './engine.ts';
import { MatcherError, type MatcherErrorCode } from './errors.ts';
import type { WorkerRequest, WorkerResponse } from './worker.ts';

export interface MatcherPoolOptions {
  /** number of worker threads; default: the number of cores */
  size?: number;
  /**
   * engine settings to override in the workers (benchmarks comparing recipes in one run); the server never sets it.
   * Settings of the reference side must stay as enrolled, or stored references stop matching.
   */
  config?: Partial<typeof CONFIG>;
}

export interface MatcherPool {
  enrol: typeof enrolFn;
  match: typeof matchFn;
  /** whether a scan could not tell `reference` from any of `others` (quality.ts matchesAny), off the event loop */
  lookalike(reference: Uint8Array, others: Uint8Array[]): Promise<boolean>;
  /** waits for running work, then stops the workers; later calls reject */
  close(): Promise<void>;
}

type Op =
  | { op: 'enrol'; image: Uint8Array }
  | { op: 'match'; image: Uint8Array; references: Uint8Array[][] }
  | { op: 'lookalike'; reference: Uint8Array; others: Uint8Array[] };

interface Task {
  id: number;
  req: WorkerRequest;
  transfer: ArrayBuffer[];
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  task: Task | undefined;
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

export function createMatcherPool(opts: MatcherPoolOptions = {}): MatcherPool {
  const size = Math.max(1, Math.floor(opts.size ?? availableParallelism()));
  const url = new URL('./worker-entry.mjs', import.meta.url);
  const execArgv = workerExecArgv();
  const queue: Task[] = [];
  const slots: Slot[] = [];
  let nextId = 1;
  let closed = false;
  /** workers that died since the last successful reply; past a limit the pool stops respawning (startup failure) */
  let crashes = 0;
  let broken: Error | undefined;

  const spawn = (): Slot => {
    const worker = new Worker(url, { execArgv, workerData: { config: opts.config ?? {} } });
    const slot: Slot = { worker, task: undefined };
    worker.on('message', (res: WorkerResponse) => {
      const task = slot.task;
      if (!task || task.id !== res.id) return;
      slot.task = undefined;
      crashes = 0;
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

  const pump = (): void => {
    for (const slot of slots) {
      if (slot.task) continue;
      const task = queue.shift();
      if (!task) {
        slot.worker.unref();
        continue;
      }
      slot.task = task;
      slot.worker.ref();
      slot.worker.postMessage(task.req, task.transfer);
    }
  };

  for (let i = 0; i < size; i++) slots.push(spawn());

  const run = <T>(op: Op): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (closed) return reject(new Error('The matcher pool is closed'));
      if (broken) return reject(broken);
      const id = nextId++;
      const transfer = op.op === 'lookalike' ? [] : [op.image.buffer as ArrayBuffer];
      queue.push({ id, req: { id, ...op }, transfer, resolve: resolve as (v: unknown) => void, reject });
      pump();
    });

  return {
    enrol: async (image) => run<EnrolResult>({ op: 'enrol', image: ownCopy(image) }),
    match: async (image, references) => {
      if (!Array.isArray(references)) throw new MatcherError('invalid_reference', 'references must be an array of arrays');
      return run<MatchDecision>({ op: 'match', image: ownCopy(image), references });
    },
    lookalike: async (reference, others) => {
      if (!(reference instanceof Uint8Array) || !Array.isArray(others)) throw new MatcherError('invalid_reference', 'lookalike takes a reference and an array of references');
      if (others.length === 0) return false;
      return run<boolean>({ op: 'lookalike', reference, others });
    },
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
}
