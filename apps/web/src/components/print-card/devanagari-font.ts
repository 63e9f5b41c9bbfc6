import bold from '@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-700-normal.woff2?url';
import regular from '@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff2?url';

/** The family the card preview names first: Devanagari letters only (unicode-range), Latin falls through to Inter. */
export const DEVANAGARI_FAMILY = 'GiftLens Devanagari';
const RANGE = 'U+0900-097F, U+1CD0-1CF9, U+200C-200D, U+20A8, U+20B9, U+25CC, U+A830-A839, U+A8E0-A8FF';

let added = false;

/**
 * Noto Sans Devanagari (OFL-1.1, shipped from npm, about 50 kB each weight) for the card preview, so Hindi shows on a
 * device without a Devanagari system font; the browser fetches it only when Devanagari text is drawn.
 */
export function addDevanagariFont(): void {
  if (added || typeof document === 'undefined' || typeof FontFace === 'undefined') return;
  added = true;
  for (const [url, weight] of [
    [regular, '400'],
    [bold, '700'],
  ] as const) {
    document.fonts.add(new FontFace(DEVANAGARI_FAMILY, `url(${url}) format('woff2')`, { weight, unicodeRange: RANGE, display: 'swap' }));
  }
}
