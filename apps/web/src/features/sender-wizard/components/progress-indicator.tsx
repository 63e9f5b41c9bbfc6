import { PROGRESS_STEPS_TOTAL } from '@giftlens/contract/constants';
import { Check } from 'lucide-react';

const LABELS = ['Choose Plan', 'Add Gift Details', 'Upload Message'] as const;

/** "Step n of 3" above the pricing, details and message steps. */
export function ProgressIndicator({ current }: { current: 1 | 2 | 3 }) {
  return (
    <nav aria-label="Progress" className="mb-6">
      <p className="mb-3 text-center text-xs font-medium tracking-wide text-stone-500 uppercase">
        Step {current} of {PROGRESS_STEPS_TOTAL}
      </p>
      <ol className="flex items-start">
        {LABELS.map((label, i) => {
          const n = i + 1;
          const done = n < current;
          const active = n === current;
          return (
            <li key={label} className="flex flex-1 flex-col items-center gap-1.5 text-center" aria-current={active ? 'step' : undefined}>
              <div className="flex w-full items-center">
                <span className={`h-0.5 flex-1 ${i === 0 ? 'invisible' : done || active ? 'bg-brand-500' : 'bg-stone-200'}`} />
                <span
                  className={`flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-bold ${done ? 'bg-brand-500 text-white' : active ? 'bg-brand-500 text-white ring-4 ring-brand-100' : 'bg-stone-200 text-stone-500'}`}
                >
                  {done ? <Check className="size-4" aria-hidden /> : n}
                </span>
                <span className={`h-0.5 flex-1 ${i === LABELS.length - 1 ? 'invisible' : done ? 'bg-brand-500' : 'bg-stone-200'}`} />
              </div>
              <span className={`text-xs sm:text-sm ${active ? 'font-semibold text-stone-900' : 'text-stone-500'}`}>{label}</span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
