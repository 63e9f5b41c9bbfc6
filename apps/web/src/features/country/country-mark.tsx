/**
 * The country as its two-letter code in a small badge, beside its name. Flag emoji need an emoji font, and
 * systems without one draw two empty boxes (docs/decisions/017).
 */
export function CountryMark({ code, name }: { code: string; name: string }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <span
        aria-hidden
        className="rounded border border-stone-300 bg-white px-1 py-px font-mono text-[0.7em] leading-tight font-semibold tracking-wider text-stone-700"
      >
        {code.toUpperCase()}
      </span>{' '}
      {name}
    </span>
  );
}
