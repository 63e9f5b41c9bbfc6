import { topUpTexts } from '@giftlens/contract/extras-texts';
import type { MyGift } from '@giftlens/contract/my-gifts';
import type { Delivery } from '@giftlens/contract/scheduling';
import { LOW_RATING } from '@giftlens/contract/sender';
import { texts } from '@giftlens/contract/texts';
import { CalendarClock, Focus, Gift, ScanLine } from 'lucide-react';
import { PrintCard } from '../../../components/print-card/print-card.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { paths } from '../../../config/paths.ts';
import { DeliveryItem } from '../../../deliveries/components/delivery-item.tsx';
import { useRefreshMyGifts } from '../api/my-gifts.ts';
import { useGiftCard } from '../hooks/use-gift-card.ts';
import { occasionText } from '../lib/gift-status.ts';
import { GiftBackupCode } from './gift-backup-code.tsx';
import { GiftReminders } from './gift-reminders.tsx';
import { GiftCardActions } from './gift-card-actions.tsx';
import { GiftDownloads, GiftReaction } from './gift-card-media.tsx';

interface GiftCardProps {
  gift: MyGift;
  now: Date;
  onDelete: (gift: MyGift) => void;
  onChangeDelivery: (gift: MyGift, delivery: Delivery) => void;
}

/** One gift in My Gifts: photo, who and what for, status in words, scans, validity, reaction, deliveries, actions. */
export function GiftCard({ gift, now, onDelete, onChangeDelivery }: GiftCardProps) {
  // A cancelled delivery's "Delivery cancelled." waits for the refreshed list, which no longer shows it.
  const refreshGifts = useRefreshMyGifts();
  const { headingId, status, tone, scans, validity, step, deliveries, message, MessageIcon, paid } = useGiftCard(
    gift,
    now,
  );
  const StatusIcon = tone.icon;

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
        {gift.recognisability ? (
          <li className="flex items-center gap-2">
            <Focus className="size-4 shrink-0 text-stone-500" aria-hidden />
            {texts.sender.recognisability(gift.recognisability.rating)}
          </li>
        ) : null}
      </ul>

      {gift.recognisability && gift.recognisability.rating <= LOW_RATING ? (
        <div className="rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          <p className="font-semibold">{texts.sender.recognisabilityLow}</p>
          {gift.recognisability.reasons.length > 0 ? (
            <ul className="mt-1 list-disc pl-5">
              {gift.recognisability.reasons.map((r) => (
                <li key={r}>{texts.sender.qualityReasons[r]}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}

      <GiftBackupCode gift={gift} />

      <GiftReminders gift={gift} />

      {gift.scanTopUp && gift.scansAllowed !== null && gift.scansUsed >= gift.scansAllowed ? (
        <div className="flex flex-col gap-3 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          <p>{topUpTexts.ranOut(gift.recipientName)}</p>
          <ButtonLink to={paths.addScans.href(gift.id)} className="self-start">
            <ScanLine className="size-4" aria-hidden /> {topUpTexts.offer(gift.scanTopUp.scans, gift.scanTopUp.price)}
          </ButtonLink>
        </div>
      ) : null}

      {gift.status === 'active' && !gift.withdrawn && !gift.ended ? (
        <PrintCard
          giftId={gift.id}
          recipientName={gift.recipientName}
          occasion={gift.occasion}
          backupCode={gift.backupCode}
          link={`${window.location.origin}${paths.shareLink.href(gift.id)}`}
        />
      ) : null}

      <GiftReaction gift={gift} />

      {deliveries.length > 0 ? (
        <section aria-label="Deliveries" className="flex flex-col gap-2">
          <h3 className="font-semibold text-stone-900">Deliveries</h3>
          <ul className="flex flex-col gap-2">
            {deliveries.map((d) => (
              <DeliveryItem
                key={d.id}
                delivery={d}
                onChange={(delivery) => onChangeDelivery(gift, delivery)}
                onCancelled={refreshGifts}
              />
            ))}
          </ul>
        </section>
      ) : null}

      <GiftDownloads gift={gift} paid={paid} />

      <GiftCardActions gift={gift} status={status} step={step} paid={paid} onDelete={onDelete} />
    </article>
  );
}
