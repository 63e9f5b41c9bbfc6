// Child processes for the scripts, benchmarks and tests that run the real server (or anything else that answers
// HTTP): a free loopback port, a spawn that waits for the first 2xx answer, and a stop that waits for the exit.
// Plain JavaScript, so `node scripts/*.mjs` can use it as well as the TypeScript of e2e/ and apps/server/ (types in
// processes.d.mts).
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A free TCP port on 127.0.0.1 (closed again before it is returned: the caller binds it next). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

const exited = (child) => child.exitCode !== null || child.signalCode !== null;

/** Polls `url` until it answers 2xx; fails as soon as `child` exits, or after `timeoutMs`. */
export async function waitForAnswer(url, child, { timeoutMs = 60_000, intervalMs = 100, headers, output } = {}) {
  const deadline = performance.now() + timeoutMs;
  const detail = () => {
    const text = output?.().trim();
    return text ? `:\n${text}` : '';
  };
  while (performance.now() < deadline) {
    if (exited(child)) throw new Error(`The process behind ${url} exited (${child.exitCode ?? child.signalCode})${detail()}`);
    try {
      const res = await fetch(url, { headers: typeof headers === 'function' ? headers() : headers });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(intervalMs);
  }
  throw new Error(`${url} did not answer within ${Math.round(timeoutMs / 1000)} s${detail()}`);
}

/** Sends `signal` (to the whole process group with `group`: e.g. npm and the node it started) and waits for the exit. */
export async function stopProcess(child, signal = 'SIGTERM', { group = false } = {}) {
  if (exited(child)) return;
  const done = new Promise((resolve) => child.once('exit', resolve));
  try {
    if (group && child.pid !== undefined) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // gone meanwhile
  }
  await done;
}

/**
 * Spawns `command args` (node by default) and resolves once `url` answers 2xx: the child, the milliseconds from
 * the spawn to that answer, what it wrote to stderr (with `stderr: 'capture'`, the last 4,000 characters) and a
 * stop. A process that exits first or never answers is stopped, and the error carries its stderr.
 */
export async function startProcess({
  command = process.execPath,
  args,
  url,
  cwd,
  env = {},
  stdout = 'ignore',
  stderr = 'inherit',
  detached = false,
  ...wait
}) {
  const started = performance.now();
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', stdout, stderr === 'capture' ? 'pipe' : stderr],
    detached,
  });
  let captured = '';
  child.stderr?.on('data', (d) => (captured = (captured + d.toString()).slice(-4000)));
  const stop = (signal = 'SIGTERM') => stopProcess(child, signal, { group: detached });
  try {
    await waitForAnswer(url, child, { ...wait, output: () => captured });
  } catch (err) {
    await stop('SIGKILL');
    throw err;
  }
  return { child, readyMs: performance.now() - started, stderr: () => captured, stop };
}
