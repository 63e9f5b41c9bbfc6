import { groupTexts, type RevealedContribution } from '@giftlens/contract/group-gifts';
import { Download } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { PlayGateProps } from '../../../components/media/play-gate.ts';
import { MessagePlayer } from './message-player.tsx';
import { TextCard } from './text-card.tsx';

const { fromName } = groupTexts;

/** A contribution's player: no consent gate (reactions are recorded for the organizer's message only). */
function directGate({ play, renderPlayButton }: Pick<PlayGateProps, 'play' | 'renderPlayButton'>) {
  return renderPlayButton(() => void play(), false);
}

/**
 * A group gift's messages: the organizer's first (with its reaction gate), then each contribution in the
 * organizer's order with "From {name}", a list to jump between them, and the next one starting when a clip ends.
 * The organizer's player stays mounted while another message shows, so a reaction being recorded is kept.
 */
export function GroupMessages({
  senderName,
  renderOrganizer,
  contributions,
  combinedDownloadUrl,
  onMediaError,
  refreshContribution,
}: {
  senderName: string;
  renderOrganizer: (onEnded: () => void) => ReactNode;
  contributions: RevealedContribution[];
  combinedDownloadUrl: string | null;
  onMediaError: (refusal?: unknown) => void;
  /** A fresh link of the contribution at this index (its link lasts minutes: MessagePlayer refreshSrc). */
  refreshContribution?: (index: number) => Promise<string | null>;
}) {
  const [current, setCurrent] = useState(0);
  // Set when the move came from a clip ending: the next clip then starts by itself.
  const [advanced, setAdvanced] = useState(false);
  const organizer = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const count = contributions.length + 1;

  const show = (index: number, auto: boolean) => {
    if (index < 0 || index >= count) return;
    setAdvanced(auto);
    setCurrent(index);
  };
  const next = () => show(current + 1, true);

  // The organizer's clip does not play on behind another message.
  useEffect(() => {
    if (current !== 0) organizer.current?.querySelectorAll('video, audio').forEach((m) => (m as HTMLMediaElement).pause());
  }, [current]);

  // A jump by hand moves focus to the message's heading, so a screen reader reads whose it is.
  const moved = useRef(false);
  useEffect(() => {
    if (moved.current && !advanced) heading.current?.focus();
    moved.current = true;
  }, [current, advanced]);

  const item = current > 0 ? contributions[current - 1] : undefined;
  const names = [senderName, ...contributions.map((c) => c.from)];

  return (
    <div className="flex flex-col gap-6">
      <nav aria-label="Messages" className="rounded-2xl border border-stone-200 bg-white p-2 shadow-sm">
        <ol className="flex gap-2 overflow-x-auto">
          {names.map((name, i) => (
            <li key={i} className="shrink-0">
              <button
                type="button"
                onClick={() => show(i, false)}
                aria-current={i === current ? 'true' : undefined}
                className={`min-h-11 rounded-xl px-3 py-2 text-sm font-semibold whitespace-nowrap focus-visible:outline-2 focus-visible:outline-brand-500 ${i === current ? 'bg-brand-500 text-white' : 'text-stone-700 hover:bg-stone-100'}`}
              >
                {i + 1}. {i === 0 ? name : fromName(name)}
              </button>
            </li>
          ))}
        </ol>
      </nav>

      <h2 ref={heading} tabIndex={-1} className="text-center text-xl font-bold text-stone-900 focus:outline-none" aria-live="polite">
        {current === 0 ? fromName(senderName) : fromName(item?.from ?? '')}{' '}
        <span className="text-sm font-normal text-stone-500">
          ({current + 1} of {count})
        </span>
      </h2>

      <div ref={organizer} hidden={current !== 0}>
        {renderOrganizer(next)}
      </div>

      {item ? (
        item.messageType === 'text' || !item.messageUrl ? (
          <TextCard text={item.text ?? ''} from={item.from} />
        ) : (
          <MessagePlayer
            key={current}
            kind={item.messageType === 'audio' ? 'audio' : 'video'}
            src={item.messageUrl}
            poster={item.posterUrl}
            senderName={item.from}
            autoPlay={advanced}
            onEnded={next}
            onMediaError={onMediaError}
            onPlayFailed={() => onMediaError()}
            refreshSrc={refreshContribution ? () => refreshContribution(current - 1) : undefined}
            renderGate={directGate}
          />
        )
      ) : null}

      {current < count - 1 ? (
        <button
          type="button"
          onClick={() => show(current + 1, false)}
          className="self-center rounded-xl px-4 py-2 font-semibold text-brand-700 underline underline-offset-2 hover:bg-brand-50"
        >
          Next: {fromName(names[current + 1] ?? '')}
        </button>
      ) : null}

      {combinedDownloadUrl ? (
        <a
          href={combinedDownloadUrl}
          download
          className="inline-flex min-h-11 items-center justify-center gap-2 self-center rounded-xl border border-stone-300 bg-white px-5 py-2.5 font-semibold text-stone-800 hover:bg-stone-50"
        >
          <Download className="size-4" aria-hidden /> Download all messages as one video
        </a>
      ) : null}
    </div>
  );
}
