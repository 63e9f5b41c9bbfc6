import { LooseSuccessBody } from '@giftlens/contract/common';
import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import { getSenderGift } from '../../../api/sender-gift.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * After Back from the message step and new details (a changed photo), the details step made a new gift: the one it
 * replaces goes, so My Gifts does not keep a second draft (issue 37). Only while it is still a draft (no message yet):
 * a gift with a message is the sender's to keep or delete. Best effort: a failure leaves the draft, as before.
 */
export async function discardReplacedDraft(previousGiftId: string): Promise<boolean> {
  try {
    const previous = await getSenderGift(previousGiftId);
    if (previous.status !== 'draft') return false;
    await apiRequest('DELETE', API.senderGift(previousGiftId), undefined, { fallbackError: texts.sender.generic, schema: LooseSuccessBody });
    return true;
  } catch {
    return false;
  }
}
