import { Loader2, Music, Play } from 'lucide-react';
import { useEffect, useRef, useState, type MouseEvent, type ReactNode, type SyntheticEvent } from 'react';
import type { PlayGateProps } from '../../../components/media/play-gate.ts';

interface MessagePlayerProps {
  kind: 'audio' | 'video';
  src: string;
  /** A frame of the video shown before play. */
  poster: string | null;
  senderName: string;
  /** Renders the gate around Play (consent and reaction recording, or plain play). */
  renderGate: (props: Pick<PlayGateProps, 'getMedia' | 'play' | 'renderPlayButton' | 'mediaType'>) => ReactNode;
  /** The media could not go on: with the refusal of a fresh link when that is why (refreshSrc), else nothing. */
  onMediaError: (refusal?: unknown) => void;
  onPlayFailed: () => void;
  /**
   * A fresh link of the same message (its link lasts minutes): asked when the media fails, the player then goes on
   * from where it was. Resolves null when the message has no media any more; rejects when refused.
   */
  refreshSrc?: () => Promise<string | null>;
  /** The clip played to its end (a group gift goes on to the next message). */
  onEnded?: () => void;
  /** Start at once (the next message of a group gift after the last one ended); Play shows if the browser refuses. */
  autoPlay?: boolean;
}

const preventMenu = (e: MouseEvent) => e.preventDefault();
// No download button, no speed menu, no picture-in-picture: the message is to be watched here, not taken away.
const CONTROLS_LIST = 'nodownload noplaybackrate';

/** The audio or video message with a play overlay; native controls appear once it has started. */
export function MessagePlayer({
  kind,
  src,
  poster,
  senderName,
  renderGate,
  onMediaError,
  onPlayFailed,
  onEnded,
  autoPlay = false,
  refreshSrc,
}: MessagePlayerProps) {
  // The element is kept in state (a callback ref) so the gate can be handed it during render.
  const [media, setMedia] = useState<HTMLMediaElement | null>(null);
  const [started, setStarted] = useState(false);
  // The link in use: the page's, or a fresh one after the page's ran out (issue 37).
  const [current, setCurrent] = useState(src);
  const [givenSrc, setGivenSrc] = useState(src);
  if (givenSrc !== src) {
    setGivenSrc(src);
    setCurrent(src);
  }
  const playing = useRef(false);
  // Where to go on once a fresh link has loaded; and whether the fresh link has not loaded yet (it failing too is
  // the file's fault, not its link's: then the page says it cannot play).
  const resumeAt = useRef<{ time: number; play: boolean } | null>(null);
  const unproven = useRef(false);
  const recovering = useRef(false);

  const onError = () => {
    if (!refreshSrc || !media || unproven.current) return onMediaError();
    if (recovering.current) return;
    recovering.current = true;
    const position = { time: media.currentTime, play: playing.current };
    refreshSrc()
      .then((fresh) => {
        if (!fresh) return onMediaError();
        resumeAt.current = position;
        unproven.current = true;
        setCurrent(fresh);
      })
      .catch((refusal: unknown) => onMediaError(refusal))
      .finally(() => {
        recovering.current = false;
      });
  };

  const onLoadedMetadata = (e: SyntheticEvent<HTMLMediaElement>) => {
    const resume = resumeAt.current;
    if (!resume) return;
    resumeAt.current = null;
    const element = e.currentTarget;
    element.currentTime = resume.time;
    if (resume.play) {
      element.play().catch(() => {
        // Refused without a tap: the native controls are there to go on.
      });
    }
  };
  const onCanPlay = () => {
    unproven.current = false;
  };
  const mediaEvents = {
    onError,
    onLoadedMetadata,
    onCanPlay,
    onPlaying: () => void (playing.current = true),
    onPause: () => void (playing.current = false),
  };

  useEffect(() => {
    if (!autoPlay || !media) return;
    media.play().catch(() => {
      // Refused without a tap (autoplay policy): the Play button stays, as for the first message.
    });
  }, [autoPlay, media]);

  const getMedia = (): HTMLMediaElement | null => media;

  const play = async (): Promise<boolean> => {
    if (!media) return false;
    try {
      await media.play();
      return true;
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') return false;
      onPlayFailed();
      return false;
    }
  };

  const renderPlayButton = (onPress: () => void, busy: boolean) =>
    started ? null : (
      <button
        type="button"
        onClick={onPress}
        disabled={busy}
        aria-label="Play message"
        className="group absolute inset-0 z-10 flex items-center justify-center bg-black/35 focus-visible:outline-4 focus-visible:-outline-offset-4 focus-visible:outline-brand-500"
      >
        <span className="flex size-20 items-center justify-center rounded-full bg-brand-500 text-white shadow-xl transition group-hover:scale-105 group-hover:bg-brand-600 sm:size-24">
          {busy ? (
            <Loader2 className="size-9 animate-spin" aria-hidden />
          ) : (
            <Play className="ml-1 size-9 fill-current sm:size-11" aria-hidden />
          )}
        </span>
      </button>
    );

  const gate = renderGate({ getMedia, play, renderPlayButton, mediaType: kind });

  if (kind === 'video') {
    return (
      <div className="relative overflow-hidden rounded-3xl bg-black shadow-lg">
        <video
          ref={setMedia}
          src={current}
          poster={poster ?? undefined}
          controls={started}
          // Focusable by script before it has controls (the consent dialog hands focus back to it), in the tab order after.
          tabIndex={started ? 0 : -1}
          controlsList={CONTROLS_LIST}
          disablePictureInPicture
          playsInline
          preload="metadata"
          onContextMenu={preventMenu}
          onPlay={() => setStarted(true)}
          onEnded={() => {
            playing.current = false;
            onEnded?.();
          }}
          {...mediaEvents}
          aria-label={`Video message from ${senderName}`}
          className="aspect-video max-h-[70dvh] w-full bg-black object-contain"
        />
        {gate}
      </div>
    );
  }

  return (
    <div className="relative overflow-hidden rounded-3xl bg-gradient-to-br from-brand-500 to-brand-700 p-6 text-white shadow-lg sm:p-8">
      <div className="flex flex-col items-center gap-4 text-center">
        <span className="flex size-20 items-center justify-center rounded-full bg-white/15">
          <Music className="size-10" aria-hidden />
        </span>
        <p className="font-semibold">A voice message from {senderName}</p>
        <audio
          ref={setMedia}
          src={current}
          controls={started}
          // Focusable by script before it has controls (the consent dialog hands focus back to it), in the tab order after.
          tabIndex={started ? 0 : -1}
          controlsList={CONTROLS_LIST}
          preload="metadata"
          onContextMenu={preventMenu}
          onPlay={() => setStarted(true)}
          onEnded={() => {
            playing.current = false;
            onEnded?.();
          }}
          {...mediaEvents}
          aria-label={`Voice message from ${senderName}`}
          className={started ? 'w-full' : 'hidden'}
        />
      </div>
      {gate}
    </div>
  );
}
