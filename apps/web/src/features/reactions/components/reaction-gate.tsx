import type { PlayConsentResponse } from '@giftlens/contract/recipient';
import { texts } from '@giftlens/contract/texts';
import { Video } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from '../../../lib/toast.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { RECIPIENT_KEYS, readString } from '../../../lib/recipient-storage.ts';
import { postConsent } from '../api/post-consent.ts';
import { requestPlayConsent } from '../api/request-play-consent.ts';
import { newPlaybackSessionId, ReactionRecording } from '../lib/reaction-recording.ts';
import { RecBadge } from './rec-badge.tsx';
import type { PlayGateProps } from '../../../components/media/play-gate.ts';

/** What the server answered the play-consent call (null: the call failed), and the playback it was asked for. */
interface ConsentAnswer {
  answer: PlayConsentResponse | null;
  playbackSessionId: string;
}

/** Waits (briefly) for the media's duration, which play-consent reports. */
function metadataOf(media: HTMLMediaElement | null): Promise<void> {
  if (!media || media.readyState >= HTMLMediaElement.HAVE_METADATA) return Promise.resolve();
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
 *
 * Every tap that plays calls play() at once, inside the tap: a phone (iOS) lets a page start media only in the
 * gesture, and loses it across a slow network call. The bookkeeping runs beside the playback: the play-consent call
 * (opened by the Play tap, which shows the question without waiting for it), the answer, the camera.
 */
export function ReactionGate({ giftId, message, mediaType, getMedia, play, renderPlayButton }: PlayGateProps) {
  const [modalOpen, setModalOpen] = useState(false);
  const [recording, setRecording] = useState(false);
  const recordingRef = useRef<ReactionRecording | null>(null);
  // The play-consent call of this page's Play tap: asked once, answered whenever the server answers.
  const consentRef = useRef<Promise<ConsentAnswer> | null>(null);

  useEffect(() => () => recordingRef.current?.dispose(), []);

  /** Opens the play-consent call (the media's duration when it is known within 1.5 s); never throws. */
  const askConsent = (): Promise<ConsentAnswer> => {
    const media = getMedia();
    const playbackSessionId = newPlaybackSessionId();
    return metadataOf(media)
      .then(() =>
        requestPlayConsent({
          giftId,
          recipientId: message.recipientId ?? readString('session', RECIPIENT_KEYS.recipientId),
          recipientName: message.recipientName.slice(0, 100) || null,
          recipientEmail: message.recipientEmail ?? readString('session', RECIPIENT_KEYS.recipientEmail),
          mediaDuration: media && Number.isFinite(media.duration) ? Math.round(media.duration) : null,
          playbackSessionId,
        }),
      )
      .then(
        (answer) => ({ answer, playbackSessionId }),
        () => ({ answer: null, playbackSessionId }),
      );
  };

  /** The reaction this playback may record, or null (told to the recipient when it is not the answer they chose). */
  const openedReaction = async (announce: boolean): Promise<{ reactionId: string; playbackSessionId: string } | null> => {
    const { answer, playbackSessionId } = await (consentRef.current ?? askConsent());
    consentRef.current = null;
    if (!answer) {
      if (announce) toast.error(texts.recipient.consentFailed);
      return null;
    }
    if (!answer.allowRecording || !answer.data) {
      if (announce && answer.message === texts.recipient.alreadyReacted) toast.info(texts.recipient.alreadyReacted);
      return null;
    }
    return { reactionId: answer.data.id, playbackSessionId };
  };

  const onPress = () => {
    if (!message.reactionsEnabled) {
      void play();
      return;
    }
    if (message.hasReaction) {
      void play();
      toast.info(texts.recipient.alreadyReacted);
      void askConsent();
      return;
    }
    consentRef.current ??= askConsent();
    setModalOpen(true);
  };

  const recordAndPlay = () => {
    setModalOpen(false);
    const media = getMedia();
    if (!media) {
      void play();
      return;
    }
    const rec = new ReactionRecording({
      onRecordingChange: setRecording,
      onSaved: () => toast.success(texts.recipient.reactionSaved),
      onSaveFailed: (reason) => toast.error(texts.recipient.saveReactionFailed(reason)),
      // Long enough to read; the message stays on the page to watch again.
      onNothingRecorded: () => toast.warning(texts.recipient.reactionRecordedNothing, { duration: 15_000 }),
    });
    recordingRef.current = rec;
    rec.follow(media);
    void play().then((playing) => {
      if (!playing) rec.dispose();
    });
    void startRecording(rec);
  };

  /** Beside the playback: the consent answer, the recipient's yes, the camera, then the recorder. */
  const startRecording = async (rec: ReactionRecording) => {
    const reaction = await openedReaction(true);
    if (!reaction) {
      rec.dispose();
      return;
    }
    try {
      rec.assign(reaction.reactionId, reaction.playbackSessionId);
      await postConsent(reaction.reactionId, true);
      await rec.open();
    } catch (err) {
      rec.dispose();
      toast.error(texts.recipient.unableToRecord(reasonOf(err)));
      return;
    }
    rec.begin();
    toast.info(texts.recipient.recordingReaction);
  };

  const justPlay = () => {
    setModalOpen(false);
    void play();
    // Record the refusal; nothing is recorded either way, so a failure here does not matter to the recipient.
    void openedReaction(false).then((reaction) => {
      if (reaction) postConsent(reaction.reactionId, false).catch(() => undefined);
    });
  };

  return (
    <>
      {renderPlayButton(onPress, false)}
      <Modal
        open={modalOpen}
        title="Record your reaction?"
        onDismiss={() => setModalOpen(false)}
        // The Play button that opened it is gone or busy: the player takes focus, where the message plays.
        returnFocus={getMedia}
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
          <Button block onClick={recordAndPlay}>
            <Video className="size-5" aria-hidden />
            Play &amp; Record Video
          </Button>
          <Button variant="secondary" block onClick={justPlay}>
            Just Play
          </Button>
        </div>
      </Modal>
      {recording ? <RecBadge /> : null}
    </>
  );
}
