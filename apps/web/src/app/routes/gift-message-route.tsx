import { GiftMessagePage } from '../../features/gift-message/components/gift-message-page.tsx';
import { ReactionGate } from '../../features/reactions/components/reaction-gate.tsx';

/** /gift-message/{giftId}: the message page, with Play going through the reactions feature's consent gate. */
export function GiftMessageRoute() {
  return <GiftMessagePage renderPlayGate={(props) => <ReactionGate {...props} />} />;
}
