import { texts } from '@giftlens/contract/texts';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { describeEachDatabase, it, json } from './helpers/harness.ts';

const dist = mkdtempSync(path.join(tmpdir(), 'giftlens-dist-'));
mkdirSync(path.join(dist, 'assets'));
writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>GiftLens</title><div id="root"></div>');
writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("install", () => {});');
writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
// The web build writes a brotli copy next to every text asset.
writeFileSync(path.join(dist, 'assets', 'index-abc123.js.br'), brotliCompressSync('console.log(1)'));

describeEachDatabase(
  'app shell',
  (get) => {
    it('serves the built web app, with an SPA fallback and revalidated shell and service worker', async () => {
      const { app } = get();
      const root = await app.inject({ method: 'GET', url: '/' });
      expect(root.statusCode).toBe(200);
      expect(root.headers['content-type']).toMatch(/text\/html/);
      expect(root.headers['cache-control']).toBe('no-cache');
      expect(root.body).toContain('<div id="root">');

      const deep = await app.inject({ method: 'GET', url: '/checkout/0123456789abcdef0123456789abcdef' });
      expect(deep.statusCode).toBe(200);
      expect(deep.body).toContain('<div id="root">');
      expect(deep.headers['cache-control']).toBe('no-cache');

      const sw = await app.inject({ method: 'GET', url: '/sw.js' });
      expect(sw.statusCode).toBe(200);
      expect(sw.headers['cache-control']).toBe('no-cache');
      expect(sw.headers['content-type']).toMatch(/javascript/);

      const asset = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    });

    it('sends the pre-compressed copy to browsers that accept it, raw bytes to others, and says it varies', async () => {
      const { app } = get();
      const br = await app.inject({
        method: 'GET',
        url: '/assets/index-abc123.js',
        headers: { 'accept-encoding': 'br' },
      });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe('console.log(1)');

      const raw = await app.inject({
        method: 'GET',
        url: '/assets/index-abc123.js',
        headers: { 'accept-encoding': 'identity' },
      });
      expect(raw.headers['content-encoding']).toBeUndefined();
      expect(raw.body).toBe('console.log(1)');
    });

    it('unknown API paths and non-GET requests get the JSON 404, not the shell', async () => {
      const { app } = get();
      const api = await app.inject({ method: 'GET', url: '/api/nothing-here' });
      expect(api.statusCode).toBe(404);
      expect(json(api)).toEqual({ success: false, error: texts.sender.notFound, code: 'not_found' });
      const post = await app.inject({ method: 'POST', url: '/somewhere', payload: {} });
      expect(post.statusCode).toBe(404);
      const media = await app.inject({ method: 'GET', url: '/media' });
      expect(media.statusCode).toBe(404);
    });

    it('reads the country from a trusted proxy header', async () => {
      const { app } = get();
      const cf = await app.inject({ method: 'GET', url: '/api/geo', headers: { 'cf-ipcountry': 'in' } });
      expect(json(cf)).toEqual({ countryCode: 'IN', source: 'cf-ipcountry' });
      const other = await app.inject({ method: 'GET', url: '/api/geo', headers: { 'x-country-code': 'DE' } });
      expect(json(other)).toEqual({ countryCode: 'DE', source: 'x-country-code' });
      const unknown = await app.inject({ method: 'GET', url: '/api/geo', headers: { 'cf-ipcountry': 'XX' } });
      expect(json(unknown)).toEqual({ countryCode: null, source: 'none' });
    });
  },
  { webDistDir: dist, trustProxy: true },
);

describeEachDatabase('plans and geo', (get) => {
  it('returns the regional plans; the server owns the prices', async () => {
    const { app } = get();
    const india = json<{ region: string; plans: { id: string; amountMinor: number; popular: boolean }[] }>(
      await app.inject({ method: 'GET', url: '/api/plans?country=IN' }),
    );
    expect(india.region).toBe('IN');
    expect(india.plans.map((p) => [p.id, p.amountMinor, p.popular])).toEqual([
      ['basic_in', 2900, false],
      ['premium_in', 9900, true],
      ['lifetime_in', 29900, false],
    ]);
    for (const url of [
      '/api/plans?country=US',
      '/api/plans?country=DE',
      '/api/plans',
      '/api/plans?country=',
    ]) {
      const body = json<{ region: string; plans: { id: string }[] }>(
        await app.inject({ method: 'GET', url }),
      );
      expect(body.region).toBe('US');
      expect(body.plans.map((p) => p.id)).toEqual(['premium_us', 'lifetime_us']);
    }
    const bad = await app.inject({ method: 'GET', url: '/api/plans?country=INDIA' });
    expect(bad.statusCode).toBe(400);
  });

  it('ignores country headers when no proxy is trusted', async () => {
    const { app } = get();
    const res = await app.inject({ method: 'GET', url: '/api/geo', headers: { 'cf-ipcountry': 'IN' } });
    expect(json(res)).toEqual({ countryCode: null, source: 'none' });
  });

  it('without a built web app every unknown path is the JSON 404', async () => {
    const { app } = get();
    const res = await app.inject({ method: 'GET', url: '/send' });
    expect(res.statusCode).toBe(404);
    expect(json(res).code).toBe('not_found');
    expect(json(await app.inject({ method: 'GET', url: '/api/health' }))).toEqual({
      success: true,
      database: 'ok',
      storage: 'ok',
      mail: 'ok',
    });
  });
});
