import type { StaffGiftState } from '@giftlens/contract/staff';
import { words } from '../lib/staff-format.ts';

const TONES: Record<StaffGiftState, string> = {
  draft: 'bg-stone-100 text-stone-700',
  awaiting_payment: 'bg-amber-100 text-amber-900',
  active: 'bg-emerald-100 text-emerald-800',
  opened: 'bg-sky-100 text-sky-900',
  expired: 'bg-stone-200 text-stone-800',
  refunded: 'bg-violet-100 text-violet-900',
  taken_down: 'bg-red-100 text-red-800',
};

export function StateBadge({ state }: { state: StaffGiftState }) {
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${TONES[state]}`}>{words(state)}</span>
  );
}
