import * as z from 'zod/mini';

/**
 * The recipient journey's browser storage, under the key names the product specification gives them.
 * Plain ids and e-mails are stored as raw strings; records as JSON, validated when read back.
 * Session keys live for the tab; the revealed gift's records live in localStorage.
 */
export const RECIPIENT_KEYS = {
  recipientEmail: 'recipientEmail',
  recipientId: 'recipientId',
  giftIds: 'giftIds',
  scanType: 'scanType',
  giftDetails: 'giftDetails',
  signedMessageUrl: 'signedMessageUrl',
  gift: (giftId: string) => `gift_${giftId}`,
} as const;

type Area = 'session' | 'local';

function area(which: Area): Storage | null {
  try {
    return which === 'session' ? window.sessionStorage : window.localStorage;
  } catch {
    // Storage disabled (some privacy modes): behave as if nothing is stored.
    return null;
  }
}

export function readString(which: Area, key: string): string | null {
  try {
    const v = area(which)?.getItem(key) ?? null;
    return v === '' ? null : v;
  } catch {
    return null;
  }
}

export function writeString(which: Area, key: string, value: string): void {
  try {
    area(which)?.setItem(key, value);
  } catch {
    // Quota or privacy mode: the journey still works within this page.
  }
}

export function readJson<T>(which: Area, key: string, schema: z.core.$ZodType<T>): T | null {
  const raw = readString(which, key);
  if (raw === null) return null;
  try {
    const parsed = z.safeParse(schema, JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function writeJson(which: Area, key: string, value: unknown): void {
  writeString(which, key, JSON.stringify(value));
}

export function removeKey(which: Area, key: string): void {
  try {
    area(which)?.removeItem(key);
  } catch {
    // Nothing to do.
  }
}

/** The signed message link saved by a matching scan: it opens the message page for 5 minutes. */
export const SignedMessageUrl = z.object({ url: z.string(), timestamp: z.number(), giftId: z.string() });
export type SignedMessageUrl = z.infer<typeof SignedMessageUrl>;

export const readSignedMessageUrl = () => readJson('local', RECIPIENT_KEYS.signedMessageUrl, SignedMessageUrl);
export const clearSignedMessageUrl = () => removeKey('local', RECIPIENT_KEYS.signedMessageUrl);
/** The server renewed this gift's reveal (a playing message page asked again): the saved link counts from now. */
export function touchSignedMessageUrl(giftId: string): void {
  const link = readSignedMessageUrl();
  if (link?.giftId === giftId) writeJson('local', RECIPIENT_KEYS.signedMessageUrl, { ...link, timestamp: Date.now() });
}
