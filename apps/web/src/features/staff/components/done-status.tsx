/**
 * What the last staff action did, announced politely: a live region that is always there (so a screen reader hears
 * its first text) and shown as a green note once it has one.
 */
export function DoneStatus({ text }: { text: string | null }) {
  return (
    <p
      role="status"
      aria-live="polite"
      className={
        text
          ? 'rounded-xl border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900'
          : 'sr-only'
      }
    >
      {text ?? ''}
    </p>
  );
}
