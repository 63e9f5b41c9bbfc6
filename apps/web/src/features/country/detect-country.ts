import { GeoResponse } from '@giftlens/contract/plans-api';
import { API } from '@giftlens/contract/routes';
import { apiRequest } from '../../lib/api-client.ts';
import { DEFAULT_COUNTRY_CODE, isCountryCode } from './countries.ts';

/** The visitor's country: `source` names who answered (a service, browser-locale, session- or default-fallback). */
export interface CountryInfo {
  countryCode: string;
  source: string;
}

/** One way of learning the visitor's country; answers a country code or null, within its time-out. */
export interface CountrySource {
  name: string;
  timeoutMs: number;
  lookup: (signal: AbortSignal) => Promise<unknown>;
}

export const LOCAL_CACHE_KEY = 'countryData';
export const SESSION_KEY = 'sessionCountryData';
const HOUR = 60 * 60 * 1000;
export const CACHE_TTL_MS = 24 * HOUR;
/** A guess from the browser language is kept only ~6 hours so a real answer replaces it soon. */
export const LOCALE_CACHE_TTL_MS = 6 * HOUR;
const SERVER_GEO_TIMEOUT_MS = 4000;

interface CachedCountry extends CountryInfo {
  timestamp: number;
  expiresAt: number;
}

/** Our own server first: it reads a trusted proxy header or its GeoIP table, so no third party is called. */
export const serverGeoSource: CountrySource = {
  name: 'giftlens-geo',
  timeoutMs: SERVER_GEO_TIMEOUT_MS,
  lookup: async (signal) =>
    (await apiRequest('GET', API.geo, undefined, { fallbackError: 'geo', schema: GeoResponse, signal }))
      .countryCode,
};

/**
 * Public IP services run only when the deployment lists them, as "url|timeoutMs" entries separated by commas
 * in VITE_COUNTRY_IP_SERVICES. None by default: the visitor's IP goes to nobody but us.
 */
export function configuredIpSources(list: string | undefined = import.meta.env.VITE_COUNTRY_IP_SERVICES): CountrySource[] {
  if (!list) return [];
  return list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [url = '', timeout] = entry.split('|');
      return {
        name: new URL(url).hostname,
        timeoutMs: Number(timeout) || 4000,
        lookup: async (signal: AbortSignal) => {
          const res = await fetch(url, { signal, credentials: 'omit' });
          if (!res.ok) return null;
          const body = (await res.json()) as Record<string, unknown>;
          return body.countryCode ?? body.country_code ?? body.country ?? null;
        },
      };
    });
}

function normalise(value: unknown): string | null {
  const code = typeof value === 'string' ? value.trim().toUpperCase() : null;
  return isCountryCode(code) ? code : null;
}

/** Runs every source at once; the first valid country wins and the others are cancelled. */
export async function raceSources(sources: readonly CountrySource[]): Promise<{ countryCode: string; source: string } | null> {
  if (sources.length === 0) return null;
  const controllers = sources.map(() => new AbortController());
  try {
    return await Promise.any(
      sources.map(async (source, i) => {
        const controller = controllers[i]!;
        const timer = setTimeout(() => controller.abort(), source.timeoutMs);
        try {
          const code = normalise(await source.lookup(controller.signal));
          if (!code) throw new Error(`${source.name} gave no country`);
          return { countryCode: code, source: source.name };
        } finally {
          clearTimeout(timer);
        }
      }),
    );
  } catch {
    return null;
  } finally {
    for (const c of controllers) c.abort();
  }
}

/** The region of the first browser language that names one ("fr-CA" → "CA"; "fr" → nothing). */
export function localeRegion(languages: readonly string[]): string | null {
  for (const tag of languages) {
    try {
      const region = normalise(new Intl.Locale(tag).region);
      if (region) return region;
    } catch {
      // A malformed language tag: try the next one.
    }
  }
  return null;
}

function readJson(storage: Storage | undefined, key: string): unknown {
  try {
    const raw = storage?.getItem(key);
    return raw ? (JSON.parse(raw) as unknown) : null;
  } catch {
    return null;
  }
}

function writeJson(storage: Storage | undefined, key: string, value: unknown): void {
  try {
    storage?.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: detection simply runs again next time.
  }
}

function asCountryInfo(value: unknown): CountryInfo | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const countryCode = normalise(v.countryCode);
  if (!countryCode || typeof v.source !== 'string') return null;
  return { countryCode, source: v.source };
}

export function readCachedCountry(storage: Storage | undefined, now: number): CountryInfo | null {
  const cached = readJson(storage, LOCAL_CACHE_KEY) as Partial<CachedCountry> | null;
  const info = asCountryInfo(cached);
  if (!info || typeof cached?.timestamp !== 'number') return null;
  const expiresAt = typeof cached.expiresAt === 'number' ? cached.expiresAt : cached.timestamp + CACHE_TTL_MS;
  const fresh = now - cached.timestamp < CACHE_TTL_MS && now < expiresAt;
  return fresh ? info : null;
}

export interface DetectOptions {
  sources?: readonly CountrySource[];
  languages?: readonly string[];
  local?: Storage | undefined;
  session?: Storage | undefined;
  now?: () => number;
}

function browserStorage(kind: 'localStorage' | 'sessionStorage'): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window[kind];
  } catch {
    return undefined;
  }
}

/**
 * The visitor's country, first answer wins: the local cache (< 24 h) → our server's /api/geo raced with any
 * configured IP services (no third-party service by default) → a country found earlier this session →
 * the browser language's region (kept ~6 h) → US.
 */
export async function detectCountry(options: DetectOptions = {}): Promise<CountryInfo> {
  const {
    sources = [serverGeoSource, ...configuredIpSources()],
    languages = typeof navigator === 'undefined' ? [] : navigator.languages ?? [navigator.language],
    local = browserStorage('localStorage'),
    session = browserStorage('sessionStorage'),
    now = Date.now,
  } = options;

  const cached = readCachedCountry(local, now());
  if (cached) return cached;

  const remember = (info: CountryInfo, ttlMs: number): CountryInfo => {
    const timestamp = now();
    writeJson(local, LOCAL_CACHE_KEY, { ...info, timestamp, expiresAt: timestamp + ttlMs });
    writeJson(session, SESSION_KEY, info);
    return info;
  };
  const raced = await raceSources(sources);
  if (raced) return remember({ countryCode: raced.countryCode, source: raced.source }, CACHE_TTL_MS);

  const earlier = asCountryInfo(readJson(session, SESSION_KEY));
  if (earlier) return { ...earlier, source: 'session-fallback' };

  const region = localeRegion(languages);
  if (region) return remember({ countryCode: region, source: 'browser-locale' }, LOCALE_CACHE_TTL_MS);

  return { countryCode: DEFAULT_COUNTRY_CODE, source: 'default-fallback' };
}
