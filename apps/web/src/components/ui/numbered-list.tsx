/** An ordered list of sentences with round numbered badges (marketing pages' "how it goes" lists). */
export function NumberedList({
  items,
  tone = 'brand',
}: {
  items: readonly string[];
  tone?: 'brand' | 'dark';
}) {
  const badge = tone === 'brand' ? 'bg-brand-500' : 'bg-stone-900';
  return (
    <ol className="mt-6 space-y-4">
      {items.map((text, i) => (
        <li key={text} className="flex gap-4">
          <span
            className={`flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-bold text-white ${badge}`}
          >
            {i + 1}
          </span>
          <p className="pt-1 text-[15px] leading-relaxed text-stone-800">{text}</p>
        </li>
      ))}
    </ol>
  );
}
