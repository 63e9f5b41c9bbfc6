import { DEFAULT_COUNTRY } from '@giftlens/contract/constants';

/** Country facts that need no network: the messaging channel a country prefers, a country's name, a code's shape. */

export const DEFAULT_COUNTRY_CODE = DEFAULT_COUNTRY;

export type PreferredChannel = 'whatsapp' | 'email';

/**
 * Where people mostly reach each other on WhatsApp rather than e-mail (46 countries):
 * Latin America, Africa, South and South-East Asia, and the Gulf.
 */
export const WHATSAPP_COUNTRIES: ReadonlySet<string> = new Set([
  // Latin America (18)
  'AR', 'BO', 'BR', 'CL', 'CO', 'CR', 'DO', 'EC', 'GT', 'HN', 'MX', 'NI', 'PA', 'PE', 'PY', 'SV', 'UY', 'VE',
  // Africa (11)
  'CI', 'EG', 'ET', 'GH', 'KE', 'MA', 'NG', 'SN', 'TZ', 'UG', 'ZA',
  // South and South-East Asia (11)
  'BD', 'ID', 'IN', 'LK', 'MY', 'NP', 'PH', 'PK', 'SG', 'TH', 'VN',
  // Middle East (6)
  'AE', 'BH', 'KW', 'OM', 'QA', 'SA',
]);

/** A country we know nothing about is treated as e-mail-preferring. */
export function preferredChannel(countryCode: string | null | undefined): PreferredChannel {
  return countryCode && WHATSAPP_COUNTRIES.has(countryCode.toUpperCase()) ? 'whatsapp' : 'email';
}

/** "FR" → "France" in the visitor's language; the code itself if the browser cannot name it. */
export function countryName(countryCode: string, locale?: string): string {
  try {
    return new Intl.DisplayNames(locale ? [locale] : undefined, { type: 'region' }).of(countryCode) ?? countryCode;
  } catch {
    return countryCode;
  }
}

export function isCountryCode(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Z]{2}$/.test(value);
}
