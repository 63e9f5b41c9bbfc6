import type { ReactNode } from 'react';

type Tone = 'error' | 'warning' | 'info' | 'success';

const TONES: Record<Tone, string> = {
  error: 'border-red-200 bg-red-50 text-red-800',
  warning: 'border-amber-200 bg-amber-50 text-amber-900',
  info: 'border-sky-200 bg-sky-50 text-sky-900',
  success: 'border-emerald-200 bg-emerald-50 text-emerald-900',
};

/** An inline message; errors are announced to screen readers at once (role="alert"). */
export function Alert({
  tone = 'error',
  children,
  className = '',
  id,
}: {
  tone?: Tone;
  children: ReactNode;
  className?: string;
  /** For a field's aria-describedby: the message is about that field. */
  id?: string;
}) {
  return (
    <div
      id={id}
      role={tone === 'error' || tone === 'warning' ? 'alert' : 'status'}
      className={`rounded-xl border px-4 py-3 text-sm ${TONES[tone]} ${className}`}
    >
      {children}
    </div>
  );
}
