import { type ChildProcess, execFile, spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { type CreateMerchantGiftResponse, recordApi, staffMerchantApi, type StaffCreateMerchantResponse } from '@giftlens/contract/merchants';
import { staffApi, type StaffVerifyResponse } from '@giftlens/contract/staff';
import { authenticator } from 'otplib';
import { afterAll, expect } from 'vitest';
import { describeEachDatabase, it, json, uniqueEmail, type Harness } from './helpers/harness.ts';
import { GIFT_PHOTO_PATH } from './helpers/media.ts';

// examples/merchant/shop.mjs (the example shop of docs/merchant-api.md) run as a shop would: its `create` makes a gift
// against this server over HTTP, its `serve` receives the webhooks and checks their signatures.

const SHOP = path.resolve(import.meta.dirname, '../../../examples/merchant/shop.mjs');
const STAFF = 'example@giftlens.test';
const run = promisify(execFile);

/** Each JSON line the process prints, as it prints it. */
function lines(child: ChildProcess) {
  const seen: Record<string, unknown>[] = [];
  const waiting: { test: (l: Record<string, unknown>) => boolean; resolve: (l: Record<string, unknown>) => void }[] = [];
  createInterface({ input: child.stdout! }).on('line', (text) => {
    const line = JSON.parse(text) as Record<string, unknown>;
    seen.push(line);
    for (const w of waiting.filter((x) => x.test(line))) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve(line);
    }
  });
  return {
    seen,
    next: (test: (l: Record<string, unknown>) => boolean) =>
      new Promise<Record<string, unknown>>((resolve) => {
        const found = seen.find(test);
        if (found) resolve(found);
        else waiting.push({ test, resolve });
      }),
  };
}

async function staffCookie(h: Harness) {
  const cookies = (res: { headers: Record<string, unknown> }) =>
    ([res.headers['set-cookie']].flat() as string[]).map((c) => c.split(';')[0] ?? '').filter((c) => c && !c.endsWith('=')).join('; ');
  await h.app.inject({ method: 'POST', url: staffApi.sendCode, payload: { email: STAFF } });
  const verified = await h.app.inject({ method: 'POST', url: staffApi.verify, payload: { email: STAFF, code: await h.readCode(STAFF) } });
  const totp = authenticator.clone({ epoch: h.clock.now().getTime() }).generate(json<StaffVerifyResponse>(verified).totpEnrolment!.secret);
  return cookies(await h.app.inject({ method: 'POST', url: staffApi.totpConfirm, payload: { totp }, headers: { cookie: cookies(verified) } }));
}

describeEachDatabase(
  'examples/merchant: the example shop creates a gift and verifies the webhooks',
  (getH) => {
    const children: ChildProcess[] = [];
    afterAll(() => children.forEach((c) => c.kill()));

    it('creates a gift over HTTP and verifies gift.message_ready; a forged call is refused', async () => {
      const h = getH();
      // The example checks the signature's time against its own clock (5 minutes either way): this server's clock is now.
      h.clock.set(new Date());
      // The shop's webhook endpoint first (its URL goes to staff), with a secret it does not know yet: restarted below.
      const cookie = await staffCookie(h);
      const made = await h.app.inject({ method: 'POST', url: staffMerchantApi.merchants, headers: { cookie }, payload: { name: 'Example Shop', webhookUrl: 'https://shop.example/hook', reason: 'example shop test' } });
      const shop = json<StaffCreateMerchantResponse>(made);
      const serve = spawn(process.execPath, [SHOP, 'serve'], { env: { ...process.env, GIFTLENS_WEBHOOK_SECRET: shop.webhookSecret, PORT: '0' } });
      children.push(serve);
      const out = lines(serve);
      const { listening } = (await out.next((l) => 'listening' in l)) as { listening: string };
      const patched = await h.app.inject({ method: 'PATCH', url: staffMerchantApi.merchant(shop.merchant.id), headers: { cookie }, payload: { webhookUrl: listening, reason: 'the shop’s endpoint' } });
      expect(patched.statusCode, patched.body).toBe(200);

      await h.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
      const env = { ...process.env, GIFTLENS_URL: base, GIFTLENS_API_KEY: shop.apiKey };
      const args = [SHOP, 'create', '--order', 'EX-1', '--buyer', uniqueEmail('buyer'), '--recipient', 'Ravi', '--photo', GIFT_PHOTO_PATH];
      const { stdout } = await run(process.execPath, args, { env });
      const gift = JSON.parse(stdout) as CreateMerchantGiftResponse;
      expect(gift).toMatchObject({ status: 'awaiting_message', giftId: expect.stringMatching(/^[0-9a-f]{32}$/) as unknown });
      // Its Idempotency-Key is the order: running it again answers the same gift.
      expect((JSON.parse((await run(process.execPath, args, { env })).stdout) as CreateMerchantGiftResponse).giftId).toBe(gift.giftId);

      const token = gift.recordUrl.split('/record/')[1]!;
      expect((await h.app.inject({ method: 'POST', url: recordApi.text(token), payload: { text: 'Happy birthday!' } })).statusCode).toBe(200);
      while ((await h.jobs.runDue()) > 0);
      const event = await out.next((l) => l.verified === true);
      expect(event).toMatchObject({ verified: true, duplicate: false, event: { type: 'gift.message_ready', giftId: gift.giftId, orderId: 'EX-1' } });

      // A call not signed with the secret is refused by the example.
      const forged = await fetch(listening, { method: 'POST', headers: { 'giftlens-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` }, body: '{}' });
      expect(forged.status).toBe(400);
      expect(await out.next((l) => 'rejected' in l)).toEqual({ rejected: 'bad signature' });
    }, 60_000);
  },
  { staffEmails: [STAFF], webhookAllowHttpHosts: ['127.0.0.1'] },
);
