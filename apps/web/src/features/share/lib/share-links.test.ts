import { describe, expect, it } from 'vitest';
import { whatsAppShareUrl } from './share-links.ts';

describe('WhatsApp share link', () => {
  const link = 'https://giftlens.example/sharelink/0123456789abcdef0123456789abcdef';

  it('carries the share text, encoded, with the sender’s name', () => {
    const url = new URL(whatsAppShareUrl('Asha & Co', link));
    expect(url.origin + url.pathname).toBe('https://wa.me/');
    expect(url.searchParams.get('text')).toBe(
      `Asha & Co has left you a personal message with your gift. Open this link and photograph the gift to see it: ${link}`,
    );
    expect(whatsAppShareUrl('Asha & Co', link)).toContain('Asha%20%26%20Co');
  });

  it('says someone when the sender’s name is not known', () => {
    expect(new URL(whatsAppShareUrl(null, link)).searchParams.get('text')).toMatch(/^Someone has left you/);
  });
});
