import type { Delivery } from '@giftlens/contract/scheduling';
import { texts } from '@giftlens/contract/texts';
import { useEffect } from 'react';
import { toast } from '../../../lib/toast.ts';

/** Deliveries sent with Send now on this page whose toast still says "Sending…". */
const announced = new Set<string>();
const toastId = (deliveryId: string) => `send-now-${deliveryId}`;

/** Send now was accepted: "Sending the link to …" until the deliveries say what became of it. */
export function announceSendNow(delivery: Delivery): void {
  announced.add(delivery.id);
  toast.success(texts.sender.sendNowSending(delivery.recipientContact), { id: toastId(delivery.id) });
}

/**
 * Turns a Send now toast into what happened once the refreshed deliveries say so ("Sent the link to …", or the
 * failure), so a toast on a phone, over the list, never keeps saying "Sending…" after the mail left.
 */
export function useSendNowToasts(deliveries: readonly Delivery[]): void {
  useEffect(() => {
    for (const d of deliveries) {
      if (!announced.has(d.id)) continue;
      if (d.status === 'sent') toast.success(texts.sender.sendNowSent(d.recipientContact), { id: toastId(d.id) });
      else if (d.status === 'failed') toast.error(`Failed: ${d.lastError ?? texts.sender.generic}`, { id: toastId(d.id) });
      else continue;
      announced.delete(d.id);
    }
  }, [deliveries]);
}
