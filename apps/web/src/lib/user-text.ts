import { texts } from '@giftlens/contract/texts';

/**
 * The texts a user may read come from the contract (`texts.sender`, `texts.recipient`). Anything else that arrives as an error message — a
 * zod schema's developer wording ("Invalid input: expected array, received undefined"), a browser's exception
 * text, a proxy's error page — is not for the user; the caller's own contract text is shown instead.
 */
const VALUES: readonly unknown[] = [...Object.values(texts.sender), ...Object.values(texts.recipient), ...Object.values(texts.media), ...Object.values(texts.backupCode)];
const TEXTS: ReadonlySet<unknown> = new Set(VALUES.filter((v) => typeof v === 'string'));

const HOLE = '\u0000';
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The contract's worded templates (texts.sender.fileTooLarge(…), texts.recipient.apiError(…)) as patterns: fixed words, any filling. */
const TEMPLATES: readonly RegExp[] = VALUES.filter((v): v is (...args: string[]) => string => typeof v === 'function').map(
  (fn) => {
    const filled = fn(...Array.from({ length: fn.length }, () => HOLE));
    return new RegExp(`^${filled.split(HOLE).map(escape).join('.+')}$`, 's');
  },
);

/** Whether `text` is one of the contract's user-facing texts (or one of its worded templates, filled in). */
export function isUserText(text: unknown): text is string {
  return typeof text === 'string' && (TEXTS.has(text) || TEMPLATES.some((t) => t.test(text)));
}

/** `text` when it is a contract text; otherwise `fallback` (the caller's contract text for this situation). */
export function userText(text: unknown, fallback: string): string {
  return isUserText(text) ? text : fallback;
}

/** The user-facing text of a caught error: its message when that is a contract text, else `fallback`. */
export function errorText(err: unknown, fallback: string): string {
  return userText(err instanceof Error ? err.message : undefined, fallback);
}
