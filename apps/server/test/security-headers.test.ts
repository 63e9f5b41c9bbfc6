import { texts } from '@giftlens/contract/texts';
import { createHash } from 'node:crypto';
import { connect, type AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, vi } from 'vitest';
import { API_DOCS_PATH } from '../src/plugins/response-headers.ts';
import { describeEachDatabase, it } from './helpers/harness.ts';

// A built shell with one inline boot script, as the web build writes it.
const BOOT = "(function(){document.getElementById('root').replaceChildren()})()";
const dist = mkdtempSync(path.join(tmpdir(), 'giftlens-dist-'));
mkdirSync(path.join(dist, 'assets'));
writeFileSync(path.join(dist, 'assets/app.js'), 'export {};');
const writeShell = () => {
  writeFileSync(path.join(dist, 'index.html'), `<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div><script>${BOOT}</script></body></html>`);
  utimesSync(path.join(dist, 'index.html'), new Date(), new Date(Date.now() + 10_000));
};
writeShell();
const bootHash = `'sha256-${createHash('sha256').update(BOOT).digest('base64')}'`;

function directives(header: string | string[] | number | undefined): Map<string, string[]> {
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describeEachDatabase(
  'browser security headers',
  (get) => {
    it('the shell answers with a strict CSP, no framing, nosniff and a referrer policy', async () => {
      const h = get();
      for (const url of ['/', '/send', API_DOCS_PATH]) {
        const res = await h.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        const csp = directives(res.headers['content-security-policy']);
        expect(csp.get('default-src'), url).toEqual(["'self'"]);
        expect(csp.get('script-src'), url).toEqual(["'self'", bootHash]);
        expect(csp.get('frame-ancestors'), url).toEqual(["'none'"]);
        expect(csp.get('object-src'), url).toEqual(["'none'"]);
        expect(csp.has('upgrade-insecure-requests'), `${url}: plain http is not upgraded`).toBe(false);
        expect(res.headers['x-content-type-options'], url).toBe('nosniff');
        expect(res.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
        expect(res.headers['strict-transport-security'], `${url}: no HSTS on http`).toBeUndefined();
      }
    });

    it('every directive of the page policy is one Chromium, Firefox and WebKit all know: no browser logs an error for it', async () => {
      const h = get();
      // CSP Level 3 directives that every engine we test in (Chromium, Firefox ESR, WebKitGTK) implements; WebKit
      // logs "Unrecognized Content-Security-Policy directive" for anything else (manifest-src, prefetch-src, …).
      const known = new Set([
        'default-src', 'script-src', 'style-src', 'img-src', 'media-src', 'font-src', 'connect-src', 'frame-src',
        'worker-src', 'child-src', 'object-src', 'base-uri', 'form-action', 'frame-ancestors', 'upgrade-insecure-requests',
      ]);
      for (const url of ['/', '/send', API_DOCS_PATH]) {
        const csp = directives((await h.app.inject({ method: 'GET', url })).headers['content-security-policy']);
        expect([...csp.keys()].filter((name) => !known.has(name)), url).toEqual([]);
      }
    });

    it('every page and file carries the whole set, failures too, once each', async () => {
      const h = get();
      const answers = {
        shell: await h.app.inject({ method: 'GET', url: '/' }),
        file: await h.app.inject({ method: 'GET', url: '/assets/app.js' }),
        missingFile: await h.app.inject({ method: 'GET', url: '/assets/nothing-here.js' }),
        media: await h.app.inject({ method: 'GET', url: '/media/nothing-here.mp4' }),
        badEscape: await h.app.inject({ method: 'GET', url: '/media/gifts/%zz' }),
      };
      for (const [name, res] of Object.entries(answers)) {
        expect(res.statusCode, name).toBeLessThan(500);
        expect(res.headers, name).toMatchObject({
          'x-content-type-options': 'nosniff',
          'x-frame-options': 'DENY',
          'referrer-policy': 'strict-origin-when-cross-origin',
          'cross-origin-opener-policy': 'same-origin-allow-popups',
          'cross-origin-resource-policy': 'same-origin',
          'origin-agent-cluster': '?1',
          'x-dns-prefetch-control': 'off',
          'x-download-options': 'noopen',
          'x-permitted-cross-domain-policies': 'none',
          'x-xss-protection': '0',
        });
        const csp = res.headers['content-security-policy'];
        expect(typeof csp, `${name}: one policy, not a list`).toBe('string');
        expect(directives(csp).get('frame-ancestors'), name).toEqual(["'none'"]);
      }
    });

    it('every API answer, failures too, carries the JSON set: loads nothing, framed nowhere, never stored', async () => {
      const h = get();
      const answers = {
        plans: await h.app.inject({ method: 'GET', url: '/api/plans' }),
        notFound: await h.app.inject({ method: 'GET', url: '/api/nothing-here' }),
        refused: await h.app.inject({ method: 'GET', url: '/api/verification-recipient/verify-gift/not-an-id' }),
        badJson: await h.app.inject({ method: 'POST', url: '/api/verification-recipient/check-email', headers: { 'content-type': 'application/json' }, payload: '{' }),
        noSession: await h.app.inject({ method: 'GET', url: '/api/gift-sender/me' }),
        // refused by the router itself, before any hook
        badEscape: await h.app.inject({ method: 'GET', url: '/api/gift-sender/gifts/%zz' }),
        // the router decodes the escape and reaches the API call
        escapedPrefix: await h.app.inject({ method: 'GET', url: '/%61pi/plans' }),
      };
      for (const [name, res] of Object.entries(answers)) {
        expect(res.statusCode, name).toBeLessThan(500);
        expect(res.headers['content-type'], name).toMatch(/^application\/json/);
        const csp = res.headers['content-security-policy'];
        expect(typeof csp, `${name}: one policy, not a list`).toBe('string');
        expect(directives(csp), name).toEqual(new Map([['default-src', ["'none'"]], ['frame-ancestors', ["'none'"]]]));
        expect(res.headers, name).toMatchObject({
          'x-content-type-options': 'nosniff',
          'referrer-policy': 'strict-origin-when-cross-origin',
          'cross-origin-resource-policy': 'same-origin',
          'cache-control': 'no-store',
        });
        for (const documentOnly of ['x-frame-options', 'cross-origin-opener-policy', 'origin-agent-cluster', 'x-xss-protection']) {
          expect(res.headers[documentOnly], `${name}: ${documentOnly}`).toBeUndefined();
        }
      }
    });

    it('requests the HTTP parser refuses get the JSON body and the API set on the socket, then it closes', async () => {
      const h = get();
      await h.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = h.app.server.address() as AddressInfo;
      /** Sends `request` from a client that never closes its own side (allowHalfOpen): the server must close it. */
      const raw = (request: string) =>
        new Promise<string>((resolve, reject) => {
          const chunks: Buffer[] = [];
          const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => socket.write(request));
          socket.on('data', (c: Buffer) => chunks.push(c));
          socket.on('error', reject);
          socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
        });
      const openConnections = () =>
        new Promise<number>((resolve, reject) => h.app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
      const cases = {
        framedTwice: [400, 'POST /api/plans HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n'],
        controlByte: [400, 'GET /send HTTP/1.1\r\nHost: x\r\nX-Odd: a\x01b\r\n\r\n'],
        hugeHeaders: [431, `GET /send HTTP/1.1\r\nHost: x\r\nCookie: a=${'x'.repeat(20_000)}\r\n\r\n`],
      } as const;
      for (const [name, [status, request]] of Object.entries(cases)) {
        const answer = await raw(request);
        const [head = '', body = ''] = answer.split('\r\n\r\n');
        const [statusLine, ...lines] = head.split('\r\n');
        expect(statusLine, name).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
        const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
        expect(directives(headers.get('content-security-policy')), name).toEqual(new Map([['default-src', ["'none'"]], ['frame-ancestors', ["'none'"]]]));
        expect(headers.get('x-content-type-options'), name).toBe('nosniff');
        expect(headers.get('referrer-policy'), name).toBe('strict-origin-when-cross-origin');
        expect(headers.get('cache-control'), name).toBe('no-store');
        expect(headers.get('content-type'), name).toMatch(/^application\/json/);
        expect(Number(headers.get('content-length')), name).toBe(Buffer.byteLength(body));
        const parsed = JSON.parse(body) as { success: boolean; error: string; code: string };
        expect(parsed, name).toEqual({ success: false, error: texts.sender.generic, code: parsed.code });
        expect(parsed.code, name).toMatch(/^[a-z_]+$/);
        await vi.waitUntil(async () => (await openConnections()) === 0, { timeout: 2000, interval: 20 });
      }
    });

    it('a rebuilt shell is allowed by its new hash without a restart', async () => {
      const h = get();
      const rebuilt = "(function(){window.rebuilt=1})()";
      writeFileSync(path.join(dist, 'index.html'), `<!doctype html><html><body><div id="root"></div><script>${rebuilt}</script></body></html>`);
      utimesSync(path.join(dist, 'index.html'), new Date(), new Date(Date.now() + 5000));
      try {
        const hash = `'sha256-${createHash('sha256').update(rebuilt).digest('base64')}'`;
        // The shell is looked at again at most once a second: wait for the request that sees the rebuild.
        const res = await vi.waitFor(
          async () => {
            const answer = await h.app.inject({ method: 'GET', url: '/' });
            expect(directives(answer.headers['content-security-policy']).get('script-src')).toContain(hash);
            return answer;
          },
          { timeout: 10_000, interval: 100 },
        );
        expect(directives(res.headers['content-security-policy']).get('script-src')).toEqual([
          "'self'",
          `'sha256-${createHash('sha256').update(rebuilt).digest('base64')}'`,
        ]);
      } finally {
        writeShell();
      }
    });
  },
  { webDistDir: dist },
);

describeEachDatabase(
  'browser security headers on https',
  (get) => {
    it('adds HSTS to every answer and upgrades insecure requests on the pages', async () => {
      const h = get();
      const page = await h.app.inject({ method: 'GET', url: '/' });
      const api = await h.app.inject({ method: 'GET', url: '/api/plans' });
      for (const res of [page, api]) expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+; includeSubDomains$/);
      expect(directives(page.headers['content-security-policy']).has('upgrade-insecure-requests')).toBe(true);
    });
  },
  { webDistDir: dist, secureCookies: true },
);

describeEachDatabase(
  'browser security headers with media on S3',
  (get) => {
    it('the bucket origin is allowed for uploads and media only when S3 is configured', async () => {
      const h = get();
      const origin = h.media.browserOrigin ?? '';
      expect(origin).toBe(h.s3?.settings.endpoint);
      const csp = directives((await h.app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
      for (const name of ['connect-src', 'img-src', 'media-src']) expect(csp.get(name), name).toContain(origin);
      expect(csp.get('script-src')).not.toContain(origin);
      expect(csp.get('default-src')).toEqual(["'self'"]);
    });
  },
  { storage: 's3' },
);

describeEachDatabase('browser security headers with media on local files', (get) => {
  it('no other origin for media', async () => {
    const csp = directives((await get().app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('media-src')).toEqual(["'self'", 'blob:']);
  });
});
