import type { Clock } from '../../adapters/clock.ts';
import type { Db } from '../../db/database.ts';
import { giftNotFound } from '../../lib/errors.ts';
import { refuseIfTakenDown } from '../gifts/gift-plan.ts';
import * as gifts from '../gifts/gifts.repository.ts';
import type { Sender } from '../sender-auth/sender-auth.table.ts';

/** The sender's switch for a gift's reminders (issue 40): off stops both; on again lets the ones not yet sent go. */
export function createRemindersService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    async setEnabled(sender: Sender, giftId: string, enabled: boolean): Promise<boolean> {
      const gift = await gifts.findSenderGift(db, giftId, sender.id);
      if (!gift) throw giftNotFound();
      refuseIfTakenDown(gift);
      const now = clock.now().toISOString();
      await gifts.setRemindersOff(db, gift.id, enabled ? null : (gift.reminders_off_at ?? now), now);
      return enabled;
    },
  };
}

export type RemindersService = ReturnType<typeof createRemindersService>;
