import {
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js';
import { texts } from '@giftlens/contract/texts';
import { countryName, DEFAULT_CALLING_CODE } from './countries.ts';

/** "IN" → "91"; the US code for anything the phone metadata does not know. */
export function callingCodeFor(countryCode: string): string {
  const code = countryCode.toUpperCase();
  return isSupportedCountry(code) ? getCountryCallingCode(code) : DEFAULT_CALLING_CODE;
}

export type PhoneResult = { ok: true; phone: string } | { ok: false; error: string };

const NATIONAL_LENGTH = 10;

/**
 * Turns what the visitor typed into "+{calling code}{digits}" (sender-side §5).
 * India: 10 digits starting 6–9. US: 10 digits. A number typed with "+" is taken as already international.
 * Longer inputs (a pasted "0091 98765 43210", say) keep their last 10 digits.
 * Other countries are checked against the phone metadata.
 */
export function formatPhone(countryCode: string, input: string): PhoneResult {
  const trimmed = input.trim();
  if (trimmed.startsWith('+')) return { ok: true, phone: `+${trimmed.slice(1).replace(/\D/g, '')}` };

  let digits = trimmed.replace(/\D/g, '');
  const country = countryCode.toUpperCase();
  if (country === 'IN' || country === 'US') {
    if (digits.length > NATIONAL_LENGTH) digits = digits.slice(-NATIONAL_LENGTH);
    if (country === 'IN') {
      if (digits.length !== NATIONAL_LENGTH) return { ok: false, error: texts.sender.indianPhoneLength };
      if (!/^[6-9]/.test(digits)) return { ok: false, error: texts.sender.indianPhoneStart };
    } else if (digits.length !== NATIONAL_LENGTH) {
      return { ok: false, error: texts.sender.usPhoneLength };
    }
    return { ok: true, phone: `+${callingCodeFor(country)}${digits}` };
  }

  const region: CountryCode | undefined = isSupportedCountry(country) ? country : undefined;
  const candidates = digits.length > NATIONAL_LENGTH ? [digits, digits.slice(-NATIONAL_LENGTH)] : [digits];
  for (const candidate of candidates) {
    const parsed = region ? parsePhoneNumberFromString(candidate, region) : undefined;
    if (parsed?.isValid()) return { ok: true, phone: parsed.number };
  }
  return { ok: false, error: `Please enter a valid ${countryName(country)} phone number` };
}

/** "+919876543210" → "+91 98765 43210" for display; the input unchanged when it cannot be parsed. */
export function displayPhone(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}
