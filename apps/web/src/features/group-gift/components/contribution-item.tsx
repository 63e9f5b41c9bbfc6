import { groupTexts, type Contribution } from '@giftlens/contract/group-gifts';
import { ArrowDown, ArrowUp, Loader2, Trash2 } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';

/** One contribution in the organizer's list: who, their message to play or read, and its place in the order. */
export function ContributionItem({
  contribution: c,
  first,
  last,
  busy,
  onMove,
  onRemove,
}: {
  contribution: Contribution;
  first: boolean;
  last: boolean;
  busy: boolean;
  onMove: (position: number) => void;
  onRemove: () => void;
}) {
  const from = groupTexts.fromName(c.name);
  return (
    <li className="flex flex-col gap-3 rounded-2xl border border-stone-200 bg-white p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h4 className="font-semibold text-stone-900">
          <span className="mr-2 text-stone-500">{c.position}.</span>
          {from}
        </h4>
        <span className="text-xs text-stone-500">{c.email}</span>
      </div>
      {c.state === 'processing' ? (
        <p className="flex items-center gap-2 text-sm text-stone-600">
          <Loader2 className="size-4 animate-spin" aria-hidden /> Preparing this {c.messageType === 'audio' ? 'voice message' : 'video'}…
        </p>
      ) : c.state === 'failed' ? (
        <p className="text-sm text-red-700">This file could not be used.</p>
      ) : c.messageType === 'text' ? (
        <blockquote className="rounded-xl bg-stone-50 px-4 py-3 whitespace-pre-wrap break-words text-stone-800">{c.text}</blockquote>
      ) : c.messageType === 'video' && c.messageUrl ? (
        <video
          src={c.messageUrl}
          poster={c.posterUrl ?? undefined}
          controls
          playsInline
          preload="metadata"
          aria-label={`Video message from ${c.name}`}
          className="aspect-video w-full rounded-xl bg-stone-900"
        />
      ) : c.messageUrl ? (
        <audio src={c.messageUrl} controls preload="metadata" aria-label={`Voice message from ${c.name}`} className="w-full" />
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="secondary" disabled={busy || first} onClick={() => onMove(c.position - 1)} aria-label={`Move ${c.name} up`}>
          <ArrowUp className="size-4" aria-hidden /> Up
        </Button>
        <Button size="sm" variant="secondary" disabled={busy || last} onClick={() => onMove(c.position + 1)} aria-label={`Move ${c.name} down`}>
          <ArrowDown className="size-4" aria-hidden /> Down
        </Button>
        <Button size="sm" variant="ghost" disabled={busy} onClick={onRemove} className="ml-auto text-red-700" aria-label={`Remove ${c.name}’s message`}>
          <Trash2 className="size-4" aria-hidden /> Remove
        </Button>
      </div>
    </li>
  );
}
