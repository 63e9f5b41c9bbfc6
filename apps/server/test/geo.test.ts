import { GeoResponse } from '@giftlens/contract/plans-api';
import { expect } from 'vitest';
import { embeddedIpCountry } from '../src/adapters/ip-country.ts';
import { describeEachDatabase, it, json, type Harness } from './helpers/harness.ts';

// Real addresses of both regions (decision 040): Jio and BSNL in India; Google and Apple in the US.
const INDIA = ['49.44.67.1', '117.192.1.1', '2405:200:1607::1'];
const US = ['8.8.8.8', '17.253.144.10', '2001:4860:4860::8888'];

const geo = async (h: Harness, remoteAddress: string, headers: Record<string, string> = {}) =>
  GeoResponse.parse(json(await h.app.inject({ method: 'GET', url: '/api/geo', remoteAddress, headers })));

describeEachDatabase('GET /api/geo from the embedded IP table, no proxy trusted', (get) => {
  it('answers the country of the client address, for both regions, with no third party and no account', async () => {
    const h = get();
    for (const ip of [...INDIA, '::ffff:49.44.67.1']) expect(await geo(h, ip), ip).toEqual({ countryCode: 'IN', source: 'ip-table' });
    for (const ip of US) expect(await geo(h, ip), ip).toEqual({ countryCode: 'US', source: 'ip-table' });
    // A private or loopback address has no country: the browser falls back to its language.
    // (The published table itself places some of them in a country: 192.168.0.0/16 and 203.0.113.0/24 in AU.)
    for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '10.1.2.3', '192.168.1.20', '203.0.113.5', 'fd00::1', '100.64.0.1']) expect(await geo(h, ip), ip).toEqual({ countryCode: null, source: 'none' });
  });

  it('believes neither X-Forwarded-For nor a country header from a client when no proxy is trusted', async () => {
    const h = get();
    expect(await geo(h, '8.8.8.8', { 'x-forwarded-for': '49.44.67.1', 'cf-ipcountry': 'IN' })).toEqual({ countryCode: 'US', source: 'ip-table' });
    expect(await geo(h, '49.44.67.1', { 'x-forwarded-for': '8.8.8.8', 'x-country-code': 'US' })).toEqual({ countryCode: 'IN', source: 'ip-table' });
  });
});

describeEachDatabase(
  'GET /api/geo behind one trusted proxy (TRUST_PROXY=1)',
  (get) => {
    it('looks up the client address the proxy names; a country header the proxy sets comes first', async () => {
      const h = get();
      // The proxy connects from loopback and appends the client's address.
      expect(await geo(h, '127.0.0.1', { 'x-forwarded-for': '49.44.67.1' })).toEqual({ countryCode: 'IN', source: 'ip-table' });
      expect(await geo(h, '127.0.0.1', { 'x-forwarded-for': '49.44.67.1, 8.8.8.8' })).toEqual({ countryCode: 'US', source: 'ip-table' });
      expect(await geo(h, '127.0.0.1', { 'x-forwarded-for': '8.8.8.8', 'cf-ipcountry': 'IN' })).toEqual({ countryCode: 'IN', source: 'cf-ipcountry' });
      // A header saying "unknown" does not hide what the table knows.
      expect(await geo(h, '127.0.0.1', { 'x-forwarded-for': '49.44.67.1', 'cf-ipcountry': 'XX' })).toEqual({ countryCode: 'IN', source: 'ip-table' });
    });
  },
  { trustProxy: 1 },
);

describeEachDatabase('the embedded IP table', () => {
  it('is read once and answers a lookup in microseconds', () => {
    const table = embeddedIpCountry();
    expect(embeddedIpCountry()).toBe(table);
    expect(table.lookup('not an address')).toBeNull();
    const started = process.hrtime.bigint();
    for (let i = 0; i < 10_000; i++) table.lookup(`49.44.${i & 255}.${(i >> 8) & 255}`);
    const microseconds = Number(process.hrtime.bigint() - started) / 1000 / 10_000;
    // About 3 µs on this 2-core machine; a generous bound for a loaded CI.
    expect(microseconds).toBeLessThan(200);
  });
});
