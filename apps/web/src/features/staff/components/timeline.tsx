import type { TimelineEvent } from '@giftlens/contract/staff';
import { formatStamp, words } from '../lib/staff-format.ts';

const DOT: Partial<Record<TimelineEvent['kind'], string>> = {
  message_failed: 'bg-red-500',
  refund: 'bg-violet-500',
  staff: 'bg-amber-500',
  opened: 'bg-sky-500',
  paid: 'bg-emerald-500',
};

/** Events in time order, oldest first (the server's order is not relied on; equal times keep it). */
export function inTimeOrder(events: readonly TimelineEvent[]): TimelineEvent[] {
  return events
    .map((e, i) => ({ e, i, t: Date.parse(e.at) }))
    .sort((a, b) => a.t - b.t || a.i - b.i)
    .map(({ e }) => e);
}

/** A gift's story: every event in time order, staff actions with who and why. */
export function Timeline({ events }: { events: readonly TimelineEvent[] }) {
  if (events.length === 0) return <p className="text-sm text-stone-600">Nothing has happened yet.</p>;
  return (
    <ol aria-label="Timeline, oldest first" className="flex flex-col">
      {inTimeOrder(events).map((e, i) => (
        <li key={i} className="relative flex gap-3 pb-4 last:pb-0">
          <span
            aria-hidden
            className={`mt-1.5 size-2.5 shrink-0 rounded-full ${DOT[e.kind] ?? 'bg-stone-400'}`}
          />
          <div className="flex min-w-0 flex-col gap-0.5">
            <p className="text-xs text-stone-500">
              <time dateTime={e.at}>{formatStamp(e.at)}</time> ·{' '}
              <span className="font-semibold uppercase">{words(e.kind)}</span>
            </p>
            <p className="text-sm text-stone-900 [overflow-wrap:anywhere]">{e.summary}</p>
            {e.actor || e.reason ? (
              <p className="text-xs break-words text-stone-600">
                {e.actor ? <>by {e.actor}</> : null}
                {e.actor && e.reason ? ' · ' : null}
                {e.reason ? <>reason: “{e.reason}”</> : null}
              </p>
            ) : null}
          </div>
        </li>
      ))}
    </ol>
  );
}
