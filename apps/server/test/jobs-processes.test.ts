import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, afterEach, expect } from 'vitest';
import { createSmtpMailer } from '../src/adapters/mail.ts';
import { paidGift } from './helpers/flows.ts';
import { describeEachDatabase, it, json, PUBLIC_ORIGIN, SESSION_SECRET, signIn, uniqueEmail, type Harness } from './helpers/harness.ts';
import { startTestSmtp } from './helpers/smtp.ts';

// Real worker processes (`npm run worker`'s entry) on the test database, against a real SMTP server.
const REPO = path.resolve(import.meta.dirname, '../../..');
const WORKER = path.join(REPO, 'apps/server/src/worker.ts');

const smtp = await startTestSmtp();
afterAll(() => smtp.close());

const running = new Set<ChildProcess>();
afterEach(async () => {
  await Promise.all([...running].map((child) => stop(child, 'SIGTERM')));
});

function startWorker(h: Harness): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
    cwd: REPO,
    env: {
      ...process.env,
      DATA_DIR: h.dataDir,
      DATABASE_URL: h.databaseUrl ?? '',
      SMTP_URL: smtp.url,
      SESSION_SECRET,
      PUBLIC_ORIGIN,
      PAYMENTS: 'test',
      LOG_LEVEL: 'error',
      JOB_CONCURRENCY: '4',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  running.add(child);
  return child;
}

function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  running.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const mailsTo = (address: string) => smtp.received.filter((m) => m.to && !Array.isArray(m.to) && m.to.text === address);

async function sendNow(h: Harness, cookie: string, giftId: string, to: string): Promise<string> {
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/scheduled-messages/send-now',
    headers: { cookie },
    payload: { giftId, recipientContact: to, contactType: 'email' },
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return json<{ delivery: { id: string } }>(res).delivery.id;
}

describeEachDatabase(
  'worker processes',
  (get) => {
    it('a worker killed (kill -9) after claiming and before the mail was accepted: exactly one send after the lease', async () => {
      const h = get();
      h.clock.set(new Date());
      const { cookie } = await signIn(h);
      const giftId = await paidGift(h, cookie);
      const to = uniqueEmail('killed');
      smtp.mode = 'hang';
      const started = smtp.dataStarted;
      const id = await sendNow(h, cookie, giftId, to);
      const job = () => h.db.selectFrom('jobs').selectAll().where('key', '=', `delivery:${id}`).executeTakeFirstOrThrow();
      const delivery = () => h.db.selectFrom('scheduled_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

      const first = startWorker(h);
      // Claimed, the whole message handed over, and the server has not said yes: the mail is not accepted.
      await until('the first worker to hand the mail over', () => smtp.dataStarted > started);
      expect(await job()).toMatchObject({ status: 'running', attempts: 1 });
      expect((await delivery()).status).toBe('sending');
      await stop(first, 'SIGKILL');
      smtp.mode = 'accept';

      // Its lease would run out in two minutes; move it to the past instead of waiting.
      await h.db.updateTable('jobs').set({ locked_until: new Date(Date.now() - 1000).toISOString() }).where('key', '=', `delivery:${id}`).execute();
      startWorker(h);
      await until('the delivery to be sent', async () => (await delivery()).status === 'sent');
      // The job finished: nothing is left that could send again (the server records a mail before accepting it).
      await until('the job to finish', async () => (await job()).status === 'done');
      expect(mailsTo(to)).toHaveLength(1);
      expect(await job()).toMatchObject({ status: 'done', attempts: 2 });
    });

    it('two worker processes racing on 100 due deliveries send exactly 100 mails', async () => {
      const h = get();
      h.clock.set(new Date());
      const { cookie } = await signIn(h);
      const giftId = await paidGift(h, cookie);
      const batch = `race-${Date.now().toString(36)}`;
      const addresses = Array.from({ length: 100 }, (_, i) => `${batch}-${i}@example.com`);
      for (const to of addresses) await sendNow(h, cookie, giftId, to);

      startWorker(h);
      startWorker(h);
      const mine = () => smtp.received.filter((m) => m.to && !Array.isArray(m.to) && m.to.text.startsWith(batch));
      await until('100 mails', () => mine().length >= 100, 60_000);
      // Every delivery's job finished: no send is still on its way that could make a 101st mail.
      const unfinished = async () =>
        (await h.db.selectFrom('jobs').select('status').where('gift_id', '=', giftId).where('kind', '=', 'delivery.send').execute()).filter(
          (j) => j.status !== 'done',
        ).length;
      await until('every delivery job to finish', async () => (await unfinished()) === 0, 60_000);
      expect(mine()).toHaveLength(100);
      expect(new Set(mine().map((m) => m.to && !Array.isArray(m.to) && m.to.text)).size).toBe(100);
      expect(new Set(mine().map((m) => m.messageId)).size).toBe(100);
      const statuses = await h.db.selectFrom('scheduled_messages').select('status').where('gift_id', '=', giftId).execute();
      expect(statuses.filter((s) => s.status === 'sent')).toHaveLength(100);
    }, 90_000);
  },
  { mailer: () => createSmtpMailer(smtp.url, 'GiftLens <no-reply@giftlens.test>'), readCode: (email) => smtp.codeFor(email) },
);
