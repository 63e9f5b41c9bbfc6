import type { ChildProcess } from 'node:child_process';

export function freePort(): Promise<number>;

export interface WaitOptions {
  /** Default 60 s. */
  timeoutMs?: number;
  /** Between two tries; default 100 ms. */
  intervalMs?: number;
  /** Sent with every try (a function: fresh headers per try). */
  headers?: Record<string, string> | (() => Record<string, string>);
  /** Appended to the error (e.g. the process's stderr). */
  output?: () => string;
}

export function waitForAnswer(url: string, child: ChildProcess, opts?: WaitOptions): Promise<void>;

export function stopProcess(child: ChildProcess, signal?: NodeJS.Signals, opts?: { group?: boolean }): Promise<void>;

export interface StartOptions extends Omit<WaitOptions, 'output'> {
  /** Default: this node. */
  command?: string;
  args: string[];
  /** Polled until it answers 2xx. */
  url: string;
  cwd?: string;
  /** Over process.env. */
  env?: Record<string, string | undefined>;
  stdout?: 'ignore' | 'inherit';
  stderr?: 'ignore' | 'inherit' | 'capture';
  /** Its own process group, stopped as a whole. */
  detached?: boolean;
}

export interface StartedProcess {
  child: ChildProcess;
  /** From the spawn to the first 2xx answer. */
  readyMs: number;
  /** The captured stderr (last 4,000 characters), with `stderr: 'capture'`. */
  stderr(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export function startProcess(opts: StartOptions): Promise<StartedProcess>;
