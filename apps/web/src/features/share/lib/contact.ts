import { internationalPhone, stripPhoneSeparators } from '@giftlens/contract/phone';
import type { ContactType } from '@giftlens/contract/scheduling';

/** The contact as the server stores it: e-mail trimmed and lowercased; a number without spaces, dashes or brackets. */
export function normalizeContact(type: ContactType, raw: string): string {
  return type === 'email' ? raw.trim().toLowerCase() : stripPhoneSeparators(raw);
}

/** E.164 with the country code, the form WhatsApp needs: the contract's rule, which the server checks too. */
export function isWhatsAppNumber(normalized: string): boolean {
  return internationalPhone(normalized).ok;
}
