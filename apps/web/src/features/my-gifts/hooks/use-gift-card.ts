import type { MyGift } from '@giftlens/contract/my-gifts';
import {
  AlertCircle,
  Archive,
  CheckCircle2,
  Clock,
  Loader2,
  MessageSquareText,
  Mic,
  Video,
  type LucideIcon,
} from 'lucide-react';
import { useId } from 'react';
import {
  giftStatus,
  nextStep,
  scansText,
  shownDeliveries,
  validityText,
  type GiftStatusTone,
} from '../lib/gift-status.ts';

const TONES: Record<GiftStatusTone, { className: string; icon: LucideIcon }> = {
  neutral: { className: 'bg-stone-100 text-stone-800', icon: Clock },
  warning: { className: 'bg-amber-50 text-amber-900', icon: Clock },
  progress: { className: 'bg-sky-50 text-sky-900', icon: Loader2 },
  error: { className: 'bg-red-50 text-red-800', icon: AlertCircle },
  success: { className: 'bg-emerald-50 text-emerald-900', icon: CheckCircle2 },
  done: { className: 'bg-stone-100 text-stone-600', icon: Archive },
};

const MESSAGE_LABEL: Record<NonNullable<MyGift['messageType']>, { label: string; icon: LucideIcon }> = {
  video: { label: 'Video message', icon: Video },
  audio: { label: 'Voice message', icon: Mic },
  text: { label: 'Text message', icon: MessageSquareText },
};

/** What one gift card shows, worked out from the gift: status and its tone, scans, validity, next step, deliveries. */
export function useGiftCard(gift: MyGift, now: Date) {
  const headingId = useId();
  const status = giftStatus(gift);
  const message = gift.messageType ? MESSAGE_LABEL[gift.messageType] : null;
  return {
    headingId,
    status,
    tone: TONES[status.tone],
    scans: scansText(gift),
    validity: validityText(gift, now),
    step: nextStep(gift),
    deliveries: shownDeliveries(gift),
    message,
    MessageIcon: message?.icon ?? MessageSquareText,
    paid: gift.status === 'active',
  };
}
