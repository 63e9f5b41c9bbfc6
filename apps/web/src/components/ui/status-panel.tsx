import type { ReactNode } from 'react';

type Tone = 'brand' | 'error' | 'success' | 'neutral';

const ICON_TONES: Record<Tone, string> = {
  brand: 'bg-brand-100 text-brand-600',
  error: 'bg-red-100 text-red-600',
  success: 'bg-emerald-100 text-emerald-600',
  neutral: 'bg-stone-100 text-stone-600',
};

/**
 * A centred card for a whole-screen state (not found, not ready, error): an icon, a heading, text and
 * actions. The heading is the page's h1.
 */
export function StatusPanel({
  icon,
  title,
  tone = 'brand',
  children,
  actions,
}: {
  icon: ReactNode;
  title: ReactNode;
  tone?: Tone;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mx-auto flex w-full max-w-lg flex-col px-4 py-10 sm:py-16">
      <div className="flex flex-col items-center gap-4 rounded-3xl border border-stone-200 bg-white p-6 text-center shadow-sm sm:p-10">
        <span className={`flex size-16 items-center justify-center rounded-full ${ICON_TONES[tone]}`}>{icon}</span>
        <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">{title}</h1>
        {children ? <div className="flex w-full flex-col gap-3 text-stone-600">{children}</div> : null}
        {actions ? <div className="mt-2 flex w-full flex-col gap-3 sm:flex-row sm:justify-center">{actions}</div> : null}
      </div>
    </div>
  );
}
