import type { Region } from './plans.ts';
import { texts } from './texts.ts';

/**
 * Phone numbers, one rule for the web and the API: "India needs 10 digits starting with 6, 7, 8
 * or 9; US needs 10 digits. Numbers starting with + pass through. Long numbers use the last 10 digits. Result:
 * + calling code + digits." A number passed through must still be one: E.164, the form WhatsApp needs.
 */
export type PhoneResult = { ok: true; phone: string } | { ok: false; error: string };

/** An Indian or US number without its calling code. */
export const NATIONAL_PHONE_DIGITS = 10;
/** E.164's longest number, calling code included: an input with more digits is no phone number. */
const MAX_PHONE_DIGITS = 15;
/** The longest input taken, separators included; a longer one is refused, never cut. */
const PHONE_INPUT_MAX = 32;

const CALLING_CODES: Record<Region, string> = { IN: '91', US: '1' };
/** What people type between the digits: spaces, dashes, dots and brackets. */
const SEPARATORS = /[\s\-().]/g;
const NATIONAL_INPUT = /^[\d\s\-().]+$/;
/** E.164: "+", a calling code not starting with 0, 8 to 15 digits in all. */
const INTERNATIONAL = /^\+[1-9]\d{7,14}$/;

const fail = (error: string): PhoneResult => ({ ok: false, error });

/** A number as typed, without its separators. */
export const stripPhoneSeparators = (input: string): string => input.replace(SEPARATORS, '');

/**
 * A number typed with "+" (and its country code): separators dropped, E.164 required. `invalid` is the complaint
 * (a WhatsApp number's own text where the number is for WhatsApp).
 */
export function internationalPhone(input: string, invalid: string = texts.sender.internationalPhoneInvalid): PhoneResult {
  const trimmed = input.trim();
  const phone = trimmed.length <= PHONE_INPUT_MAX ? stripPhoneSeparators(trimmed) : '';
  return INTERNATIONAL.test(phone) ? { ok: true, phone } : fail(invalid);
}

/** A number typed without "+", read in `region`: its 10 national digits (the last 10 of a longer input). */
function nationalPhone(region: Region, input: string): PhoneResult {
  const lengthError = region === 'IN' ? texts.sender.indianPhoneLength : texts.sender.usPhoneLength;
  const trimmed = input.trim();
  if (trimmed.length > PHONE_INPUT_MAX || !NATIONAL_INPUT.test(trimmed)) return fail(lengthError);
  let digits = stripPhoneSeparators(trimmed);
  if (digits.length > MAX_PHONE_DIGITS) return fail(lengthError);
  if (digits.length > NATIONAL_PHONE_DIGITS) digits = digits.slice(-NATIONAL_PHONE_DIGITS);
  if (digits.length !== NATIONAL_PHONE_DIGITS) return fail(lengthError);
  if (region === 'IN' && !/^[6-9]/.test(digits)) return fail(texts.sender.indianPhoneStart);
  return { ok: true, phone: `+${CALLING_CODES[region]}${digits}` };
}

/** What the visitor typed, as "+{calling code}{digits}": international when it starts with "+", else national. */
export function regionalPhone(region: Region, input: string): PhoneResult {
  return input.trim().startsWith('+') ? internationalPhone(input) : nationalPhone(region, input);
}
