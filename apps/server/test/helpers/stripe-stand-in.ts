import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local HTTP server standing in for Stripe: the Checkout Sessions API the `stripe` package calls (create,
 * retrieve; form-encoded in, JSON out, Bearer key, Idempotency-Key) and a hosted payment page whose Pay button
 * completes the session, optionally sends the signed `checkout.session.completed` webhook like Stripe, and redirects
 * to the success URL. Loopback only.
 */
export interface StandInSession {
  id: string;
  object: 'checkout.session';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid';
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  success_url: string;
  cancel_url: string;
  url: string | null;
  mode: string;
  created: number;
  expires_at: number;
  livemode: false;
}

export interface StripeStandIn {
  /** http://127.0.0.1:port — the API address and the hosted pages' origin. */
  url: string;
  secretKey: string;
  webhookSecret: string;
  sessions: Map<string, StandInSession>;
  /** Every API request: method, path, form fields, headers. */
  requests: { method: string; path: string; form: URLSearchParams; headers: IncomingMessage['headers'] }[];
  /** Where a payment on the hosted page sends the signed `checkout.session.completed` (as Stripe does); null: nowhere. */
  webhookUrl: string | null;
  /** Answer every API call with this HTTP status (Stripe down) until set back to null. */
  failWith: number | null;
  /** As a card payment completing on the hosted page: complete, paid, with a PaymentIntent id. */
  pay(sessionId: string): StandInSession;
  expire(sessionId: string): StandInSession;
  /** A Stripe event about this session as its JSON body and a real `Stripe-Signature` header for it. */
  signedEvent(
    type: string,
    session: StandInSession,
    opts?: { secret?: string; timestamp?: number; id?: string },
  ): { body: string; signature: string; id: string };
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x')}`;

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += (chunk as Buffer).toString();
  return body;
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req_') });
  res.end(JSON.stringify(body));
}

const stripeError = (message: string, code?: string) => ({ error: { type: 'invalid_request_error', message, ...(code ? { code } : {}) } });

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The hosted page, small and plain: the amount, Pay and Cancel, readable on a 360 px phone. The link has its own
 * colour: the browser's :active red (3.99:1) is what axe saw when it looked mid-click.
 */
function hostedPage(s: StandInSession): string {
  const amount = `${(s.amount_total / 100).toFixed(2)} ${s.currency.toUpperCase()}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Stripe Checkout (stand-in)</title></head>
<body style="font-family:sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem">
<h1>Pay GiftLens</h1><p data-testid="amount">${escapeHtml(amount)}</p>
<form method="post" action="/pay/${encodeURIComponent(s.id)}"><button type="submit" style="font-size:1.2rem;padding:.75rem 1.5rem">Pay ${escapeHtml(amount)}</button></form>
<p><a href="${escapeHtml(s.cancel_url)}" style="color:#1d4ed8">Cancel and go back</a></p></body></html>`;
}

export async function startStripeStandIn(
  opts: { secretKey?: string; webhookSecret?: string; webhookUrl?: string } = {},
): Promise<StripeStandIn> {
  const secretKey = opts.secretKey ?? 'sk_test_standin_0123456789';
  const webhookSecret = opts.webhookSecret ?? 'whsec_standin_0123456789abcdef';
  const sessions = new Map<string, StandInSession>();
  const byIdempotencyKey = new Map<string, string>();
  const requests: StripeStandIn['requests'] = [];
  let base = '';

  const standIn: StripeStandIn = {
    url: '',
    secretKey,
    webhookSecret,
    sessions,
    requests,
    webhookUrl: opts.webhookUrl ?? null,
    failWith: null,
    pay(sessionId) {
      const s = sessions.get(sessionId);
      if (!s) throw new Error(`no session ${sessionId}`);
      Object.assign(s, { status: 'complete', payment_status: 'paid', payment_intent: id('pi_'), url: null });
      return s;
    },
    expire(sessionId) {
      const s = sessions.get(sessionId);
      if (!s) throw new Error(`no session ${sessionId}`);
      Object.assign(s, { status: 'expired', url: null });
      return s;
    },
    signedEvent(type, session, o = {}) {
      const eventId = o.id ?? id('evt_');
      const body = JSON.stringify({
        id: eventId,
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: Math.floor(Date.now() / 1000),
        type,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: { object: session },
      });
      const signature = Stripe.webhooks.generateTestHeaderString({
        payload: body,
        secret: o.secret ?? webhookSecret,
        ...(o.timestamp ? { timestamp: o.timestamp } : {}),
      });
      return { body, signature, id: eventId };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const refundsByKey = new Map<string, { id: string; payment_intent: string | null; amount: unknown; currency: unknown; object: string; status: string }>();

  async function api(req: IncomingMessage, res: ServerResponse, path: string) {
    const form = new URLSearchParams(await readBody(req));
    requests.push({ method: req.method ?? '', path, form, headers: req.headers });
    if (standIn.failWith) return send(res, standIn.failWith, { error: { type: 'api_error', message: 'stand-in down' } });
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return send(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    }
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      const key = req.headers['idempotency-key'];
      const again = typeof key === 'string' ? byIdempotencyKey.get(key) : undefined;
      if (again) return send(res, 200, sessions.get(again));
      const unit = Number(form.get('line_items[0][price_data][unit_amount]'));
      const quantity = Number(form.get('line_items[0][quantity]') ?? '1');
      const currency = form.get('line_items[0][price_data][currency]');
      const successUrl = form.get('success_url');
      const cancelUrl = form.get('cancel_url');
      if (!Number.isInteger(unit) || !currency || !successUrl || !cancelUrl || form.get('mode') !== 'payment') {
        return send(res, 400, stripeError('Missing required param'));
      }
      const metadata: Record<string, string> = {};
      for (const [k, v] of form) {
        const m = /^metadata\[(.+)\]$/.exec(k);
        if (m?.[1]) metadata[m[1]] = v;
      }
      const now = Math.floor(Date.now() / 1000);
      const sessionId = id('cs_test_');
      const session: StandInSession = {
        id: sessionId,
        object: 'checkout.session',
        status: 'open',
        payment_status: 'unpaid',
        amount_total: unit * quantity,
        currency,
        client_reference_id: form.get('client_reference_id'),
        metadata,
        payment_intent: null,
        success_url: successUrl,
        cancel_url: cancelUrl,
        url: `${base}/pay/${sessionId}`,
        mode: 'payment',
        created: now,
        expires_at: now + 24 * 3600,
        livemode: false,
      };
      sessions.set(sessionId, session);
      if (typeof key === 'string') byIdempotencyKey.set(key, sessionId);
      return send(res, 200, session);
    }
    if (req.method === 'POST' && path === '/v1/refunds') {
      // A full refund of a PaymentIntent this stand-in's checkout paid; the same idempotency key answers the same refund.
      const pi = form.get('payment_intent');
      const paid = [...sessions.values()].find((x) => x.payment_intent === pi && x.payment_status === 'paid');
      if (!paid) return send(res, 400, stripeError(`No such payment_intent: '${pi}'`, 'resource_missing'));
      const key = req.headers['idempotency-key'];
      const known = typeof key === 'string' ? refundsByKey.get(key) : undefined;
      if (known) return send(res, 200, known);
      if ([...refundsByKey.values()].some((r) => r.payment_intent === pi)) return send(res, 400, stripeError('Charge has already been refunded.', 'charge_already_refunded'));
      const refund = { id: id('re_'), object: 'refund', payment_intent: pi, amount: paid.amount_total, currency: paid.currency, status: 'succeeded' };
      refundsByKey.set(typeof key === 'string' ? key : refund.id, refund);
      return send(res, 200, refund);
    }
    const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && retrieve?.[1]) {
      const s = sessions.get(decodeURIComponent(retrieve[1]));
      return s ? send(res, 200, s) : send(res, 404, stripeError(`No such checkout.session: '${retrieve[1]}'`, 'resource_missing'));
    }
    return send(res, 404, stripeError(`Unrecognized request URL (${req.method} ${path})`));
  }

  /** The hosted page: GET shows it, POST pays, sends the webhook (when configured) and redirects like Stripe. */
  async function hosted(req: IncomingMessage, res: ServerResponse, sessionId: string) {
    const s = sessions.get(sessionId);
    if (!s || s.status !== 'open') {
      res.writeHead(410, { 'content-type': 'text/plain' });
      return res.end('This Checkout Session is no longer available.');
    }
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(hostedPage(s));
    }
    await readBody(req);
    standIn.pay(sessionId);
    if (standIn.webhookUrl) {
      const event = standIn.signedEvent('checkout.session.completed', s);
      await fetch(standIn.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
        body: event.body,
      });
    }
    res.writeHead(303, { location: s.success_url.replace('{CHECKOUT_SESSION_ID}', s.id) });
    return res.end();
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
    const pay = /^\/pay\/([^/]+)$/.exec(path);
    const handled = pay?.[1] ? hosted(req, res, decodeURIComponent(pay[1])) : api(req, res, path);
    handled.catch((err: unknown) => send(res, 500, { error: { type: 'api_error', message: String(err) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.url = base;
  return standIn;
}
