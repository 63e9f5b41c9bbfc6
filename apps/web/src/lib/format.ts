/** "mm:ss" for a recording timer. */
export function formatDuration(totalSeconds: number): string {
  const m = Math.floor(totalSeconds / 60);
  const s = Math.floor(totalSeconds % 60);
  return `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** Price in a currency's minor unit for display, e.g. (199, 'USD') → "$1.99". */
export function formatMoney(amountMinor: number, currency: string): string {
  return new Intl.NumberFormat(currency === 'INR' ? 'en-IN' : 'en-US', {
    style: 'currency',
    currency,
    minimumFractionDigits: amountMinor % 100 === 0 ? 0 : 2,
  }).format(amountMinor / 100);
}

interface Formats {
  time: Intl.DateTimeFormat;
  date: Intl.DateTimeFormat;
}

const formats = new Map<string, Formats>();

/** The long US formats in a time zone (the browser's when none is given or the name is unknown). */
function formatsIn(timeZone: string | undefined): Formats {
  const key = timeZone ?? '';
  let f = formats.get(key);
  if (!f) {
    try {
      f = {
        time: new Intl.DateTimeFormat('en-US', {
          hour: 'numeric',
          minute: '2-digit',
          hour12: true,
          timeZone,
        }),
        date: new Intl.DateTimeFormat('en-US', {
          weekday: 'long',
          year: 'numeric',
          month: 'long',
          day: 'numeric',
          timeZone,
        }),
      };
    } catch {
      // A zone name this browser does not know: show the instant in the browser's own zone.
      f = formatsIn(undefined);
    }
    formats.set(key, f);
  }
  return f;
}

/** "3:40 PM", in `timeZone` or the browser's zone. */
export function formatTime(d: Date, timeZone?: string): string {
  return formatsIn(timeZone).time.format(d);
}

/** "Saturday, November 21, 2026", in `timeZone` or the browser's zone. */
export function formatLongDate(d: Date, timeZone?: string): string {
  return formatsIn(timeZone).date.format(d);
}
