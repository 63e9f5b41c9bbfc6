import { safeParse, type core } from 'zod/mini';

/** Reads a JSON value from sessionStorage, returning null when absent, unreadable or not matching `schema`. */
export function readSession<T>(key: string, schema: core.$ZodType<T>): T | null {
  try {
    const raw = sessionStorage.getItem(key);
    if (raw === null) return null;
    const parsed = safeParse(schema, JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    // Storage disabled (private mode) or corrupt JSON: behave as if nothing was stored.
    return null;
  }
}

export function writeSession(key: string, value: unknown): void {
  try {
    sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Quota or privacy mode: the wizard still works, it just won't survive a reload.
  }
}

export function removeSession(key: string): void {
  try {
    sessionStorage.removeItem(key);
  } catch {
    // Nothing to do.
  }
}
