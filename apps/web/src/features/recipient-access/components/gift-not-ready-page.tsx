import { texts } from '@giftlens/contract/texts';
import { useLocation } from 'react-router';
import { GiftNotReadyPanel } from '../../../components/ui/gift-not-ready-panel.tsx';
import type { GiftNotReadyState } from '../lib/outcomes.ts';

/** /gift-not-ready: the gift exists but is still being prepared; the reason comes in the router state. */
export function GiftNotReadyPage() {
  const state = useLocation().state as GiftNotReadyState | null;
  return <GiftNotReadyPanel reason={state?.reason || texts.recipient.giftNotReady} />;
}
