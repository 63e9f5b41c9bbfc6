export function PageSpinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" className="flex min-h-[50vh] flex-col items-center justify-center gap-3">
      <span className="size-10 animate-spin rounded-full border-4 border-brand-100 border-t-brand-500" aria-hidden />
      <span className="text-sm text-stone-600">{label}</span>
    </div>
  );
}
