import { ChevronDown } from 'lucide-react';
import type { ReactNode, SyntheticEvent } from 'react';

export interface AccordionItem {
  question: string;
  answer: ReactNode;
}

/**
 * Questions and answers where one answer is open at a time and clicking an open question closes it.
 * Built on <details name="…">, so it works — and is announced as expandable — before any JavaScript runs
 * (the landing page is prerendered and hydrates its lower half late). Browsers without exclusive <details>
 * get the same behaviour from the toggle handler once hydrated.
 */
export function Accordion({ id, items }: { id: string; items: readonly AccordionItem[] }) {
  const closeOthers = (event: SyntheticEvent<HTMLDetailsElement>) => {
    const opened = event.currentTarget;
    if (!opened.open) return;
    for (const other of opened.parentElement?.querySelectorAll<HTMLDetailsElement>(`details[name="${id}"]`) ?? []) {
      if (other !== opened) other.open = false;
    }
  };
  return (
    <div className="divide-y divide-stone-200 overflow-hidden rounded-2xl border border-stone-200 bg-white">
      {items.map((item) => (
        <details key={item.question} name={id} onToggle={closeOthers} className="group">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 px-5 py-4 text-base font-semibold text-stone-900 hover:bg-stone-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 sm:px-6 sm:py-5 sm:text-lg [&::-webkit-details-marker]:hidden">
            {item.question}
            <ChevronDown aria-hidden className="size-5 shrink-0 text-stone-500 transition-transform group-open:rotate-180" />
          </summary>
          <div className="px-5 pb-5 text-[15px] leading-relaxed text-stone-700 sm:px-6">{item.answer}</div>
        </details>
      ))}
    </div>
  );
}
