/**
 * The texts of the web app's error screen, kept apart from texts.ts (which reuses them): that screen is part of
 * the first bundle of every page, and texts.ts as a whole is not (decision 046).
 */
export const errorTexts = {
  generic: 'Something went wrong. Please try again.',
  somethingWrong: 'Something went wrong',
} as const;
