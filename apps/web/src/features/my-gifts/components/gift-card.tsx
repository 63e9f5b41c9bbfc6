import type { MyGift } from '@giftlens/contract/my-gifts';
import type { Delivery } from '@giftlens/contract/scheduling';
import {
  AlertCircle,
  Archive,
  CalendarClock,
  CheckCircle2,
  Clock,
  Download,
  Gift,
  Loader2,
  MessageSquareText,
  Mic,
  RotateCcw,
  ScanLine,
  Send,
  Trash2,
  Video,
  type LucideIcon,
} from 'lucide-react';
import { useId } from 'react';
import { paths } from '../../../app/paths.ts';
import { DeliveryItem } from '../../../components/deliveries/delivery-item.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { formatLongDate } from '../../../lib/delivery-time.ts';
import {
  giftStatus,
  nextStep,
  occasionText,
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

interface GiftCardProps {
  gift: MyGift;
  now: Date;
  onDelete: (gift: MyGift) => void;
  onChangeDelivery: (gift: MyGift, delivery: Delivery) => void;
  onCancelDelivery: (id: string) => Promise<unknown>;
}

/** One gift in My Gifts: photo, who and what for, status in words, scans, validity, reaction, deliveries, actions. */
export function GiftCard({ gift, now, onDelete, onChangeDelivery, onCancelDelivery }: GiftCardProps) {
  const headingId = useId();
  const status = giftStatus(gift);
  const tone = TONES[status.tone];
  const StatusIcon = tone.icon;
  const scans = scansText(gift);
  const validity = validityText(gift, now);
  const step = nextStep(gift);
  const deliveries = shownDeliveries(gift);
  const message = gift.messageType ? MESSAGE_LABEL[gift.messageType] : null;
  const MessageIcon = message?.icon ?? MessageSquareText;
  const paid = gift.status === 'active';

  const stepLink =
    step === 'resume' ? (
      <ButtonLink to={paths.send.href(gift.id)}>Continue</ButtonLink>
    ) : step === 'checkout' ? (
      <ButtonLink to={paths.checkout.href(gift.id)}>Continue</ButtonLink>
    ) : step === 'upload-again' ? (
      <ButtonLink to={paths.message.href(gift.id)}>
        <RotateCcw className="size-4" aria-hidden /> Upload again
      </ButtonLink>
    ) : step === 'replace' ? (
      <ButtonLink
        to={paths.replaceMessage.href(gift.id)}
        variant={status.kind === 'failed' ? 'primary' : 'secondary'}
      >
        <RotateCcw className="size-4" aria-hidden /> {status.kind === 'failed' ? 'Upload again' : 'Replace message'}
      </ButtonLink>
    ) : null;

  return (
    <article
      aria-labelledby={headingId}
      className="flex flex-col gap-5 rounded-3xl border border-stone-200 bg-white p-4 shadow-sm sm:p-6"
    >
      {/* A phone: photo and title side by side, the status below them. Wider: the photo beside both. */}
      <div className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-3 sm:items-start sm:gap-x-5">
        {gift.photoUrl ? (
          <img
            src={gift.photoUrl}
            alt={`The gift for ${gift.recipientName}`}
            className="size-20 rounded-2xl bg-stone-100 object-cover sm:row-span-2 sm:size-28"
          />
        ) : (
          <span className="flex size-20 items-center justify-center rounded-2xl bg-brand-50 text-brand-500 sm:row-span-2 sm:size-28">
            <Gift className="size-8" aria-hidden />
          </span>
        )}
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-bold tracking-tight break-words text-stone-900 sm:text-xl">
            For {gift.recipientName}
          </h2>
          <p className="text-sm text-stone-600">
            {occasionText(gift.occasion)} · {gift.planName} plan
          </p>
        </div>
        <div
          className={`col-span-2 flex items-start gap-2 rounded-xl px-3 py-2 text-sm sm:col-span-1 sm:col-start-2 sm:justify-self-start ${tone.className}`}
        >
          <StatusIcon
            className={`mt-0.5 size-4 shrink-0 ${status.tone === 'progress' ? 'animate-spin' : ''}`}
            aria-hidden
          />
          <div>
            <p className="font-semibold">{status.text}</p>
            {status.detail ? <p>{status.detail}</p> : null}
          </div>
        </div>
      </div>

      <ul className="grid gap-x-4 gap-y-2 text-sm text-stone-700 sm:grid-cols-3">
        <li className="flex items-center gap-2">
          <MessageIcon className="size-4 shrink-0 text-stone-500" aria-hidden />
          {message?.label ?? 'No message yet'}
        </li>
        {scans ? (
          <li className="flex items-center gap-2">
            <ScanLine className="size-4 shrink-0 text-stone-500" aria-hidden />
            {scans}
          </li>
        ) : null}
        {validity ? (
          <li className="flex items-center gap-2">
            <CalendarClock className="size-4 shrink-0 text-stone-500" aria-hidden />
            {validity}
          </li>
        ) : null}
      </ul>

      {gift.reaction ? (
        <section aria-label={`${gift.recipientName}’s reaction`} className="flex flex-col gap-2">
          <h3 className="font-semibold text-stone-900">{gift.recipientName}’s reaction</h3>
          {gift.reaction.mime.startsWith('audio/') ? (
            <audio src={gift.reaction.url} controls preload="metadata" className="w-full" aria-label="Reaction" />
          ) : (
            <video
              src={gift.reaction.url}
              poster={gift.reaction.posterUrl ?? undefined}
              controls
              playsInline
              preload="metadata"
              aria-label="Reaction video"
              className="aspect-video w-full max-w-xl rounded-2xl bg-stone-900 object-contain"
            />
          )}
          <p className="text-xs text-stone-500">Recorded {formatLongDate(new Date(gift.reaction.recordedAt))}</p>
        </section>
      ) : null}

      {deliveries.length > 0 ? (
        <section aria-label="Deliveries" className="flex flex-col gap-2">
          <h3 className="font-semibold text-stone-900">Deliveries</h3>
          <ul className="flex flex-col gap-2">
            {deliveries.map((d) => (
              <DeliveryItem
                key={d.id}
                delivery={d}
                onChange={(delivery) => onChangeDelivery(gift, delivery)}
                onCancel={onCancelDelivery}
              />
            ))}
          </ul>
        </section>
      ) : null}

      {paid && (gift.downloads.message || gift.downloads.reaction) ? (
        <div className="flex flex-wrap gap-x-5 gap-y-1">
          {gift.downloads.message ? (
            <a
              href={gift.downloads.message}
              download
              className="inline-flex min-h-11 items-center gap-2 font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-800"
            >
              <Download className="size-4" aria-hidden /> Download message
            </a>
          ) : null}
          {gift.downloads.reaction ? (
            <a
              href={gift.downloads.reaction}
              download
              className="inline-flex min-h-11 items-center gap-2 font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-800"
            >
              <Download className="size-4" aria-hidden /> Download reaction
            </a>
          ) : null}
        </div>
      ) : null}

      <div className="flex flex-wrap gap-2 border-t border-stone-100 pt-4">
        {paid && status.kind !== 'failed' ? (
          <ButtonLink to={paths.share.href(gift.id)}>
            <Send className="size-4" aria-hidden /> Share
          </ButtonLink>
        ) : null}
        {stepLink}
        {paid && status.kind === 'failed' ? (
          <ButtonLink to={paths.share.href(gift.id)} variant="secondary">
            <Send className="size-4" aria-hidden /> Share
          </ButtonLink>
        ) : null}
        <Button variant="ghost" className="ml-auto text-red-700! hover:bg-red-50!" onClick={() => onDelete(gift)}>
          <Trash2 className="size-4" aria-hidden /> Delete
        </Button>
      </div>
    </article>
  );
}
