import type { GeoResponse } from '@giftlens/contract/plans-api';
import type { IncomingHttpHeaders } from 'node:http';
import type { IpCountry } from '../../adapters/ip-country.ts';

// Headers a CDN or proxy in front of us sets; only believed when TRUST_PROXY says a proxy is there.
const COUNTRY_HEADERS = ['cf-ipcountry', 'x-country-code'] as const;

/** What answers when the country came from the embedded IP table (decision 040). */
export const IP_TABLE_SOURCE = 'ip-table';

export function countryFromHeaders(headers: IncomingHttpHeaders, trustProxy: boolean): GeoResponse {
  if (!trustProxy) return { countryCode: null, source: 'none' };
  for (const name of COUNTRY_HEADERS) {
    const raw = headers[name];
    const value = (Array.isArray(raw) ? raw[0] : raw)?.trim().toUpperCase();
    // XX = unknown, T1 = Tor at Cloudflare: neither is a country.
    if (value && /^[A-Z]{2}$/.test(value) && value !== 'XX' && value !== 'T1') {
      return { countryCode: value, source: name };
    }
  }
  return { countryCode: null, source: 'none' };
}

/**
 * The visitor's country: a trusted proxy's country header first, then the embedded IP table for the client
 * address (`ip`: Fastify's request.ip, which follows TRUST_PROXY: the socket's peer, or the X-Forwarded-For entry
 * the trusted proxies name). A private or unknown address answers null: the browser falls back to its language.
 */
export function visitorCountry(headers: IncomingHttpHeaders, ip: string, trustProxy: boolean, table: IpCountry): GeoResponse {
  const fromProxy = countryFromHeaders(headers, trustProxy);
  if (fromProxy.countryCode) return fromProxy;
  const code = table.lookup(ip);
  return code ? { countryCode: code, source: IP_TABLE_SOURCE } : { countryCode: null, source: 'none' };
}
