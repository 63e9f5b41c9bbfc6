
import { existsSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { texts } from '@giftlens/contract/texts';
import { expect } from 'vitest';
import { describeEachDatabase, it, json, signIn } from './helpers/harness.ts';
import { multipart } from './helpers/media.ts';
import { REACTION_WEBM } from './helpers/recipient.ts';

const GIFT = '0123456789abcdef0123456789abcdef';

describeEachDatabase('bad input', (get) => {
  it('a body that fails validation gets a user text, never zod\'s developer wording', async () => {
    const h = get();
    const post = (url: string, payload: string, type = 'application/json') =>
      h.app.inject({ method: 'POST', url, headers: { 'content-type': type }, payload });
    const notAnObject = await post('/api/verification-recipient/check-email', '"just a string"');
    expect(notAnObject.statusCode).toBe(400);
    expect(json(notAnObject)).toEqual({ success: false, error: texts.sender.generic, code: 'validation_failed' });
    const asText = await post('/api/gift-sender/send-email', 'hello', 'text/plain');
    expect(json(asText)).toMatchObject({ success: false, error: texts.sender.generic, code: 'validation_failed' });
    // The spec's text where it has one: the payment page reads the server's error, else 'Verification failed'.
    const payment = await post('/api/payment/verify-payment-callback', '{"orderId":"order_X"}');
    expect(json(payment)).toEqual({ success: false, error: texts.sender.paymentVerificationFailed, code: 'validation_failed' });
    const body = multipart({ reactionId: 'a'.repeat(32) }, [
      { name: 'reaction', filename: 'r.webm', type: 'video/webm', data: readFileSync(REACTION_WEBM) },
    ]);
    const reaction = await h.app.inject({ method: 'POST', url: '/api/reactions/upload', headers: body.headers, payload: body.payload });
    expect(json(reaction)).toEqual({ success: false, error: texts.recipient.uploadFailed, code: 'validation_failed' });
    const email = await post('/api/gift-sender/send-email', '{"email":"not-an-email","type":"sender"}');
    expect(json(email)).toMatchObject({ error: texts.sender.invalidEmail, code: 'validation_failed' });
  });

  it('the router\'s own refusals (a bad %-escape, an over-long path parameter) keep the error body', async () => {
    const h = get();
    const badEscape = await h.app.inject({ method: 'GET', url: '/api/verification-recipient/verify-gift/%E0%A4%A' });
    expect(badEscape.statusCode).toBe(400);
    expect(json(badEscape)).toEqual({ success: false, error: texts.sender.generic, code: 'FST_ERR_BAD_URL' });
    const longParam = await h.app.inject({ method: 'GET', url: `/api/verification-recipient/verify-gift/${'x'.repeat(200)}` });
    expect(longParam.statusCode).toBe(414);
    expect(json(longParam)).toEqual({ success: false, error: texts.sender.generic, code: 'FST_ERR_MAX_PARAM_LENGTH' });
  });

  it('a multipart body without a boundary is a 400 with the call\'s own text, not a 500', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const urls = [
      '/api/gift-sender/submit-gift',
      `/api/gift-sender/gifts/${GIFT}/photos`,
      `/api/verification-recipient/process-scan/${GIFT}`,
      `/api/verification-recipient/live-frame/${GIFT}`,
      '/api/reactions/upload',
      '/api/demo/scan/birthday',
    ];
    for (const url of urls) {
      const res = await h.app.inject({
        method: 'POST',
        url,
        headers: { cookie, 'content-type': 'multipart/form-data' },
        payload: 'not a multipart body',
      });
      expect(res.statusCode, url).toBe(400);
      expect(json(res).success, url).toBe(false);
      expect(json(res).code, url).not.toBe('internal');
    }
  });

  it('a multipart body sent to a call that takes JSON is a 415 with the error body; the multipart calls still read theirs', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const form = multipart({ recipientName: 'Maya', recipientEmail: 'maya@example.com', occasion: 'birthday', planId: 'premium_us' }, []);
    for (const url of ['/api/gift-sender/update-user', '/api/gift-sender/send-email', '/api/verification-recipient/check-email']) {
      const res = await h.app.inject({ method: 'POST', url, headers: { ...form.headers, cookie }, payload: form.payload });
      expect(res.statusCode, url).toBe(415);
      expect(json(res), url).toEqual({ success: false, error: texts.sender.generic, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' });
      expect(res.headers['cache-control'], url).toBe('no-store');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
    // The same form to a call that takes multipart is read: here it lacks the photo, so the call's own text.
    const submit = await h.app.inject({ method: 'POST', url: '/api/gift-sender/submit-gift', headers: { ...form.headers, cookie }, payload: form.payload });
    expect(submit.statusCode).toBe(400);
    expect(json(submit)).toEqual({ success: false, error: texts.sender.giftImageRequired, code: 'gift_image_required' });
  });

  // Over a real socket: the client sends part of a file and stops (light-my-request cannot end a body early).
  it('a truncated multipart body is a 400, not a 500 or a hang, and leaves no temporary file', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = h.app.server.address() as AddressInfo;
    const boundary = '----giftlens';
    const cases = [
      ['/api/gift-sender/submit-gift', 'giftImage'],
      [`/api/verification-recipient/process-scan/${GIFT}`, 'scan'],
      [`/api/verification-recipient/live-frame/${GIFT}`, 'scan'],
      ['/api/reactions/upload', 'reaction'],
    ] as const;
    for (const [url, name] of cases) {
      const body =
        `--${boundary}\r\nContent-Disposition: form-data; name="reactionId"\r\n\r\nabc\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="a.webm"\r\n\r\n\x1aE\xdf\xa3 partial`;
      const head =
        `POST ${url} HTTP/1.1\r\nHost: localhost\r\nCookie: ${cookie}\r\nConnection: close\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.write(head + body));
        let out = '';
        socket.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\r\n\r\n')) socket.destroy();
        });
        socket.on('close', () => resolve(out));
        socket.on('error', reject);
        setTimeout(() => socket.destroy(), 5000);
      });
      expect(answer.split('\r\n')[0], url).toBe('HTTP/1.1 400 Bad Request');
    }
    const tmp = path.join(h.mediaDir, '.tmp');
    expect(existsSync(tmp) ? await readdir(tmp) : []).toEqual([]);
  });
});
