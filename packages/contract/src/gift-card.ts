import * as z from 'zod/mini';
import { OCCASIONS, occasionLabel, type Occasion } from './occasions.ts';

/** The languages the printable card comes in (issue 40). */
export const CARD_LANGUAGES = ['en', 'hi'] as const;
export const CardLanguage = z.enum(CARD_LANGUAGES);
export type CardLanguage = z.infer<typeof CardLanguage>;
export const CARD_LANGUAGE_NAMES: Record<CardLanguage, string> = { en: 'English', hi: 'हिन्दी (Hindi)' };

export const GiftCardQuery = z.object({ lang: z.optional(CardLanguage) });

/** What the card says, one set per language; names, digits and the link stay as they are. */
export interface CardTexts {
  forName: (name: string) => string;
  waiting: string;
  steps: [string, string, string];
  linkLabel: string;
  codeLabel: string;
  codeHint: string;
  fold: string;
  cut: string;
}

const OCCASIONS_HI: Record<Occasion, string> = {
  birthday: 'जन्मदिन',
  anniversary: 'सालगिरह',
  wedding: 'शादी',
  engagement: 'सगाई',
  graduation: 'स्नातक',
  promotion: 'पदोन्नति',
  retirement: 'सेवानिवृत्ति',
  'new-job': 'नई नौकरी',
  'new-baby': 'नन्हा मेहमान',
  'baby-shower': 'गोद भराई',
  housewarming: 'गृहप्रवेश',
  christmas: 'क्रिसमस',
  'valentines-day': 'वैलेंटाइन डे',
  'mothers-day': 'मदर्स डे',
  'fathers-day': 'फ़ादर्स डे',
  easter: 'ईस्टर',
  thanksgiving: 'थैंक्सगिविंग',
  'raksha-bandhan': 'रक्षाबंधन',
  'karva-chauth': 'करवा चौथ',
  'thank-you': 'धन्यवाद',
  congratulations: 'बधाई हो',
  'good-luck': 'शुभकामनाएँ',
  'get-well-soon': 'जल्दी ठीक हो जाइए',
  apology: 'माफ़ी',
  'just-because': 'बस यूँ ही',
  'i-love-you': 'मैं तुमसे प्यार करता/करती हूँ',
  'miss-you': 'तुम्हारी याद आती है',
  'thinking-of-you': 'तुम्हारे बारे में सोच रहे हैं',
  other: 'एक तोहफ़ा',
};

export const CARD_TEXTS: Record<CardLanguage, CardTexts> = {
  en: {
    forName: (name) => `For ${name}`,
    waiting: 'A message is waiting inside this gift',
    steps: ['Open this link or type it', 'Unwrap the gift and photograph it', 'The message plays'],
    linkLabel: 'Link',
    codeLabel: 'Backup code',
    codeHint: 'If the camera cannot recognise the gift, use this code',
    fold: 'fold',
    cut: 'cut',
  },
  hi: {
    forName: (name) => `${name} के लिए`,
    waiting: 'इस तोहफ़े में आपके लिए एक संदेश है',
    steps: ['यह लिंक खोलें या टाइप करें', 'तोहफ़ा खोलें और उसकी फ़ोटो लें', 'संदेश चलने लगेगा'],
    linkLabel: 'लिंक',
    codeLabel: 'बैकअप कोड',
    codeHint: 'अगर कैमरा तोहफ़ा न पहचाने, तो यह कोड डालें',
    fold: 'मोड़ें',
    cut: 'काटें',
  },
};

/** The occasion as the card names it; a value we do not know is shown as it is. */
export function cardOccasion(value: string, lang: CardLanguage): string {
  const known = (OCCASIONS as readonly string[]).includes(value) ? (value as Occasion) : null;
  if (!known) return value;
  return lang === 'hi' ? OCCASIONS_HI[known] : occasionLabel(known);
}
