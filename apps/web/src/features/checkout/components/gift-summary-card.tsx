import { OCCASIONS, occasionLabel, type Occasion } from '@giftlens/contract/occasions';
import type { GiftSummary } from '@giftlens/contract/sender';
import { MessageSquareText, Mic, Video } from 'lucide-react';
import { EmailAddress } from '../../../components/ui/email-address.tsx';

/** The gift being paid for: photo, recipient, occasion, message and plan. */
export function GiftSummaryCard({ gift, uploading }: { gift: GiftSummary; uploading: boolean }) {
  const occasion = (OCCASIONS as readonly string[]).includes(gift.occasion)
    ? occasionLabel(gift.occasion as Occasion)
    : gift.occasion;
  const MessageIcon = gift.messageType === 'video' ? Video : gift.messageType === 'audio' ? Mic : MessageSquareText;
  const messageLabel = uploading
    ? 'Message uploading…'
    : gift.messageType === 'video'
      ? 'Video message'
      : gift.messageType === 'audio'
        ? 'Voice message'
        : gift.messageType === 'text'
          ? 'Text message'
          : 'Message not added yet';
  return (
    <section aria-labelledby="summary-heading" className="flex flex-col gap-4 rounded-3xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6">
      <h2 id="summary-heading" className="text-lg font-bold text-stone-900">
        Your gift
      </h2>
      <div className="flex gap-4">
        {gift.giftImageUrl ? (
          <img src={gift.giftImageUrl} alt="Your gift" className="size-24 shrink-0 rounded-2xl border border-stone-200 object-cover" />
        ) : null}
        <dl className="grid min-w-0 grid-cols-[auto_1fr] content-start gap-x-3 gap-y-1 text-sm">
          <dt className="text-stone-500">For</dt>
          {/* Wrapped, never cut: the name is what the sender checks before paying. */}
          <dd className="font-semibold [overflow-wrap:anywhere] text-stone-900">{gift.recipientName}</dd>
          <dt className="text-stone-500">Occasion</dt>
          <dd className="text-stone-800">{occasion}</dd>
        </dl>
      </div>
      {gift.recipientEmail ? (
        // On a line of its own: beside the photo a long address would have no room on a phone.
        <dl className="-mt-1 text-sm">
          <dt className="text-stone-500">Email</dt>
          <dd className="text-stone-800">
            <EmailAddress email={gift.recipientEmail} />
          </dd>
        </dl>
      ) : null}
      <p className="flex items-center gap-2 text-sm text-stone-700">
        <MessageIcon className="size-4 text-brand-500" aria-hidden /> {messageLabel}
      </p>
      {!uploading && gift.messageState === 'processing' ? (
        // Converting the upload for every phone is not a problem: say what it is.
        <p className="-mt-2 text-sm text-stone-500">Uploaded. We are preparing it so it plays on every phone.</p>
      ) : null}
      <div className="rounded-2xl bg-brand-50 p-4">
        <p className="font-semibold text-stone-900">{gift.plan.name} plan</p>
        <p className="text-sm text-stone-600">Valid for: {gift.plan.validity}</p>
        <p className="mt-1 text-lg font-bold text-brand-700">{gift.plan.price}</p>
      </div>
    </section>
  );
}
