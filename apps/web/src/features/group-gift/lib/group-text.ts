import { groupTexts } from '@giftlens/contract/group-gifts';
import { texts } from '@giftlens/contract/texts';
import { errorText } from '../../../lib/user-text.ts';

const HOLE = '\u0000';
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const values = Object.values(groupTexts) as readonly (string | ((...args: never[]) => string))[];
/** The contributor's text box asks for a message in the contract's own words (ContributionTextRequest). */
const WRITE_FIRST = 'Please write a message first.';
const fixed = new Set<unknown>([...values.filter((v) => typeof v === 'string'), WRITE_FIRST]);
const templates = values
  .filter((v): v is (...args: never[]) => string => typeof v === 'function')
  .map((fn) => {
    const filled = (fn as (...args: string[]) => string)(...Array.from({ length: fn.length }, () => HOLE));
    return new RegExp(`^${filled.split(HOLE).map(escape).join('.+')}$`, 's');
  });

/** Whether an error's text is one of the group gifts' contract texts (shown as the server words it). */
export function isGroupText(text: unknown): boolean {
  return typeof text === 'string' && (fixed.has(text) || templates.some((t) => t.test(text)));
}

/** The fallback of every group call the server answers without one of the contract's texts. */
export const GROUP_FALLBACK = texts.sender.generic;

/** The user-facing text of a failed group call: the server's group or shared contract text, else the fallback. */
export function groupErrorText(err: unknown): string {
  const message = err instanceof Error ? err.message : undefined;
  return isGroupText(message) ? (message as string) : errorText(err, GROUP_FALLBACK);
}
