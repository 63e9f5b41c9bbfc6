import type { MyGift } from '@giftlens/contract/my-gifts';
import { Download } from 'lucide-react';
import { formatLongDate } from '../../../lib/format.ts';

/** The recipient's recorded reaction, played in place. */
export function GiftReaction({ gift }: { gift: MyGift }) {
  if (!gift.reaction) return null;
  return (
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
  );
}

function DownloadLink({ href, label }: { href: string; label: string }) {
  return (
    <a
      href={href}
      download
      className="inline-flex min-h-11 items-center gap-2 font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-800"
    >
      <Download className="size-4" aria-hidden /> {label}
    </a>
  );
}

/** Download links for the message and the reaction, once the gift is paid for. */
export function GiftDownloads({ gift, paid }: { gift: MyGift; paid: boolean }) {
  if (!paid || !(gift.downloads.message || gift.downloads.reaction)) return null;
  return (
    <div className="flex flex-wrap gap-x-5 gap-y-1">
      {gift.downloads.message ? <DownloadLink href={gift.downloads.message} label="Download message" /> : null}
      {gift.downloads.reaction ? <DownloadLink href={gift.downloads.reaction} label="Download reaction" /> : null}
    </div>
  );
}
