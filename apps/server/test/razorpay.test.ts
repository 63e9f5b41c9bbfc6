import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createRazorpayProvider } from '../src/adapters/payments.ts';

// A local HTTP server standing in for api.razorpay.com: the adapter's real fetch call goes over loopback.
const seen: { url?: string; headers?: IncomingHttpHeaders; body?: string }[] = [];
let status = 200;
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    seen.push({ url: req.url, headers: req.headers, body });
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(status === 200 ? JSON.stringify({ id: 'order_RZP00000000001', amount: 9900 }) : '{"error":{}}');
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const keys = { keyId: 'rzp_test_key', keySecret: 'rzp_secret', webhookSecret: 'wh_secret' };

describe('Razorpay adapter', () => {
  it('creates an order through the Orders API with basic auth and the server-side amount', async () => {
    const provider = createRazorpayProvider(keys, fetch, baseUrl);
    const { orderId } = await provider.createOrder({ amountMinor: 9900, currency: 'INR', receipt: 'gift_abc' });
    expect(orderId).toBe('order_RZP00000000001');
    const req = seen.at(-1);
    expect(req?.url).toBe('/v1/orders');
    expect(req?.headers?.authorization).toBe(`Basic ${Buffer.from('rzp_test_key:rzp_secret').toString('base64')}`);
    expect(JSON.parse(req?.body ?? '{}')).toEqual({ amount: 9900, currency: 'INR', receipt: 'gift_abc' });
    expect(provider).toMatchObject({ name: 'razorpay', keyId: 'rzp_test_key' });
  });

  it('fails loudly when Razorpay refuses', async () => {
    status = 401;
    const provider = createRazorpayProvider(keys, fetch, baseUrl);
    await expect(provider.createOrder({ amountMinor: 199, currency: 'USD', receipt: 'r' })).rejects.toThrow(/HTTP 401/);
    status = 200;
  });

  it('checks the checkout callback exactly like Razorpay signs it (HMAC-SHA256 of "order|payment")', () => {
    const provider = createRazorpayProvider({ keyId: 'k', keySecret: 'secret', webhookSecret: 'w' });
    // Reference value computed independently: echo -n 'order_X|pay_Y' | openssl dgst -sha256 -hmac secret
    const reference = 'bff0253d929e5412fff37172ea2b01ce8c27545979cf78d688763d7eb9307cef';
    expect(provider.verifyCheckout('order_X', 'pay_Y', reference)).toBe(true);
    expect(provider.verifyCheckout('order_X', 'pay_Y', reference.toUpperCase())).toBe(true);
    expect(provider.verifyCheckout('order_X', 'pay_Z', reference)).toBe(false);
    expect(provider.verifyWebhook(Buffer.from('{}'), undefined)).toBe(false);
  });
});
