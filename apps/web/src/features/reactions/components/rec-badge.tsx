/** Shown on the player for as long as the reaction is being recorded (clear of the toasts at the top). */
export function RecBadge() {
  return (
    <div
      role="status"
      aria-label="Recording your reaction"
      className="pointer-events-none absolute top-3 left-3 z-20 flex items-center gap-2 rounded-full bg-red-600 px-3.5 py-1.5 text-sm font-bold tracking-wider text-white shadow-lg"
    >
      <span className="size-2.5 animate-pulse rounded-full bg-white" aria-hidden />
      REC
    </div>
  );
}
