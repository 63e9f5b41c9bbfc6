import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { preferredChannel, WHATSAPP_COUNTRIES } from './countries.ts';
import {
  CACHE_TTL_MS,
  detectCountry,
  LOCAL_CACHE_KEY,
  LOCALE_CACHE_TTL_MS,
  localeRegion,
  raceSources,
  SESSION_KEY,
  type CountrySource,
} from './detect-country.ts';

/** In-memory Storage, so detection runs as it does in a browser. */
function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (k) => data.get(k) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (k) => void data.delete(k),
    setItem: (k, v) => void data.set(k, v),
  };
}

const answer = (name: string, value: unknown, delayMs = 0, timeoutMs = 1000): CountrySource => ({
  name,
  timeoutMs,
  lookup: (signal) =>
    new Promise((resolve, reject) => {
      const t = setTimeout(() => resolve(value), delayMs);
      signal.addEventListener('abort', () => {
        clearTimeout(t);
        reject(new Error('aborted'));
      });
    }),
});
const failing = (name: string): CountrySource => ({ name, timeoutMs: 1000, lookup: () => Promise.reject(new Error('down')) });

describe('channel', () => {
  it('lists 46 WhatsApp-preferring countries; unknown means e-mail', () => {
    expect(WHATSAPP_COUNTRIES.size).toBe(46);
    expect(preferredChannel('br')).toBe('whatsapp');
    expect(preferredChannel('IN')).toBe('whatsapp');
    expect(preferredChannel('DE')).toBe('email');
    expect(preferredChannel(undefined)).toBe('email');
  });
});

describe('country sources', () => {
  // The sources' delays and time-outs run on fake timers: the order is the subject, not the clock.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('takes the first valid answer and ignores invalid or failed ones', async () => {
    const race = raceSources([failing('a'), answer('b', 'zzz', 5), answer('c', 'in', 20), answer('d', 'GB', 60)]);
    await vi.runAllTimersAsync();
    expect(await race).toEqual({ countryCode: 'IN', source: 'c' });
  });

  it('gives up on a source after its time-out', async () => {
    let result: unknown = 'pending';
    void raceSources([answer('slow', 'FR', 200, 20)]).then((r) => (result = r));
    await vi.advanceTimersByTimeAsync(19);
    expect(result).toBe('pending');
    // At its time-out, long before its answer would come.
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toBeNull();
  });

  it('reads the region of the first language that names one', () => {
    expect(localeRegion(['fr', 'es-419', 'pt-BR'])).toBe('BR');
    expect(localeRegion(['en'])).toBeNull();
  });
});

describe('detectCountry', () => {
  const now = () => 1_000_000_000_000;

  it('uses a cache younger than 24 hours without asking anyone', async () => {
    const local = memoryStorage();
    local.setItem(LOCAL_CACHE_KEY, JSON.stringify({ countryCode: 'IN', source: 'giftlens-geo', timestamp: now() - 1000, expiresAt: now() + CACHE_TTL_MS }));
    const info = await detectCountry({ sources: [failing('geo')], languages: [], local, session: memoryStorage(), now });
    expect(info).toEqual({ countryCode: 'IN', source: 'giftlens-geo' });
  });

  it('asks again when the cache is 24 hours old, and caches the winner for 24 hours', async () => {
    const local = memoryStorage();
    const session = memoryStorage();
    local.setItem(LOCAL_CACHE_KEY, JSON.stringify({ countryCode: 'IN', source: 'x', timestamp: now() - CACHE_TTL_MS, expiresAt: now() + 1 }));
    const info = await detectCountry({ sources: [answer('giftlens-geo', 'gb')], languages: [], local, session, now });
    expect(info).toEqual({ countryCode: 'GB', source: 'giftlens-geo' });
    expect(JSON.parse(local.getItem(LOCAL_CACHE_KEY)!)).toMatchObject({ countryCode: 'GB', timestamp: now(), expiresAt: now() + CACHE_TTL_MS });
    expect(JSON.parse(session.getItem(SESSION_KEY)!)).toMatchObject({ countryCode: 'GB' });
  });

  it('falls back to the browser locale (kept 6 hours), then to the US', async () => {
    const local = memoryStorage();
    const byLocale = await detectCountry({ sources: [failing('geo')], languages: ['de-AT'], local, session: memoryStorage(), now });
    expect(byLocale).toEqual({ countryCode: 'AT', source: 'browser-locale' });
    expect(JSON.parse(local.getItem(LOCAL_CACHE_KEY)!)).toMatchObject({ expiresAt: now() + LOCALE_CACHE_TTL_MS });

    const fallback = await detectCountry({ sources: [failing('geo')], languages: ['en'], local: memoryStorage(), session: memoryStorage(), now });
    expect(fallback).toEqual({ countryCode: 'US', source: 'default-fallback' });
  });

  it('prefers a country found earlier this session over the locale', async () => {
    const session = memoryStorage();
    // Written by an earlier version, which also kept the calling code: read all the same, without it.
    session.setItem(SESSION_KEY, JSON.stringify({ countryCode: 'IN', callingCode: '91', source: 'giftlens-geo' }));
    const info = await detectCountry({ sources: [failing('geo')], languages: ['fr-FR'], local: memoryStorage(), session, now });
    expect(info).toEqual({ countryCode: 'IN', source: 'session-fallback' });
  });
});
