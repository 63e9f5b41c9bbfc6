import { useId, type ReactNode } from 'react';

export interface FieldProps {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  /** Less side padding, for two controls side by side on a phone (a date needs all of its width). */
  compact?: boolean;
  /**
   * The error is also announced when it appears (role="alert"), for a form that shows it without moving focus to
   * the field: a screen reader would otherwise hear of it only on coming back to the field (WCAG 4.1.3).
   */
  announceError?: boolean;
}

/** The ids a labelled control needs: its own, its hint's and error's, and the aria-describedby joining them. */
export function useFieldIds(id: string | undefined, { hint, error }: Pick<FieldProps, 'hint' | 'error'>) {
  const autoId = useId();
  const controlId = id ?? autoId;
  const hintId = `${controlId}-hint`;
  const errorId = `${controlId}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return { controlId, hintId, errorId, describedBy };
}

/**
 * The attributes a text input and a select share: id, error state and description wired to the shell, and the
 * classes (44-px touch target, brand focus ring, red border on error).
 */
export function controlAttributes(
  ids: ReturnType<typeof useFieldIds>,
  { error, compact }: Pick<FieldProps, 'error' | 'compact'>,
  extraClassName = '',
) {
  return {
    id: ids.controlId,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': ids.describedBy,
    className: `min-h-11 w-full min-w-0 rounded-xl border bg-white ${compact ? 'px-2.5' : 'px-3.5'} py-2.5 text-base text-stone-900 placeholder:text-stone-400 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200 disabled:bg-stone-100 ${error ? 'border-red-400' : 'border-stone-300'} ${extraClassName}`,
  } as const;
}

/** Label above, then the control, then its hint and error (ids from useFieldIds). */
export function FieldShell({
  controlId,
  hintId,
  errorId,
  label,
  hint,
  error,
  announceError,
  children,
}: Omit<FieldProps, 'compact'> & { controlId: string; hintId: string; errorId: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={controlId} className="text-sm font-medium text-stone-800">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={hintId} className="text-xs text-stone-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} role={announceError ? 'alert' : undefined} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
