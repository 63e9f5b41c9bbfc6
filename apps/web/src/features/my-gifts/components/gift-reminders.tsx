import { reminderTexts } from '@giftlens/contract/extras-texts';
import type { MyGift } from '@giftlens/contract/my-gifts';
import { BellRing } from 'lucide-react';
import { useId } from 'react';
import { toast } from '../../../lib/toast.ts';
import { useSetReminders } from '../api/reminders.ts';

/**
 * The gift's reminders switch (issue 40), while they can still go: a paid, unopened gift that has not ended. On: the
 * sender is e-mailed once if it is not opened 48 hours after the link went out, and the recipient once a day
 * before the plan ends.
 */
export function GiftReminders({ gift }: { gift: MyGift }) {
  const set = useSetReminders();
  const id = useId();
  if (gift.status !== 'active' || gift.firstOpenedAt || gift.withdrawn || gift.ended || gift.remindersEnabled === undefined) return null;
  const change = (enabled: boolean) =>
    set.mutate({ giftId: gift.id, enabled }, { onError: (err) => toast.error(err.message) });
  return (
    <div className="flex items-start gap-3 rounded-xl border border-stone-200 px-4 py-3 text-sm">
      <input
        id={id}
        type="checkbox"
        className="mt-0.5 size-5 shrink-0"
        checked={set.isPending ? Boolean(set.variables?.enabled) : gift.remindersEnabled}
        disabled={set.isPending}
        onChange={(e) => change(e.target.checked)}
        aria-describedby={`${id}-note`}
      />
      <div>
        <label htmlFor={id} className="flex items-center gap-1.5 font-semibold text-stone-900">
          <BellRing className="size-4 text-brand-600" aria-hidden /> {reminderTexts.label}
        </label>
        <p id={`${id}-note`} className="mt-0.5 text-stone-600">
          {reminderTexts.note(gift.recipientName)}
        </p>
      </div>
    </div>
  );
}
