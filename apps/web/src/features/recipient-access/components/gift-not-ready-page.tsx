import { texts } from '@giftlens/contract/texts';
import { useLocation } from 'react-router';
import { GiftNotReadyPanel } from '../../../components/ui/gift-not-ready-panel.tsx';
import { paths } from '../../../config/paths.ts';
import type { GiftNotReadyState } from '../lib/outcomes.ts';

/**
 * /gift-not-ready (the e-mail code's way in): no gift ready for the address just proven. It may be a typing mistake
 * (issue 37): offer another address as well as going home.
 */
export function GiftNotReadyPage() {
  const state = useLocation().state as GiftNotReadyState | null;
  return <GiftNotReadyPanel reason={state?.reason || texts.recipient.giftNotReady} retry={{ to: paths.scan.href(), label: 'Try another e-mail address' }} />;
}
