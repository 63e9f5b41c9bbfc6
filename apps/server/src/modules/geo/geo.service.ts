import type { GeoResponse } from '@giftlens/contract/plans-api';
import type { IncomingHttpHeaders } from 'node:http';

// Headers a CDN or proxy in front of us sets; only believed when TRUST_PROXY says a proxy is there.
const COUNTRY_HEADERS = ['cf-ipcountry', 'x-country-code'] as const;

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
