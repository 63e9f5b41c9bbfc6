import type { MyGift } from '@giftlens/contract/my-gifts';
import { OCCASIONS, occasionLabel, type Occasion } from '@giftlens/contract/occasions';
import type { Delivery } from '@giftlens/contract/scheduling';
import { texts } from '@giftlens/contract/texts';
import { formatLongDate, formatTime } from '../../../lib/format.ts';

/**
 * draft: details saved, no message yet; awaiting-payment: message uploaded, not paid; processing: the uploaded
 * message is being converted; failed: the message file could not be used; ready: paid, not sent or opened yet;
 * scheduled, sending, delivered: the gift link's delivery; opened; reaction-processing: a reaction was recorded and
 * is being converted; reaction: it can be watched; ended: the plan's time or scans are used up.
 */
export type GiftStatusKind =
  | 'draft'
  | 'awaiting-payment'
  | 'processing'
  | 'failed'
  | 'ready'
  | 'scheduled'
  | 'sending'
  | 'delivered'
  | 'opened'
  | 'reaction-processing'
  | 'reaction'
  | 'ended'
  | 'refunded'
  | 'taken-down';

export type GiftStatusTone = 'neutral' | 'warning' | 'progress' | 'error' | 'success' | 'done';

export interface GiftStatusWords {
  kind: GiftStatusKind;
  /** The status in words, as the card shows it. */
  text: string;
  /** A second line: why it failed, what to do next. */
  detail: string | null;
  tone: GiftStatusTone;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The pending (or sending) delivery due first, if any. */
export function nextDelivery(deliveries: readonly Delivery[]): Delivery | null {
  const waiting = deliveries.filter((d) => d.status === 'pending' || d.status === 'sending');
  waiting.sort((a, b) => Date.parse(a.scheduledDatetime) - Date.parse(b.scheduledDatetime));
  return waiting[0] ?? null;
}

/** The delivery sent last, if any. */
function lastSent(deliveries: readonly Delivery[]): Delivery | null {
  const sent = deliveries.filter((d) => d.status === 'sent');
  sent.sort((a, b) => Date.parse(b.sentAt ?? b.scheduledDatetime) - Date.parse(a.sentAt ?? a.scheduledDatetime));
  return sent[0] ?? null;
}

const at = (iso: string, timeZone: string) => {
  const d = new Date(iso);
  return `${formatLongDate(d, timeZone)} at ${formatTime(d, timeZone)}`;
};

/** A pending delivery, said under the headline: it still goes out whatever the headline says. */
function alsoScheduled(deliveries: readonly Delivery[]): string | null {
  const next = nextDelivery(deliveries);
  if (!next) return null;
  return next.status === 'sending'
    ? 'Another delivery is being sent now.'
    : `Another delivery is scheduled for ${at(next.scheduledDatetime, next.timezone)}.`;
}

const lines = (...parts: (string | null)[]) => parts.filter(Boolean).join(' ') || null;

/**
 * The one place a gift's state becomes words for My Gifts. The headline is the most important true fact; the
 * first that applies wins: a failed message (the sender must act), draft, processing, awaiting payment, plan
 * ended, a reaction (ready, then being converted), opened, a delivery sent, one being sent, one scheduled, and
 * otherwise ready to share. A delivery still pending under a later fact is said beneath it.
 */
export function giftStatus(gift: MyGift): GiftStatusWords {
  // Staff's word is final (issue 37): say what happened, not that the plan ended.
  if (gift.withdrawn === 'taken_down') {
    return { kind: 'taken-down', text: 'Taken down', detail: texts.sender.giftTakenDown, tone: 'error' };
  }
  if (gift.withdrawn === 'refunded') {
    return { kind: 'refunded', text: 'Refunded', detail: 'Your payment was refunded, so the gift link no longer opens.', tone: 'done' };
  }
  if (gift.messageState === 'failed') {
    return {
      kind: 'failed',
      text: 'Your message could not be used',
      detail: `${gift.messageError ?? 'We could not read this file.'} Please upload it again.`,
      tone: 'error',
    };
  }
  if (gift.status === 'draft') {
    return { kind: 'draft', text: 'Draft', detail: 'Add your message to finish this gift.', tone: 'neutral' };
  }
  if (gift.messageState === 'processing') {
    return {
      kind: 'processing',
      text: 'Processing your message',
      detail: 'We are preparing it so it plays on every phone. This usually takes a minute.',
      tone: 'progress',
    };
  }
  if (gift.status === 'message_uploaded') {
    return { kind: 'awaiting-payment', text: 'Awaiting payment', detail: 'Pay to make the gift link work.', tone: 'warning' };
  }
  if (gift.ended) {
    return { kind: 'ended', text: 'Plan ended', detail: 'The message can no longer be played.', tone: 'done' };
  }
  const pending = alsoScheduled(gift.deliveries);
  const opened = gift.firstOpenedAt ? `Opened ${plural(Math.max(1, gift.scansUsed), 'time', 'times')}` : null;
  if (gift.reactionState === 'ready' && gift.reaction) {
    return {
      kind: 'reaction',
      text: `${gift.recipientName} recorded a reaction`,
      detail: lines(opened ? `${opened}.` : null, pending),
      tone: 'success',
    };
  }
  if (gift.reactionState === 'processing') {
    return {
      kind: 'reaction-processing',
      text: texts.sender.reactionProcessing,
      detail: lines(texts.sender.reactionProcessingDetail(gift.recipientName), pending),
      tone: 'progress',
    };
  }
  if (opened) {
    const failed = gift.reactionState === 'failed' ? texts.sender.reactionFailed(gift.recipientName) : null;
    return { kind: 'opened', text: opened, detail: lines(failed, pending), tone: 'success' };
  }
  const sent = lastSent(gift.deliveries);
  if (sent) {
    return {
      kind: 'delivered',
      text: `Delivered ${formatLongDate(new Date(sent.sentAt ?? sent.scheduledDatetime), sent.timezone)}`,
      detail: lines('Not opened yet.', pending),
      tone: 'success',
    };
  }
  const next = nextDelivery(gift.deliveries);
  if (next?.status === 'sending') {
    return { kind: 'sending', text: 'Sending the gift link now', detail: null, tone: 'progress' };
  }
  if (next) {
    return { kind: 'scheduled', text: `Delivery scheduled for ${at(next.scheduledDatetime, next.timezone)}`, detail: null, tone: 'neutral' };
  }
  return { kind: 'ready', text: 'Ready to share', detail: 'Send the link now or schedule it.', tone: 'neutral' };
}

/** "3 of 10 scans used", "3 scans · unlimited"; null before payment (nothing can be scanned yet). */
export function scansText(gift: MyGift): string | null {
  if (gift.status !== 'active') return null;
  if (gift.scansAllowed === null) return `${plural(gift.scansUsed, 'scan', 'scans')} · unlimited`;
  return `${gift.scansUsed} of ${gift.scansAllowed} scans used`;
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * How long the gift keeps working: "Valid for N more days" (or hours within the last two days), "Valid until
 * {date}" when that is more than two months away, "No end date" (Lifetime), "Ended {date}"; null before payment.
 */
export function validityText(gift: MyGift, now: Date): string | null {
  if (gift.status !== 'active' || gift.withdrawn) return null;
  if (gift.validUntil === null) return 'No end date';
  const until = new Date(gift.validUntil);
  const left = until.getTime() - now.getTime();
  if (left <= 0) return `Ended ${formatLongDate(until)}`;
  if (left < HOUR_MS) return 'Valid for less than an hour';
  if (left < 2 * DAY_MS) return `Valid for ${plural(Math.floor(left / HOUR_MS), 'more hour', 'more hours')}`;
  if (left <= 60 * DAY_MS) return `Valid for ${Math.round(left / DAY_MS)} more days`;
  return `Valid until ${formatLongDate(until)}`;
}

/** "Birthday"; an occasion this app does not know is shown as stored. */
export function occasionText(occasion: string): string {
  return (OCCASIONS as readonly string[]).includes(occasion) ? occasionLabel(occasion as Occasion) : occasion;
}

/**
 * What the sender can do next with the gift's message or payment:
 * resume: carry on in the wizard (a draft: its message step); checkout: pay (message uploaded);
 * upload-again: the message failed before payment (the message step again); replace: a paid gift not opened yet.
 */
export type GiftNextStep = 'resume' | 'checkout' | 'upload-again' | 'replace' | null;

export function nextStep(gift: MyGift): GiftNextStep {
  if (gift.status !== 'active') {
    if (gift.messageState === 'failed') return 'upload-again';
    return gift.status === 'draft' ? 'resume' : 'checkout';
  }
  return gift.canReplaceMessage && !gift.ended && !gift.withdrawn ? 'replace' : null;
}

/** Deliveries worth showing on the card (a cancelled one is gone from the sender's point of view). */
export function shownDeliveries(gift: MyGift): Delivery[] {
  return gift.deliveries.filter((d) => d.status !== 'cancelled');
}
