import { useParams } from 'react-router';
import { GiftMessagePage } from '../../features/gift-message/components/gift-message-page.tsx';
import { ReactionGate } from '../../features/reactions/components/reaction-gate.tsx';

/** /gift-message/{giftId}: the message page, with Play going through the reactions feature's consent gate. */
export function GiftMessageRoute() {
  const { giftId = '' } = useParams();
  // Keyed by gift: another gift's page starts fresh (its stored-link check, player and recording).
  return <GiftMessagePage key={giftId} renderPlayGate={(props) => <ReactionGate {...props} />} />;
}
