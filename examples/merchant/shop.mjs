#!/usr/bin/env node
// A small example shop for the GiftLens merchant API (docs/merchant-api.md). Not part of the product: no
// dependencies, Node 20+ only. Two commands:
//
//   GIFTLENS_URL=https://giftlens.example GIFTLENS_API_KEY=gl_live_… \
//     node examples/merchant/shop.mjs create --order SHOP-1001 --buyer priya@example.com --recipient Ravi \
//       --photo ./product.jpg [--recipient-email ravi@example.com] [--release now|on_delivery|2026-12-24T18:00:00Z] \
//       [--plan premium_us] [--occasion birthday]
//     → prints the API's answer (giftId, recordUrl, backupCode, cardUrl, status, quality, lookalike) as one JSON line
//
//   GIFTLENS_WEBHOOK_SECRET=whsec_… PORT=8080 node examples/merchant/shop.mjs serve
//     → receives the webhooks at POST /giftlens/webhook, checks each signature, prints one JSON line per call
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';

/** How old a signed timestamp may be (replays of an old call are refused). */
const TOLERANCE_S = 5 * 60;

/**
 * The check every shop does on a webhook: `GiftLens-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw
 * body>">` under the webhook secret. Compare in constant time, over the raw bytes as received (not re-serialised JSON).
 */
export function verifyGiftLensSignature(header, rawBody, secret, nowSeconds = Math.floor(Date.now() / 1000)) {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!match) return false;
  const [, t, v1] = match;
  if (Math.abs(nowSeconds - Number(t)) > TOLERANCE_S) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}

/** POST /api/merchant/v1/gifts: the order's fields and the catalogue photo, with an Idempotency-Key of the order. */
export async function createGift({ baseUrl, apiKey, orderId, buyerEmail, recipientName, recipientEmail, photo, release, planId = 'premium_us', occasion = 'birthday' }) {
  const form = new FormData();
  form.set('orderId', orderId);
  form.set('buyerEmail', buyerEmail);
  form.set('recipientName', recipientName);
  if (recipientEmail) form.set('recipientEmail', recipientEmail);
  form.set('occasion', occasion);
  form.set('planId', planId);
  if (release) form.set('release', release);
  form.append('productImage', new Blob([await readFile(photo)], { type: 'image/jpeg' }), path.basename(photo));
  const res = await fetch(`${baseUrl}/api/merchant/v1/gifts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'idempotency-key': `order-${orderId}` },
    body: form,
  });
  const body = await res.json();
  if (res.status !== 201) throw new Error(`GiftLens answered ${res.status}: ${body.error}`);
  return body;
}

/** The webhook endpoint: 200 for a verified call (so GiftLens stops retrying), 400 for anything else. */
export function startWebhookReceiver({ secret, port = 0, onEvent }) {
  const seen = new Set();
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/giftlens/webhook') return void res.writeHead(404).end();
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      if (!verifyGiftLensSignature(req.headers['giftlens-signature'], raw, secret)) {
        onEvent({ rejected: 'bad signature' });
        return void res.writeHead(400).end('bad signature');
      }
      const event = JSON.parse(raw);
      // At least once: the same event id may come again after a timeout; act on it once.
      const duplicate = seen.has(event.id);
      seen.add(event.id);
      onEvent({ verified: true, duplicate, event });
      res.writeHead(200).end('ok');
    });
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

function option(args, name) {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main(argv) {
  const [command, ...args] = argv;
  const print = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);
  if (command === 'create') {
    const required = (v, what) => {
      if (!v) throw new Error(`${what} is required`);
      return v;
    };
    print(
      await createGift({
        baseUrl: required(process.env.GIFTLENS_URL, 'GIFTLENS_URL'),
        apiKey: required(process.env.GIFTLENS_API_KEY, 'GIFTLENS_API_KEY'),
        orderId: required(option(args, 'order'), '--order'),
        buyerEmail: required(option(args, 'buyer'), '--buyer'),
        recipientName: required(option(args, 'recipient'), '--recipient'),
        recipientEmail: option(args, 'recipient-email'),
        photo: required(option(args, 'photo'), '--photo'),
        release: option(args, 'release'),
        planId: option(args, 'plan'),
        occasion: option(args, 'occasion'),
      }),
    );
  } else if (command === 'serve') {
    const secret = process.env.GIFTLENS_WEBHOOK_SECRET;
    if (!secret) throw new Error('GIFTLENS_WEBHOOK_SECRET is required');
    const server = await startWebhookReceiver({ secret, port: Number(process.env.PORT ?? 0), onEvent: print });
    print({ listening: `http://127.0.0.1:${server.address().port}/giftlens/webhook` });
  } else {
    process.stderr.write('usage: shop.mjs create --order … --buyer … --recipient … --photo … | shop.mjs serve\n');
    process.exitCode = 2;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).catch((err) => {
    process.stderr.write(`${err.message}\n`);
    process.exitCode = 1;
  });
}
