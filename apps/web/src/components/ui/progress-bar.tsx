/**
 * A determinate progress bar. Its fill is drawn at exactly `value` percent in the same frame the number next to
 * it changes: no width transition, which would leave the bar behind the number while progress keeps changing.
 */
export function ProgressBar({ value, label, className = '' }: { value: number; label: string; className?: string }) {
  const percent = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div
      className={`w-full overflow-hidden rounded-full bg-stone-200 ${className}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
    >
      <div className="h-full rounded-full bg-brand-500" style={{ width: `${percent}%` }} />
    </div>
  );
}
