import { GROUP_DEFAULT_DEADLINE_MS } from '@giftlens/contract/group-gifts';

/** A plain check of an e-mail's shape; the server checks each address again. */
const EMAIL_SHAPE = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

/**
 * The addresses typed into the invitation box: one per line or separated by commas, semicolons or spaces, with
 * duplicates (ignoring case) dropped. `invalid` lists what does not look like an address, as typed.
 */
export function parseEmails(input: string): { emails: string[]; invalid: string[] } {
  const emails: string[] = [];
  const invalid: string[] = [];
  const seen = new Set<string>();
  for (const raw of input.split(/[\s,;]+/)) {
    const email = raw.trim().replace(/^<|>$/g, '');
    if (!email) continue;
    if (!EMAIL_SHAPE.test(email)) {
      invalid.push(email);
      continue;
    }
    const key = email.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    emails.push(email);
  }
  return { emails, invalid };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date as the value of an `<input type="datetime-local">`, in the browser's time zone (minutes). */
export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The picker's first value: the group's deadline when it has one, else three days from now. */
export function initialDeadline(current: string | null, now: Date): string {
  return toLocalInput(current ? new Date(current) : new Date(now.getTime() + GROUP_DEFAULT_DEADLINE_MS));
}

/** The picker's value as an ISO instant, or null when it is empty or not a date. */
export function deadlineInstant(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
