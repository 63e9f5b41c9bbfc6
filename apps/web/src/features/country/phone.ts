import {
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js';
import { internationalPhone, NATIONAL_PHONE_DIGITS, regionalPhone, type PhoneResult } from '@giftlens/contract/phone';
import { countryName, DEFAULT_CALLING_CODE } from './countries.ts';

/** "IN" → "91"; the US code for anything the phone metadata does not know. */
export function callingCodeFor(countryCode: string): string {
  const code = countryCode.toUpperCase();
  return isSupportedCountry(code) ? getCountryCallingCode(code) : DEFAULT_CALLING_CODE;
}

/**
 * Turns what the visitor typed into "+{calling code}{digits}" (sender-side §5).
 * India and the US, and any number typed with "+": the contract's rule, which the API applies too.
 * Other countries are checked against the phone metadata (a longer input also tried with its last 10 digits).
 */
export function formatPhone(countryCode: string, input: string): PhoneResult {
  const country = countryCode.toUpperCase();
  if (country === 'IN' || country === 'US') return regionalPhone(country, input);
  if (input.trim().startsWith('+')) return internationalPhone(input);

  const digits = input.replace(/\D/g, '');
  const region: CountryCode | undefined = isSupportedCountry(country) ? country : undefined;
  const candidates = digits.length > NATIONAL_PHONE_DIGITS ? [digits, digits.slice(-NATIONAL_PHONE_DIGITS)] : [digits];
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
