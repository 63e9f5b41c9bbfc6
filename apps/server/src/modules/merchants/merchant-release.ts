import type { Db } from '../../db/database.ts';
import { insertDelivery } from '../deliveries/deliveries.service.ts';
import { lockGifts } from '../gifts/gifts.repository.ts';
import * as repo from './merchants.repository.ts';

/**
 * Sends a merchant's gift to its recipient once both hold: the message is ready, and the release is due (`now`; an
 * instant, then scheduled for it; `on_delivery` once the shop said the parcel arrived). The link goes by the usual
 * delivery (e-mail, and WhatsApp where configured and a number was given; its job and retries), once: `released_at`
 * is set in the same transaction. A gift without either is never sent (the printed card and backup code reach them). Answers what happened.
 */
export async function releaseIfDue(db: Db, now: Date, giftId: string, whatsappEnabled: boolean): Promise<'released' | 'waiting' | 'none'> {
  return db.transaction().execute(async (trx) => {
    const [gift] = await lockGifts(trx, [giftId]);
    const mg = await repo.findMerchantGift(trx, giftId);
    const contacts = [
      ...(gift?.recipient_email ? [{ type: 'email' as const, contact: gift.recipient_email }] : []),
      ...(gift?.recipient_phone && whatsappEnabled ? [{ type: 'whatsapp' as const, contact: gift.recipient_phone }] : []),
    ];
    if (!gift || !mg || mg.cancelled_at || mg.released_at || contacts.length === 0 || gift.taken_down_at) return 'none';
    if (!mg.message_ready_at) return 'waiting';
    if (mg.release === 'on_delivery' && !mg.delivered_at) return 'waiting';
    const due = mg.release === 'at' && mg.release_at && Date.parse(mg.release_at) > now.getTime() ? new Date(mg.release_at) : now;
    const nowIso = now.toISOString();
    if (!(await repo.markMoment(trx, giftId, 'released_at', nowIso))) return 'none';
    for (const c of contacts) await insertDelivery(trx, now, { giftId, senderId: gift.sender_id, ...c, at: due, timezone: 'UTC' });
    return 'released';
  });
}
