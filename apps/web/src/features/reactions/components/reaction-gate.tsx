import { texts } from '@giftlens/contract/texts';
import { Video } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { RECIPIENT_KEYS, readString } from '../../../lib/recipient-storage.ts';
import { postConsent } from '../api/post-consent.ts';
import { requestPlayConsent } from '../api/request-play-consent.ts';
import { newPlaybackSessionId, ReactionRecording } from '../lib/reaction-recording.ts';
import { RecBadge } from './rec-badge.tsx';
import type { PlayGateProps } from '../../../components/media/play-gate.ts';


interface PendingConsent {
  reactionId: string;
  playbackSessionId: string;
}

/** Waits (briefly) for the media's duration, which play-consent reports. */
function metadataOf(media: HTMLMediaElement): Promise<void> {
  if (media.readyState >= HTMLMediaElement.HAVE_METADATA) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      window.clearTimeout(timer);
      media.removeEventListener('loadedmetadata', done);
      resolve();
    };
    const timer = window.setTimeout(done, 1500);
    media.addEventListener('loadedmetadata', done);
  });
}

const reasonOf = (err: unknown) => (err instanceof Error && err.message ? err.message : String(err));

/**
 * Play on the Lifetime plan: ask whether the recipient's reaction may be recorded ("Play & Record Video" or
 * "Just Play"); an existing reaction means just playing. Nothing is recorded without a yes.
 */
/** The Lifetime plan's gate: asks for consent, then plays and records the reaction; the app layer plugs it in. */
export function ReactionGate({ giftId, message, mediaType, getMedia, play, renderPlayButton }: PlayGateProps) {
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<PendingConsent | null>(null);
  const [modalOpen, setModalOpen] = useState(false);
  const [recording, setRecording] = useState(false);
  const recordingRef = useRef<ReactionRecording | null>(null);

  useEffect(() => () => recordingRef.current?.dispose(), []);

  const onPress = async () => {
    if (!message.reactionsEnabled) {
      await play();
      return;
    }
    if (pending) {
      setModalOpen(true);
      return;
    }
    setBusy(true);
    const media = getMedia();
    if (media) await metadataOf(media);
    const playbackSessionId = newPlaybackSessionId();
    try {
      const res = await requestPlayConsent({
        giftId,
        recipientId: message.recipientId ?? readString('session', RECIPIENT_KEYS.recipientId),
        recipientName: message.recipientName.slice(0, 100) || null,
        recipientEmail: message.recipientEmail ?? readString('session', RECIPIENT_KEYS.recipientEmail),
        mediaDuration: media && Number.isFinite(media.duration) ? Math.round(media.duration) : null,
        playbackSessionId,
      });
      if (!res.allowRecording || !res.data) {
        if (res.message === texts.recipient.alreadyReacted || message.hasReaction) toast.info(texts.recipient.alreadyReacted);
        await play();
        return;
      }
      setPending({ reactionId: res.data.id, playbackSessionId });
      setModalOpen(true);
    } catch {
      toast.error(texts.recipient.consentFailed);
      await play();
    } finally {
      setBusy(false);
    }
  };

  const recordAndPlay = async () => {
    if (!pending) return;
    setModalOpen(false);
    setPending(null);
    const media = getMedia();
    const rec = new ReactionRecording(pending.reactionId, pending.playbackSessionId, {
      onRecordingChange: setRecording,
      onSaved: () => toast.success(texts.recipient.reactionSaved),
      onSaveFailed: (reason) => toast.error(texts.recipient.saveReactionFailed(reason)),
      // Long enough to read; the message stays on the page to watch again.
      onNothingRecorded: () => toast.warning(texts.recipient.reactionRecordedNothing, { duration: 15_000 }),
    });
    try {
      await postConsent(pending.reactionId, true);
      await rec.open();
    } catch (err) {
      rec.dispose();
      toast.error(texts.recipient.unableToRecord(reasonOf(err)));
      await play();
      return;
    }
    if (!media) {
      rec.dispose();
      return;
    }
    recordingRef.current = rec;
    rec.begin(media);
    toast.info(texts.recipient.recordingReaction);
    if (!(await play())) rec.dispose();
  };

  const justPlay = async () => {
    if (!pending) return;
    setModalOpen(false);
    setPending(null);
    // Record the refusal; nothing is recorded either way, so a failure here does not matter to the recipient.
    postConsent(pending.reactionId, false).catch(() => undefined);
    await play();
  };

  return (
    <>
      {renderPlayButton(() => void onPress(), busy)}
      <Modal
        open={modalOpen}
        title="Record your reaction?"
        onDismiss={() => setModalOpen(false)}
        icon={
          <span className="flex size-14 items-center justify-center rounded-full bg-brand-100 text-brand-600">
            <Video className="size-7" aria-hidden />
          </span>
        }
      >
        <p className="text-stone-700">
          {message.senderName || 'The sender'} would love to see your reaction. With your permission, we&apos;ll
          record a short video of you with your front camera while the {mediaType === 'video' ? 'video' : 'message'}{' '}
          plays, and share it only with them.
        </p>
        <p className="text-sm text-stone-500">Recording stops a second after the message ends. You can say no.</p>
        <div className="mt-2 flex w-full flex-col gap-3">
          <Button block onClick={() => void recordAndPlay()}>
            <Video className="size-5" aria-hidden />
            Play &amp; Record Video
          </Button>
          <Button variant="secondary" block onClick={() => void justPlay()}>
            Just Play
          </Button>
        </div>
      </Modal>
      {recording ? <RecBadge /> : null}
    </>
  );
}
