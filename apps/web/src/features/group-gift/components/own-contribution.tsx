import type { OwnContribution } from '@giftlens/contract/group-gifts';
import { CheckCircle2, Loader2, RotateCcw, Trash2 } from 'lucide-react';
import type { RefObject } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';

/** The contributor's message as the server has it: playable or readable, with Replace and Delete while open. */
export function OwnContributionView({
  headingRef,
  mine,
  open,
  busy,
  onReplace,
  onDelete,
}: {
  /** The heading, focusable by script: where focus goes once the message is saved. */
  headingRef?: RefObject<HTMLHeadingElement | null>;
  mine: OwnContribution;
  open: boolean;
  busy: boolean;
  onReplace: () => void;
  onDelete: () => void;
}) {
  return (
    <section aria-labelledby="own-heading" className="flex flex-col gap-4">
      <h2 ref={headingRef} id="own-heading" tabIndex={-1} className="flex items-center gap-2 text-lg font-bold text-stone-900">
        <CheckCircle2 className="size-5 text-emerald-600" aria-hidden /> Your message, from {mine.name}
      </h2>
      <div aria-live="polite">
        {mine.state === 'processing' ? (
          <p className="flex items-center gap-2 rounded-xl bg-brand-50 px-4 py-3 text-sm text-brand-800">
            <Loader2 className="size-4 animate-spin" aria-hidden /> Preparing your {mine.messageType === 'audio' ? 'voice message' : 'video'} so it plays on every phone…
          </p>
        ) : mine.state === 'failed' ? (
          <Alert>{mine.error ?? 'This file could not be used. Please record or upload another.'}</Alert>
        ) : null}
      </div>
      {mine.state === 'ready' && mine.messageType === 'text' ? (
        <blockquote className="rounded-2xl border border-brand-100 bg-white px-5 py-4 whitespace-pre-wrap break-words text-stone-800 shadow-sm">
          {mine.text}
        </blockquote>
      ) : mine.state === 'ready' && mine.messageType === 'video' && mine.messageUrl ? (
        <video
          src={mine.messageUrl}
          poster={mine.posterUrl ?? undefined}
          controls
          playsInline
          preload="metadata"
          aria-label="Your video message"
          className="max-h-[60vh] w-full rounded-2xl bg-stone-900"
        />
      ) : mine.state === 'ready' && mine.messageUrl ? (
        <audio src={mine.messageUrl} controls preload="metadata" aria-label="Your voice message" className="w-full" />
      ) : null}
      {mine.notifyWhenOpened ? <p className="text-sm text-stone-600">We will tell you when it is opened.</p> : null}
      {open ? (
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button variant="secondary" block onClick={onReplace} disabled={busy}>
            <RotateCcw className="size-4" aria-hidden /> Replace my message
          </Button>
          <Button variant="ghost" block onClick={onDelete} disabled={busy} className="text-red-700">
            <Trash2 className="size-4" aria-hidden /> Delete my message
          </Button>
        </div>
      ) : null}
    </section>
  );
}
