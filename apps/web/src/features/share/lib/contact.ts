import type { ContactType } from '@giftlens/contract/scheduling';

/** E.164 with the country code, the form WhatsApp needs (the server checks the same). */
const WHATSAPP_NUMBER = /^\+[1-9]\d{7,14}$/;

/** The contact as the server stores it: e-mail trimmed and lowercased; a number without spaces, dashes or brackets. */
export function normalizeContact(type: ContactType, raw: string): string {
  return type === 'email' ? raw.trim().toLowerCase() : raw.replace(/[\s\-().]/g, '');
}

export function isWhatsAppNumber(normalized: string): boolean {
  return WHATSAPP_NUMBER.test(normalized);
}
