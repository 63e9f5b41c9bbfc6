import { API } from '@giftlens/contract/routes';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { startProcess } from '../../../../scripts/lib/processes.mjs';
import { buildServerIfStale, SERVER_DIST } from '../../../../scripts/lib/server-build.mjs';
import { GIFT_FIELDS } from '../../test/helpers/flows.ts';
import { giftPhoto } from '../../test/helpers/media.ts';

export { freePort } from '../../../../scripts/lib/processes.mjs';

/**
 * The server's own entry, run the way `npm start` runs it: the compiled build, as one process (so kill -9 hits the
 * server itself).
 */
const REPO = path.resolve(import.meta.dirname, '../../../..');
const MAIN = path.join(SERVER_DIST, 'main.js');

const START_TIMEOUT_MS = 180_000;
/** The build check, once per test run (not at every restart: it walks the sources' modification times). */
let build: Promise<boolean> | undefined;

export interface ServerProcess {
  origin: string;
  /** Spawn to the first answer, in ms. */
  readyMs: number;
  child: ChildProcess;
  /** kill -9: no shutdown hook runs, open transactions and sockets are cut. */
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the compiled server (`apps/server/dist/main.js`, built first when missing or older than its sources) on a
 * loopback port with `env` and waits until it answers.
 */
export async function startServer(env: Record<string, string>, port: number): Promise<ServerProcess> {
  await (build ??= buildServerIfStale());
  const origin = `http://127.0.0.1:${port}`;
  const server = await startProcess({
    // Stack traces name the TypeScript sources.
    args: ['--enable-source-maps', MAIN],
    url: `${origin}/api/plans`,
    cwd: REPO,
    env: { HOST: '127.0.0.1', PORT: String(port), PUBLIC_ORIGIN: origin, LOG_LEVEL: 'error', ...env },
    stdout: 'inherit',
    // A start takes 1-2 s on a quiet machine, and over 45 s was seen at a load average of 15 (migrations, the
    // matcher pool; then also compiling TypeScript): 60 s made the restarts fail under load.
    timeoutMs: START_TIMEOUT_MS,
  });
  return {
    origin,
    readyMs: Math.round(server.readyMs),
    child: server.child,
    kill9: () => server.stop('SIGKILL'),
    stop: () => server.stop(),
  };
}

/** Polls `check` every 50 ms until it holds. */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - started;
}

/** A sender's browser against a real server: JSON and multipart calls with the session cookie. */
export class Client {
  cookie = '';
  constructor(private readonly server: () => string) {}

  async call<T = Record<string, unknown>>(
    method: string,
    url: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    const res = await fetch(new URL(url, this.server()), {
      method,
      headers: {
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(body !== undefined && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
    const session = res.headers.getSetCookie().find((c) => c.startsWith('gl_sender='));
    if (session) this.cookie = session.split(';')[0] ?? '';
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
  }

  async ok<T = Record<string, unknown>>(method: string, url: string, body?: unknown): Promise<T> {
    const res = await this.call<T>(method, url, body);
    if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** Signs in as a new sender named Asha, with the code the server mailed to `codeFor`'s inbox. */
  async signIn(email: string, codeFor: (email: string) => Promise<string>): Promise<void> {
    await this.ok('POST', API.sendEmail, { email, type: 'sender' });
    await this.ok('POST', API.verifyEmail, { email, code: await codeFor(email), type: 'sender' });
    await this.ok('POST', API.updateUser, { firstName: 'Asha' });
  }

  /** A new draft gift with the usual details and one photo; its id. */
  async newGift(): Promise<string> {
    const form = new FormData();
    for (const [k, v] of Object.entries(GIFT_FIELDS)) form.append(k, v);
    form.append('giftImage', new Blob([giftPhoto()], { type: 'image/jpeg' }), 'gift.jpg');
    return (await this.ok<{ giftId: string }>('POST', API.submitGift, form)).giftId;
  }
}
