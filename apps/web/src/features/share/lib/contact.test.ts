import { describe, expect, it } from 'vitest';
import { isWhatsAppNumber, normalizeContact } from './contact.ts';

describe('recipient contact', () => {
  it('trims and lowercases an e-mail', () => {
    expect(normalizeContact('email', '  Ravi@Example.COM ')).toBe('ravi@example.com');
  });

  it('drops what people type between the digits of a number', () => {
    expect(normalizeContact('whatsapp', '+91 98765-43210')).toBe('+919876543210');
    expect(normalizeContact('whatsapp', '+1 (415) 555.0100')).toBe('+14155550100');
  });

  it('wants a WhatsApp number with its country code', () => {
    expect(isWhatsAppNumber('+919876543210')).toBe(true);
    expect(isWhatsAppNumber('9876543210')).toBe(false);
    expect(isWhatsAppNumber('+0919876543')).toBe(false);
    expect(isWhatsAppNumber('+1234567')).toBe(false);
    expect(isWhatsAppNumber('+1234567890123456')).toBe(false);
  });
});
