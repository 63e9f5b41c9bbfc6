export const OCCASIONS = [
  'birthday', 'anniversary', 'wedding', 'engagement', 'graduation', 'promotion', 'retirement', 'new-job',
  'new-baby', 'baby-shower', 'housewarming', 'christmas', 'valentines-day', 'mothers-day', 'fathers-day',
  'easter', 'thanksgiving', 'raksha-bandhan', 'karva-chauth', 'thank-you', 'congratulations', 'good-luck',
  'get-well-soon', 'apology', 'just-because', 'i-love-you', 'miss-you', 'thinking-of-you', 'other',
] as const;
export type Occasion = (typeof OCCASIONS)[number];

const SPECIAL_LABELS: Partial<Record<Occasion, string>> = {
  'valentines-day': "Valentine's Day",
  'mothers-day': "Mother's Day",
  'fathers-day': "Father's Day",
  'i-love-you': 'I Love You',
};

/** Human label for an occasion value: "new-job" → "New Job". */
export function occasionLabel(value: Occasion): string {
  return (
    SPECIAL_LABELS[value] ??
    value
      .split('-')
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join(' ')
  );
}
