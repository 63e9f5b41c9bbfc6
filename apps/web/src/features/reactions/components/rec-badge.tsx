/** Shown for as long as the reaction is being recorded. */
export function RecBadge() {
  return (
    <div
      role="status"
      aria-label="Recording your reaction"
      className="fixed top-[max(1rem,env(safe-area-inset-top))] right-4 z-50 flex items-center gap-2 rounded-full bg-red-600 px-3.5 py-1.5 text-sm font-bold tracking-wider text-white shadow-lg"
    >
      <span className="size-2.5 animate-pulse rounded-full bg-white" aria-hidden />
      REC
    </div>
  );
}
