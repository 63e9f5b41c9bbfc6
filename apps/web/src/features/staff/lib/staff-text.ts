import { staffTexts } from '@giftlens/contract/staff';
import { texts } from '@giftlens/contract/texts';
import { merchantTexts } from '@giftlens/contract/record-link';

const fixed = new Set<unknown>([...Object.values(staffTexts), ...Object.values(merchantTexts)]);

/** Whether an error's text is one of the staff console's contract texts (shown as the server words it). */
export function isStaffText(text: unknown): boolean {
  return typeof text === 'string' && fixed.has(text);
}

/** The text of a staff call the server answers without one of the contract's texts. */
export const STAFF_FALLBACK = texts.sender.generic;
