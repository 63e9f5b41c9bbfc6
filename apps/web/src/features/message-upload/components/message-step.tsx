import { DEFAULT_MESSAGE_LIMIT_BYTES } from '@giftlens/contract/constants';
import { texts } from '@giftlens/contract/texts';
import { findPlan, formatLimit, type PlanId } from '@giftlens/contract/plans';
import type { MessageType } from '@giftlens/contract/sender';
import { FileAudio, FileVideo, Mic, RotateCcw, Type, Upload, Video } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { toast } from 'sonner';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { formatMegabytes } from '../../../lib/format.ts';
import { errorText } from '../../../lib/user-text.ts';
import { useSaveTextMessage } from '../api/save-text-message.ts';
import { useUploadStatus } from '../hooks/use-upload-status.ts';
import { clearUploadState, getUploadState, startUpload, uploadToastId } from '../lib/upload-manager.ts';
import { AudioRecorderBox, VideoRecorderBox } from './recorder-box.tsx';
import { TextPanel } from './text-panel.tsx';
import { UploadOverlay } from './upload-overlay.tsx';

type Tab = 'video' | 'audio' | 'text';
const TABS: { id: Tab; label: string; icon: typeof Video }[] = [
  { id: 'video', label: 'Video Message', icon: Video },
  { id: 'audio', label: 'Voice Message', icon: Mic },
  { id: 'text', label: 'Text Message', icon: Type },
];

const VIDEO_ACCEPT = 'video/mp4,video/quicktime,video/webm,video/x-msvideo,video/avi,.mp4,.mov,.webm,.avi';
const VIDEO_EXT: Record<string, string> = { mp4: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm', avi: 'video/x-msvideo' };
const AUDIO_EXT: Record<string, string> = {
  mp3: 'audio/mpeg', wav: 'audio/wav', m4a: 'audio/mp4', aac: 'audio/aac', ogg: 'audio/ogg', oga: 'audio/ogg',
  opus: 'audio/ogg', webm: 'audio/webm', flac: 'audio/flac',
};

/** The file's MIME type, falling back to its extension (some browsers leave .mov or .avi untyped). */
function mediaType(file: File, kind: MessageType): string | null {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  const table = kind === 'video' ? VIDEO_EXT : AUDIO_EXT;
  if (file.type.startsWith(`${kind}/`)) return file.type;
  // A recorded-in-browser webm audio may arrive as video/webm.
  return table[ext] ?? null;
}

interface Media {
  file: File;
  url: string;
  type: string;
}

export interface MessageStepProps {
  giftId: string;
  planId: PlanId | null;
  planName: string | null;
  /** The message the gift already has on the server, if any (a new one replaces it). */
  existingMessage?: 'video' | 'audio' | 'text' | null;
  /**
   * checkout: the wizard's step before paying. replace: a paid gift's message recorded or uploaded again (until
   * the gift is first opened); afterwards the sender goes back to My Gifts.
   */
  purpose?: MessagePurpose;
  /** Go on (to checkout, or back to My Gifts); the upload may still be running in the background. */
  onContinue: (giftId: string) => void;
}

export type MessagePurpose = 'checkout' | 'replace';

/** What differs between the wizard's message step and replacing a paid gift's message. */
const TEXTS: Record<
  MessagePurpose,
  { title: string; intro: string; submit: string; hasMessage: string; background: string; continueNow: string; whileUploading: string }
> = {
  checkout: {
    title: 'Add Your Personal Message',
    intro: 'Record or upload a message. It plays when they photograph the gift.',
    submit: 'Continue to Checkout',
    hasMessage: 'Your message is uploaded. Continue to checkout, or record or upload a new one to replace it.',
    background: 'Your message keeps uploading in the background, so you can go on to checkout.',
    continueNow: 'Continue to checkout now',
    whileUploading: 'The upload keeps going in the background if you continue to checkout.',
  },
  replace: {
    title: 'Replace Your Message',
    intro: 'Record or upload a new message. It replaces the current one; your recipient has not opened the gift yet.',
    submit: 'Save New Message',
    hasMessage: 'Your gift has a message. Record, upload or write a new one to replace it.',
    background: 'Your message keeps uploading in the background, so you can go back to My Gifts.',
    continueNow: 'Back to My Gifts now',
    whileUploading: 'The upload keeps going in the background if you go back to My Gifts.',
  },
};

export function MessageStep({
  giftId,
  planId,
  planName,
  existingMessage = null,
  purpose = 'checkout',
  onContinue,
}: MessageStepProps) {
  const copy = TEXTS[purpose];
  const [tab, setTab] = useState<Tab>('video');
  const [media, setMedia] = useState<Media | null>(null);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [overlay, setOverlay] = useState(false);
  const submitting = useRef(false);
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const fileInputId = useId();
  const saveText = useSaveTextMessage();
  const upload = useUploadStatus(giftId);

  const limit = (planId ? findPlan(planId)?.maxFileBytes : undefined) ?? DEFAULT_MESSAGE_LIMIT_BYTES;
  const planLabel = `${planName ?? findPlan(planId ?? '')?.name ?? 'Premium'} plan`;

  useEffect(() => () => {
    if (media) URL.revokeObjectURL(media.url);
  }, [media]);

  const clearMedia = () => {
    setMedia(null);
    setError(null);
    if (fileInput.current) fileInput.current.value = '';
  };

  const switchTab = (next: Tab) => {
    if (next === tab) return;
    // Switching the message type drops whatever was chosen for the previous one.
    clearMedia();
    setText('');
    setTab(next);
  };

  const accept = (file: File, input?: HTMLInputElement | null): void => {
    const kind: MessageType = tab === 'audio' ? 'audio' : 'video';
    const type = mediaType(file, kind);
    if (!type) {
      setError(texts.sender.fileTypeInvalid);
      toast.error(texts.sender.fileTypeInvalid);
      if (input) input.value = '';
      return;
    }
    if (file.size > limit) {
      const text = texts.sender.fileTooLarge(planLabel, formatLimit(limit), formatMegabytes(file.size));
      setError(text);
      toast.error(text);
      if (input) input.value = '';
      return;
    }
    setError(null);
    setMedia({ file, url: URL.createObjectURL(file), type });
  };

  const onFile = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (file) accept(file, e.target);
  };

  // Set once we have moved on, so a background upload finishing later does not navigate a second time.
  const left = useRef(false);
  useEffect(() => {
    left.current = false;
    return () => {
      left.current = true;
    };
  }, []);
  const goToCheckout = () => {
    if (left.current) return;
    left.current = true;
    onContinue(giftId);
  };

  // Going on while the upload runs: said once, in the upload's own toast, which its outcome then replaces.
  const continueWhileUploading = () => {
    const phase = getUploadState(giftId)?.phase;
    if (phase === 'caching' || phase === 'uploading') toast.info(copy.background, { id: uploadToastId(giftId) });
    goToCheckout();
  };

  // Replacing again later in the same visit starts clean: an earlier upload's outcome is not this one's.
  useEffect(() => {
    const phase = getUploadState(giftId)?.phase;
    if (purpose === 'replace' && (phase === 'completed' || phase === 'failed')) clearUploadState(giftId);
  }, [purpose, giftId]);

  const alreadyHasMessage = existingMessage !== null || upload?.phase === 'completed';
  // Replacing: only a message uploaded on this screen counts as done; the old one is what is being replaced.
  const done = purpose === 'replace' ? upload?.phase === 'completed' : alreadyHasMessage;

  const submit = async () => {
    if (submitting.current) return;
    // Nothing new chosen but the gift already has its message: just go on.
    if (done && !media && !text.trim()) {
      goToCheckout();
      return;
    }
    if (tab === 'text') {
      const trimmed = text.trim();
      if (!trimmed) {
        setError(texts.sender.messageRequired);
        toast.error(texts.sender.messageRequired);
        return;
      }
      submitting.current = true;
      setBusy(true);
      saveText.mutate(
        { giftId, text: trimmed },
        {
          onSuccess: () => {
            toast.success('Message saved!');
            goToCheckout();
          },
          onError: (err) => {
            const text = errorText(err, texts.sender.generic);
            setError(text);
            toast.error(text);
          },
          onSettled: () => {
            submitting.current = false;
            setBusy(false);
          },
        },
      );
      return;
    }
    if (!media) {
      setError(texts.sender.messageRequired);
      toast.error(texts.sender.messageRequired);
      return;
    }
    submitting.current = true;
    setBusy(true);
    setError(null);
    setOverlay(true);
    clearUploadState(giftId);
    const ok = await startUpload({
      giftId,
      file: media.file,
      messageType: tab,
      fileName: media.file.name,
      fileType: media.type,
    });
    submitting.current = false;
    setBusy(false);
    setOverlay(false);
    if (ok) goToCheckout();
  };

  const kindLabel = tab === 'video' ? 'video' : 'audio';
  const uploadCard = (
    <div className="flex flex-col items-center gap-3 rounded-2xl border-2 border-dashed border-stone-300 p-5 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-stone-100 text-stone-600">
        <Upload className="size-6" aria-hidden />
      </span>
      <div>
        <p className="font-semibold text-stone-900">Upload a {tab === 'video' ? 'video' : 'voice'} file</p>
        <p className="text-sm text-stone-500">
          {tab === 'video' ? 'MOV, MP4, WebM or AVI' : 'MP3, WAV, M4A, OGG and more'} · up to {formatLimit(limit)}
        </p>
      </div>
      <label
        htmlFor={fileInputId}
        className="inline-flex min-h-11 cursor-pointer items-center justify-center rounded-xl border border-stone-300 bg-white px-5 py-2.5 font-semibold text-stone-800 hover:bg-stone-50 has-focus-visible:ring-2"
      >
        Choose {kindLabel} file
      </label>
      <input
        ref={fileInput}
        id={fileInputId}
        type="file"
        accept={tab === 'video' ? VIDEO_ACCEPT : 'audio/*'}
        aria-label={tab === 'video' ? 'Upload video file' : 'Upload audio file'}
        className="sr-only"
        onChange={onFile}
      />
    </div>
  );

  const uploading = upload && (upload.phase === 'caching' || upload.phase === 'uploading');

  return (
    <div className="flex flex-col gap-6">
      <div className="text-center">
        <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">{copy.title}</h1>
        <p className="mt-2 text-stone-600">{copy.intro}</p>
      </div>

      <div
        role="tablist"
        aria-label="Message type"
        className="grid grid-cols-3 gap-1 rounded-2xl bg-stone-100 p-1"
        onKeyDown={(e) => {
          if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
          const i = TABS.findIndex((t) => t.id === tab);
          const next = TABS[(i + (e.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length];
          if (!next) return;
          switchTab(next.id);
          document.getElementById(`message-tab-${next.id}`)?.focus();
        }}
      >
        {TABS.map(({ id, label, icon: Icon }) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`message-tab-${id}`}
            aria-selected={tab === id}
            tabIndex={tab === id ? 0 : -1}
            aria-controls="message-tab-panel"
            onClick={() => switchTab(id)}
            className={`flex min-h-11 flex-col items-center justify-center gap-1 rounded-xl px-1 py-2 text-xs font-semibold sm:flex-row sm:gap-2 sm:text-sm ${tab === id ? 'bg-white text-brand-700 shadow-sm' : 'text-stone-600 hover:text-stone-900'}`}
          >
            <Icon className="size-4" aria-hidden />
            {label}
          </button>
        ))}
      </div>

      <div role="tabpanel" id="message-tab-panel" aria-labelledby={`message-tab-${tab}`} className="flex flex-col gap-4">
        {tab === 'text' ? (
          <TextPanel value={text} onChange={setText} />
        ) : media ? (
          <div className="flex flex-col gap-4">
            {tab === 'video' ? (
              <video
                key={media.url}
                src={media.url}
                controls
                playsInline
                aria-label="Message preview"
                className="max-h-[60vh] w-full rounded-2xl bg-stone-900"
              />
            ) : (
              <audio key={media.url} src={media.url} controls aria-label="Message preview" className="w-full" />
            )}
            <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl bg-stone-50 px-4 py-3 text-sm">
              <span className="flex min-w-0 items-center gap-2 text-stone-700">
                {tab === 'video' ? <FileVideo className="size-4 shrink-0" aria-hidden /> : <FileAudio className="size-4 shrink-0" aria-hidden />}
                <span className="truncate">{media.file.name}</span>
                <span className="shrink-0 text-stone-500">{formatMegabytes(media.file.size)}MB</span>
              </span>
              <Button variant="secondary" onClick={clearMedia} disabled={busy}>
                <RotateCcw className="size-4" aria-hidden /> Upload Again
              </Button>
            </div>
          </div>
        ) : tab === 'video' ? (
          <VideoRecorderBox key="video" onRecorded={(f) => accept(f)} idleExtra={uploadCard} />
        ) : (
          <AudioRecorderBox key="audio" onRecorded={(f) => accept(f)} idleExtra={uploadCard} />
        )}
      </div>

      {alreadyHasMessage && !uploading ? (
        <Alert tone={purpose === 'replace' && !done ? 'info' : 'success'}>{copy.hasMessage}</Alert>
      ) : null}
      {error ? <Alert>{error}</Alert> : null}
      {upload?.phase === 'failed' && !error ? <Alert>Upload failed: {upload.error}</Alert> : null}

      <Button block onClick={() => void submit()} disabled={busy}>
        {busy ? (tab === 'text' ? 'Saving…' : 'Uploading…') : copy.submit}
      </Button>

      {overlay || uploading ? (
        <UploadOverlay
          state={upload}
          messageType={upload?.messageType ?? (tab === 'audio' ? 'audio' : 'video')}
          continueLabel={copy.continueNow}
          continueNote={copy.whileUploading}
          onContinueInBackground={continueWhileUploading}
        />
      ) : null}
    </div>
  );
}
