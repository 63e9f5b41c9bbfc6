import { API } from '@giftlens/contract/routes';
import { recordingLength, texts } from '@giftlens/contract/texts';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { thisProcess } from '../src/adapters/scratch.ts';
import type { Db } from '../src/db/database.ts';
import { DATABASE_TARGETS, type TestDatabase } from '../test/helpers/databases.ts';
import { GIFT_FIELDS } from '../test/helpers/flows.ts';
import {
  behindId3,
  concatOf,
  dataUriPlaylist,
  eightKFrame,
  fifteenMinuteStill,
  highFrameRate,
  hugePng,
  playlistOf,
  serverSecretFile,
} from '../test/helpers/hostile-media.ts';
import { startTestSmtp, type TestSmtp } from '../test/helpers/smtp.ts';
import { gatedFfprobe } from './faults/ffprobe-gate.ts';
import { Client, freePort, startServer, until, type ServerProcess } from './faults/server-process.ts';
import { SERVER_DIST } from '../../../scripts/lib/server-build.mjs';

/**
 * `npm run test:media`: hostile uploads against the compiled server (`npm start`'s own build, jobs inside,
 * real ffmpeg) on SQLite in a temporary DATA_DIR. Each hostile file is refused with its 4xx and leaves nothing in
 * storage; a render whose ffmpeg gets SIGTERM is tried again and succeeds; kill -9 of the server mid-render leaves no
 * ffmpeg behind; a second process on the machine keeps the first one's scratch.
 */

const SESSION_SECRET = 'media-session-secret-0123456789abcdef0123456789ab';
const sqlite = DATABASE_TARGETS.find((t) => t.name === 'sqlite');
if (!sqlite) throw new Error('the SQLite target is missing');

/** Every running ffmpeg (or ffprobe) whose command line names `dir`: the renders of this test's server. */
function toolsUnder(dir: string): { pid: number; args: string[] }[] {
  const found: { pid: number; args: string[] }[] = [];
  for (const name of execFileSync('ls', ['/proc']).toString().split('\n')) {
    if (!/^\d+$/.test(name)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${name}/cmdline`).toString().split('\0').filter(Boolean);
    } catch {
      continue;
    }
    // ffmpeg itself, or the gated ffprobe's shell script (`/bin/sh …/bin/ffprobe …`).
    const tool = args.slice(0, 2).map((a) => path.basename(a));
    if ((tool.includes('ffmpeg') || tool.includes('ffprobe')) && args.some((a) => a.includes(dir))) found.push({ pid: Number(name), args });
  }
  return found;
}

/** Twenty seconds of 720p VP8: several CPU seconds to convert, long enough to stop ffmpeg in the middle. */
function slowVideo(dir: string): Buffer {
  const out = path.join(dir, 'slow.webm');
  if (!existsSync(out)) {
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30', '-t', '20', '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '1M', out]);
  }
  return readFileSync(out);
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe.skipIf(sqlite.unavailable !== null)('hostile media against a real server [sqlite]', () => {
  let dataDir: string;
  let database: TestDatabase;
  let db: Db;
  let smtp: TestSmtp;
  let port: number;
  let server: ServerProcess;
  const figures: string[] = [];
  const sender = new Client(() => server.origin);
  const gate = () => path.join(dataDir, 'render-gate');
  const env = () => ({
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    SMTP_URL: smtp.url,
    SESSION_SECRET,
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    PATH: `${path.join(dataDir, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
  });
  const start = async () => {
    server = await startServer(env(), port);
  };
  const gift = (id: string) => db.selectFrom('gifts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const renderJob = (giftId: string) => db.selectFrom('jobs').selectAll().where('key', 'like', `media:${giftId}:%`).executeTakeFirstOrThrow();

  const newGift = () => sender.newGift();

  /** generate → PUT → confirm, as a browser sends a message; the confirm's answer and how long it took. */
  async function send(giftId: string, data: Buffer, fileName: string, fileType: string, messageType: 'audio' | 'video') {
    const t = await sender.ok<{ uploadUrl: string; publicUrl: string; filePath: string }>('POST', API.generateUploadUrl, {
      giftId,
      fileType,
      fileName,
      messageType,
      fileSize: data.length,
    });
    const put = await fetch(new URL(t.uploadUrl, server.origin), { method: 'PUT', headers: { 'content-type': fileType }, body: data });
    expect(put.status).toBe(200);
    const started = performance.now();
    const res = await sender.call<{ code?: string; error?: string }>('POST', API.confirmUpload, { giftId, publicUrl: t.publicUrl, messageType, filePath: t.filePath });
    return { ...res, ms: Math.round(performance.now() - started) };
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'giftlens-hostile-media-'));
    await gatedFfprobe(path.join(dataDir, 'bin'), gate());
    database = await sqlite.create(dataDir);
    db = database.db;
    smtp = await startTestSmtp();
    port = await freePort();
    await start();
    const email = `media-${Date.now().toString(36)}@example.com`;
    await sender.signIn(email, (e) => smtp.codeFor(e));
  }, 180_000);

  afterAll(async () => {
    console.log(`hostile media [sqlite]\n  ${figures.join('\n  ')}`);
    await server?.stop();
    await smtp?.close();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('every hostile upload is refused with its 4xx before any conversion, and leaves nothing in storage', async () => {
    const secret = serverSecretFile();
    const cases = [
      { name: 'ID3 + HLS playlist as voice', data: behindId3(playlistOf(secret)), fileName: 'x.m3u8', type: 'audio/mpeg', kind: 'audio', status: 415, code: 'file_type_invalid', error: texts.sender.fileTypeInvalid },
      { name: 'ID3 + HLS playlist as video', data: behindId3(playlistOf(secret)), fileName: 'x.m3u8', type: 'video/mp4', kind: 'video', status: 415, code: 'file_type_invalid', error: texts.sender.fileTypeInvalid },
      { name: 'bare HLS playlist', data: Buffer.from(playlistOf(secret)), fileName: 'voice.m3u8', type: 'audio/mpeg', kind: 'audio', status: 415, code: 'file_type_invalid', error: texts.sender.fileTypeInvalid },
      { name: 'ID3 + concat script', data: behindId3(concatOf(secret)), fileName: 'list.mp3', type: 'audio/mpeg', kind: 'audio', status: 415, code: 'file_type_invalid', error: texts.sender.fileTypeInvalid },
      { name: 'ID3 + data: URI playlist', data: behindId3(dataUriPlaylist()), fileName: 'x.m3u8', type: 'audio/mpeg', kind: 'audio', status: 415, code: 'file_type_invalid', error: texts.sender.fileTypeInvalid },
      { name: '15-minute still video', data: fifteenMinuteStill(), fileName: 'long.webm', type: 'video/webm', kind: 'video', status: 422, code: 'media_too_long', error: texts.media.tooLong('video', recordingLength(900)) },
      { name: '8192×8192 frame', data: eightKFrame(), fileName: 'big.webm', type: 'video/webm', kind: 'video', status: 422, code: 'media_frame_too_large', error: texts.media.frameTooLarge('video', '8192×8192') },
      { name: '120 frames a second', data: highFrameRate(), fileName: 'fast.webm', type: 'video/webm', kind: 'video', status: 422, code: 'media_frame_rate_too_high', error: texts.media.frameRateTooHigh('video', '120') },
    ] as const;
    for (const c of cases) {
      const giftId = await newGift();
      const res = await send(giftId, c.data, c.fileName, c.type, c.kind);
      expect(res.status, `${c.name}: ${JSON.stringify(res.body)}`).toBe(c.status);
      expect(res.body).toMatchObject({ code: c.code, error: c.error });
      figures.push(`${c.name} (${c.data.length} B): ${res.status} ${res.body.code} in ${res.ms} ms`);
      // Nothing of it stays: only the gift's photo is stored, no intent, no render, no scratch copy.
      expect((await filesUnder(path.join(dataDir, 'media', 'gifts', giftId))).filter((f) => !f.startsWith('photo'))).toEqual([]);
      expect(await db.selectFrom('upload_intents').select('id').where('gift_id', '=', giftId).execute()).toEqual([]);
      expect(await db.selectFrom('jobs').select('id').where('key', 'like', `media:${giftId}:%`).execute()).toEqual([]);
      expect(await gift(giftId)).toMatchObject({ status: 'draft', message_path: null });
    }
    expect(await filesUnder(path.join(dataDir, 'scratch'))).toEqual([]);
    expect((await readdir(path.join(dataDir, 'media', '.tmp')).catch(() => [])).filter((n) => n.endsWith('.part'))).toEqual([]);

    // A photo of 16000×16000 pixels: refused from its header, and no gift is made.
    const form = new FormData();
    for (const [k, v] of Object.entries(GIFT_FIELDS)) form.append(k, v);
    const png = await hugePng();
    form.append('giftImage', new Blob([png], { type: 'image/png' }), 'huge.png');
    const before = (await db.selectFrom('gifts').select('id').execute()).length;
    const started = performance.now();
    const photo = await sender.call<{ code?: string; error?: string }>('POST', API.submitGift, form);
    figures.push(`16000×16000 PNG (${png.length} B): ${photo.status} ${photo.body.code} in ${Math.round(performance.now() - started)} ms`);
    expect(photo.status).toBe(422);
    expect(photo.body).toMatchObject({ code: 'gift_image_too_many_pixels', error: texts.media.imageTooManyPixels('256') });
    expect((await db.selectFrom('gifts').select('id').execute()).length).toBe(before);
  });

  it('a render whose ffmpeg is stopped by SIGTERM is tried again with back-off, and succeeds', async () => {
    const giftId = await newGift();
    const res = await send(giftId, slowVideo(dataDir), 'slow.webm', 'video/webm', 'video');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    let ffmpeg: { pid: number }[] = [];
    await until('ffmpeg to convert the message', () => (ffmpeg = toolsUnder(dataDir).filter((t) => t.args.some((a) => a.endsWith('out.mp4')))).length > 0, 60_000);
    // A process manager's SIGTERM, or the OOM killer: ffmpeg stops, and says nothing about the file.
    process.kill(ffmpeg[0]!.pid, 'SIGTERM');
    await until('the render to be queued again', async () => (await renderJob(giftId)).status === 'queued', 60_000);
    const failed = await renderJob(giftId);
    expect(failed).toMatchObject({ attempts: 1 });
    expect(failed.last_error).toMatch(/ffmpeg was stopped by SIGTERM/);
    expect(await gift(giftId)).toMatchObject({ message_state: 'processing' });
    figures.push(`SIGTERM'd render: queued again, next try in ${Math.round((Date.parse(failed.run_at) - Date.now()) / 1000)} s (${failed.last_error})`);
    // Its back-off (30 s) is cut short: the retry converts it.
    await db.updateTable('jobs').set({ run_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', failed.id).execute();
    // The gift turns ready inside the job, a moment before the job itself is marked done.
    const ms = await until(
      'the retried render to finish',
      async () => (await gift(giftId)).message_state === 'ready' && (await renderJob(giftId)).status === 'done',
      180_000,
    );
    expect(await renderJob(giftId)).toMatchObject({ status: 'done', attempts: 2 });
    expect((await gift(giftId)).message_path).toMatch(/rendition-.+-2\.mp4$/);
    figures.push(`SIGTERM'd render retried to success in ${ms} ms`);
  });

  it('kill -9 of the server mid-render leaves no ffmpeg; the restarted server removes the dead process’s scratch', async () => {
    // The render is held at its last ffprobe (the gate), so it is certainly still running when the server dies.
    await writeFile(path.join(gate(), 'armed'), '');
    const giftId = await newGift();
    expect((await send(giftId, slowVideo(dataDir), 'slow.webm', 'video/webm', 'video')).status).toBe(200);
    await until('the render to reach its gate', () => existsSync(path.join(gate(), 'waiting')), 180_000);
    expect(toolsUnder(dataDir).length).toBeGreaterThan(0);
    const deadScratch = (await readdir(path.join(dataDir, 'scratch'))).filter((n) => n.includes(`.${server.child.pid}.`));
    expect(deadScratch).toHaveLength(1);
    await server.kill9();
    const killedAt = Date.now();
    // They go with their server (a generous bound, not a figure: the time taken is printed below).
    await until('no ffmpeg or ffprobe left', () => toolsUnder(dataDir).length === 0, 20_000);
    figures.push(`kill -9 mid-render: 0 ffmpeg/ffprobe left ${Date.now() - killedAt} ms later`);
    for (const f of ['armed', 'waiting']) await rm(path.join(gate(), f), { force: true });
    await start();
    expect(existsSync(path.join(dataDir, 'scratch', deadScratch[0]!))).toBe(false);
    // The job's lease runs out (moved to the past instead of waiting 2 minutes): the restarted server renders it.
    await db.updateTable('jobs').set({ locked_until: new Date(Date.now() - 1000).toISOString() }).where('key', 'like', `media:${giftId}:%`).execute();
    await until('the render to be redone', async () => (await gift(giftId)).message_state === 'ready', 180_000);
  });

  it('a second process on the same machine keeps the first one’s render scratch, and removes a dead one’s', async () => {
    // No render of another test is still going: only this one stops at the gate.
    await until('earlier renders to finish', async () => (await db.selectFrom('jobs').select('id').where('kind', '=', 'message.render').where('status', 'in', ['queued', 'running']).execute()).length === 0, 180_000);
    await writeFile(path.join(gate(), 'armed'), '');
    // What a process of this machine killed long ago left: any process may remove it.
    const dead = spawn('true');
    await new Promise((r) => dead.once('exit', r));
    const { host, boot, ns } = thisProcess();
    const deadFolder = path.join(dataDir, 'scratch', `${host}.${boot}.${ns}.${dead.pid}.1`, 'giftlens-render-old');
    await mkdir(deadFolder, { recursive: true });

    const giftId = await newGift();
    expect((await send(giftId, slowVideo(dataDir), 'slow.webm', 'video/webm', 'video')).status).toBe(200);
    await until('the render to reach its gate', () => existsSync(path.join(gate(), 'waiting')), 180_000);
    const own = (await readdir(path.join(dataDir, 'scratch'))).find((n) => n.includes(`.${server.child.pid}.`)) ?? '';
    const renderFolders = (await readdir(path.join(dataDir, 'scratch', own))).filter((n) => n.startsWith('giftlens-render-'));
    expect(renderFolders).toHaveLength(1);
    const held = path.join(dataDir, 'scratch', own, renderFolders[0]!);
    // Seven hours old by its clock: what a sweep by age alone (the old rule) would take.
    const old = new Date(Date.now() - 7 * 3600_000);
    await utimes(held, old, old);

    // A worker starts beside it on the same DATA_DIR (it sweeps at start), and housekeeping is made due.
    const worker: ChildProcess = spawn(process.execPath, ['--enable-source-maps', path.join(SERVER_DIST, 'worker.js')], {
      env: { ...process.env, ...env(), PUBLIC_ORIGIN: server.origin, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      let log = '';
      worker.stdout?.on('data', (d: Buffer) => (log += d.toString()));
      await until('the worker to start', () => log.includes('GiftLens worker started'), 120_000);
      await db.updateTable('jobs').set({ run_at: new Date(Date.now() - 1000).toISOString() }).where('key', '=', 'housekeeping').execute();
      await until('housekeeping to run', async () => (await db.selectFrom('jobs').select('run_at').where('key', '=', 'housekeeping').executeTakeFirstOrThrow()).run_at > new Date().toISOString(), 120_000);
      expect(existsSync(deadFolder)).toBe(false);
      expect(existsSync(held)).toBe(true);
      expect(existsSync(path.join(held, 'input.webm'))).toBe(true);
    } finally {
      worker.kill('SIGTERM');
      await new Promise((r) => worker.once('exit', r));
    }
    // Let go, the render finishes with its scratch intact.
    await writeFile(path.join(gate(), 'open'), '');
    await until('the held render to finish', async () => (await gift(giftId)).message_state === 'ready', 180_000);
    await rm(path.join(gate(), 'armed'));
    // The gift turns ready inside the job; the job lets go of its scratch a moment later.
    await until('the render to let go of its scratch', () => !existsSync(held), 30_000);
  });
});
