import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { BlockList, connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startProcess, type StartedProcess } from '../../../scripts/lib/processes.mjs';
import { buildServerIfStale, SERVER_DIST } from '../../../scripts/lib/server-build.mjs';

/**
 * Part of `npm run test:faults`: the compiled server started as `npm start` starts it on a fresh machine
 * (no HOST, no PUBLIC_ORIGIN, no payment keys: the free test checkout is on), and where it actually listens, read
 * from the kernel's socket tables for the process's own sockets (/proc/net/tcp, /proc/net/tcp6), not from its logs.
 */

const REPO = path.resolve(import.meta.dirname, '../../..');
const MAIN = path.join(SERVER_DIST, 'main.js');

/** Everything the quick start leaves unset, unset here too (whatever the shell running the tests exports). */
const UNSET = Object.fromEntries(
  [
    'HOST', 'PUBLIC_ORIGIN', 'PAYMENTS', 'DATABASE_URL', 'SMTP_URL', 'REDIS_URL', 'TRUST_PROXY',
    'RAZORPAY_KEY_ID', 'RAZORPAY_KEY_SECRET', 'RAZORPAY_WEBHOOK_SECRET', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET',
    'S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY',
  ].map((name) => [name, undefined]),
);

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');
const isLoopback = (address: string) => LOOPBACK.check(address, address.includes(':') ? 'ipv6' : 'ipv4');

/** /proc/net/tcp's address: 8 hex digits, the four bytes in host (little-endian) order. */
const ipv4 = (hex: string) => [6, 4, 2, 0].map((i) => parseInt(hex.slice(i, i + 2), 16)).join('.');
/** /proc/net/tcp6's: four 32-bit words, each in host order; written back the usual way (`::1`). */
function ipv6(hex: string): string {
  const bytes = [0, 8, 16, 24].flatMap((w) => [6, 4, 2, 0].map((i) => hex.slice(w + i, w + i + 2)));
  const groups = Array.from({ length: 8 }, (_, g) => `${bytes[2 * g]}${bytes[2 * g + 1]}`);
  return new URL(`http://[${groups.join(':')}]/`).hostname.slice(1, -1);
}

/** The TCP sockets process `pid` listens on: its open sockets' inodes, looked up in the kernel's tables. */
async function listeningSockets(pid: number): Promise<string[]> {
  const fdDir = `/proc/${pid}/fd`;
  const inodes = new Set<string>();
  for (const fd of await readdir(fdDir)) {
    const target = await readlink(path.join(fdDir, fd)).catch(() => '');
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode) inodes.add(inode);
  }
  const found: string[] = [];
  for (const [table, family] of [['/proc/net/tcp', 4], ['/proc/net/tcp6', 6]] as const) {
    for (const row of (await readFile(table, 'utf8')).split('\n').slice(1)) {
      const fields = row.trim().split(/\s+/);
      // sl, local_address, rem_address, st (0A: LISTEN), …, inode (the tenth)
      if (fields.length < 10 || fields[3] !== '0A' || !inodes.has(fields[9] ?? '')) continue;
      const [hex = '', port = ''] = (fields[1] ?? '').split(':');
      const address = family === 4 ? ipv4(hex) : ipv6(hex);
      found.push(family === 4 ? `${address}:${parseInt(port, 16)}` : `[${address}]:${parseInt(port, 16)}`);
    }
  }
  return found.sort();
}

/** Whether a TCP connection to address:port is taken (true) or refused (false). */
function accepts(address: string, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address, port, timeout: 5000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error(`no answer from ${address}:${port} within 5 s`));
    });
    socket.once('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNREFUSED' ? resolve(false) : reject(err)));
  });
}

/** Writes `request` on a new connection and reads the answer until the server closes it. */
function rawExchange(address: string, port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address, port, timeout: 5000 }, () => socket.write(request));
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    socket.once('close', () => resolve(answer));
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error(`${address}:${port} kept the connection open`));
    });
    socket.once('error', reject);
  });
}

/** This machine's own addresses that other machines reach it by (link-local ones need a scope: left out). */
const networkAddresses = () =>
  Object.values(networkInterfaces())
    .flat()
    .filter((a) => a && !a.internal && !a.address.startsWith('fe80:'))
    .map((a) => a!.address);

const urlHost = (address: string) => (address.includes(':') ? `[${address}]` : address);

describe('where the server listens when nothing is configured', () => {
  let scratch: string;
  const started: StartedProcess[] = [];
  const figures: string[] = [];

  beforeAll(async () => {
    await buildServerIfStale();
    scratch = await mkdtemp(path.join(tmpdir(), 'giftlens-listen-'));
  });
  afterAll(async () => {
    for (const server of started) await server.stop();
    await rm(scratch, { recursive: true, force: true });
    if (figures.length > 0) console.log(`\nListening addresses:\n  ${figures.join('\n  ')}`);
  });

  const envFor = async (name: string, port: number, extra: Record<string, string> = {}) => ({
    ...UNSET,
    PORT: String(port),
    DATA_DIR: await mkdtemp(path.join(scratch, `${name}-`)),
    WEB_DIST_DIR: path.join(scratch, 'no-web-build'),
    SESSION_SECRET: 'listen-session-secret-0123456789abcdef0123456789',
    RUN_JOBS: 'false',
    LOG_LEVEL: 'warn',
    ...extra,
  });

  async function start(name: string, extra: Record<string, string> = {}) {
    const port = await freePort();
    const server = await startProcess({
      args: ['--enable-source-maps', MAIN],
      url: `http://127.0.0.1:${port}/api/plans`,
      cwd: REPO,
      env: await envFor(name, port, extra),
      stderr: 'capture',
      timeoutMs: 180_000,
    });
    started.push(server);
    return { server, port, pid: server.child.pid! };
  }

  it('the default start (the quick start): 127.0.0.1 and ::1 only; both answer, the network addresses refuse', async () => {
    const { server, port, pid } = await start('default');
    const sockets = await listeningSockets(pid);
    figures.push(`default start: ${sockets.join(', ')}`);
    expect(sockets.length).toBeGreaterThan(0);
    for (const socket of sockets) expect(isLoopback(socket.replace(/^\[?(.*?)\]?:\d+$/, '$1')), socket).toBe(true);
    expect(sockets).toEqual([`127.0.0.1:${port}`, `[::1]:${port}`].sort());

    // http://localhost:PORT over IPv4 and IPv6 loopback, and as the name resolves here.
    for (const origin of [`http://127.0.0.1:${port}`, `http://[::1]:${port}`, `http://localhost:${port}`]) {
      const res = await fetch(`${origin}/api/plans`);
      expect(res.status, origin).toBe(200);
    }
    // ::1 is the same HTTP server: a request Node's parser refuses gets the server's own JSON answer there too.
    for (const address of ['127.0.0.1', '::1']) {
      const answer = await rawExchange(address, port, 'GET /api/plans HTTP/1.1\r\nHost: localhost\r\nBad\u0001Header: x\r\n\r\n');
      expect(answer, address).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(answer, address).toContain('"code":"bad_request"');
    }
    // The machine's own network addresses: refused.
    for (const address of networkAddresses()) expect(await accepts(address, port), address).toBe(false);
    figures.push(`default start: refused on ${networkAddresses().join(', ') || '(no network address)'}`);
    // Connections fetch may keep pooled on either address do not hold up a clean stop.
    const stopping = Date.now();
    await server.stop();
    expect(server.child.exitCode).toBe(0);
    figures.push(`default start: SIGTERM to exit ${Date.now() - stopping} ms`);
  });

  it('HOST=0.0.0.0 with the test checkout on for the loopback origin stops start-up with one line, no stack', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['--enable-source-maps', MAIN], {
      cwd: REPO,
      env: { ...process.env, ...(await envFor('open', port, { HOST: '0.0.0.0' })) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // A server that starts instead of refusing is stopped after a minute (a start takes 1-2 s, more under load).
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const started = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const code = await exited.finally(() => clearTimeout(started));
    expect(code, `${stdout}\n${stderr}`).toBe(1);
    const lines = stderr.trim().split('\n');
    expect(lines).toEqual([
      'Invalid configuration:',
      `  - HOST: 0.0.0.0 would let anyone on the network mark orders paid with the built-in test checkout, which is on because PUBLIC_ORIGIN (http://localhost:${port}) is a loopback origin; leave HOST unset to listen on this machine only, or set PUBLIC_ORIGIN and the payment providers' keys (PAYMENTS=test only for a test deployment)`,
    ]);
    expect(stdout).not.toContain('GiftLens is listening');
    expect(await accepts('127.0.0.1', port)).toBe(false);
    figures.push(`HOST=0.0.0.0: exit ${code}, "${lines[1]?.slice(4, 60)}…"`);
  });

  it('PAYMENTS=test (a test deployment): every interface, as documented, and the network addresses answer', async () => {
    const { server, port, pid } = await start('payments-test', { PAYMENTS: 'test' });
    const sockets = await listeningSockets(pid);
    figures.push(`PAYMENTS=test: ${sockets.join(', ')}`);
    expect(sockets).toEqual([`0.0.0.0:${port}`]);
    // The probe above sees a server that is reachable from the network: the refusals there are the server's.
    for (const address of networkAddresses().filter((a) => !a.includes(':'))) {
      expect((await fetch(`http://${urlHost(address)}:${port}/api/plans`)).status, address).toBe(200);
    }
    await server.stop();
  });
});
