const stamp = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});

/** "26 Nov 2026, 17:03:05" in the browser's zone; "—" for none; the raw text when it is not a date. */
export function formatStamp(iso: string | null | undefined): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : stamp.format(t);
}

/** A lag as people say it: "none", "850 ms", "42 s", "3 min 5 s", "2 h 10 min". */
export function formatLag(ms: number): string {
  if (ms <= 0) return 'none';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** Money in a currency's minor unit. */
export function formatAmount(amountMinor: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amountMinor / 100);
  } catch {
    return `${(amountMinor / 100).toFixed(2)} ${currency}`;
  }
}

/** "taken_down" → "taken down". */
export const words = (value: string) => value.replace(/_/g, ' ');

/**
 * An audit entry's details as a line: a JSON object becomes "days 30 · scans 0"; anything else is shown as it is.
 */
export function detailsLine(details: string): string {
  try {
    const parsed: unknown = JSON.parse(details);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return Object.entries(parsed as Record<string, unknown>)
        .map(([key, value]) => `${key} ${typeof value === 'string' ? value : JSON.stringify(value)}`)
        .join(' · ');
    }
  } catch {
    // Not JSON: as it is.
  }
  return details;
}
