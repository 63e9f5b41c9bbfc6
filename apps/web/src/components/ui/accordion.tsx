import { ChevronDown } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';

export interface AccordionItem {
  question: string;
  answer: ReactNode;
}

/**
 * Questions and answers where one answer is open at a time; clicking an open question closes it.
 * Each question is a button in a heading, so screen-reader users can jump between them.
 */
export function Accordion({
  items,
  headingLevel = 3,
  defaultOpen = null,
}: {
  items: readonly AccordionItem[];
  headingLevel?: 2 | 3;
  defaultOpen?: number | null;
}) {
  const [open, setOpen] = useState<number | null>(defaultOpen);
  const baseId = useId();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className="divide-y divide-stone-200 overflow-hidden rounded-2xl border border-stone-200 bg-white">
      {items.map((item, i) => {
        const expanded = open === i;
        const buttonId = `${baseId}-q${i}`;
        const panelId = `${baseId}-a${i}`;
        return (
          <div key={item.question} data-state={expanded ? 'open' : 'closed'}>
            <Heading className="text-base font-semibold text-stone-900 sm:text-lg">
              <button
                type="button"
                id={buttonId}
                aria-expanded={expanded}
                aria-controls={panelId}
                onClick={() => setOpen(expanded ? null : i)}
                className="flex w-full items-center justify-between gap-4 px-5 py-4 text-left hover:bg-stone-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 sm:px-6 sm:py-5"
              >
                {item.question}
                <ChevronDown
                  aria-hidden
                  className={`size-5 shrink-0 text-stone-500 transition-transform ${expanded ? 'rotate-180' : ''}`}
                />
              </button>
            </Heading>
            <div
              id={panelId}
              role="region"
              aria-labelledby={buttonId}
              hidden={!expanded}
              className="px-5 pb-5 text-[15px] leading-relaxed text-stone-700 sm:px-6"
            >
              {item.answer}
            </div>
          </div>
        );
      })}
    </div>
  );
}
