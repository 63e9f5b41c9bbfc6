import type { LucideIcon } from 'lucide-react';

export interface StepCard {
  icon: LucideIcon;
  title: string;
  text: string;
}

/** Numbered steps as cards ("Step 1", "Step 2" …), two or three to a row on wide screens. */
export function StepCards({ steps, columns }: { steps: readonly StepCard[]; columns: 2 | 3 }) {
  const wide = columns === 3;
  return (
    <ol className={`mt-8 grid gap-3 sm:gap-4 ${wide ? 'sm:grid-cols-3' : 'sm:grid-cols-2'}`}>
      {steps.map((s, i) => (
        <li
          key={s.title}
          className={`flex gap-4 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:p-5 ${wide ? 'sm:flex-col sm:gap-3' : ''}`}
        >
          <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
            <s.icon className="size-6" aria-hidden />
          </span>
          <div>
            <p className="text-xs font-semibold tracking-wide text-brand-600 uppercase">Step {i + 1}</p>
            <h2 className="font-semibold text-stone-900">{s.title}</h2>
            <p className="mt-1 text-sm text-stone-600">{s.text}</p>
          </div>
        </li>
      ))}
    </ol>
  );
}
