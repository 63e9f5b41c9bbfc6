import { formatLimit } from '@giftlens/contract/plans';
import { MESSAGE_FILE_ACCEPT } from '@giftlens/contract/media';
import { FileAudio, FileVideo, RotateCcw, Upload } from 'lucide-react';
import { useId, useRef, type ChangeEvent, type RefObject } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { formatFileMegabytes } from '@giftlens/contract/plans';
import { useFocusWhenLost } from '../../../lib/use-focus.ts';
import type { ChosenMedia } from '../hooks/use-chosen-media.ts';

/** The dashed "upload a file" card shown under the recorder. */
export function UploadCard({
  kind,
  limit,
  inputRef,
  onFile,
}: {
  kind: 'video' | 'audio';
  limit: number;
  inputRef: RefObject<HTMLInputElement | null>;
  onFile: (file: File, input: HTMLInputElement) => void;
}) {
  const inputId = useId();
  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (file) onFile(file, e.target);
  };
  return (
    <div className="flex flex-col items-center gap-3 rounded-2xl border-2 border-dashed border-stone-300 p-5 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-stone-100 text-stone-600">
        <Upload className="size-6" aria-hidden />
      </span>
      <div>
        <p className="font-semibold text-stone-900">Upload a {kind === 'video' ? 'video' : 'voice'} file</p>
        <p className="text-sm text-stone-500">
          {kind === 'video' ? 'MOV, MP4, WebM or AVI' : 'MP3, WAV, M4A, OGG and more'} · up to {formatLimit(limit)}
        </p>
      </div>
      {/* Before its label, so the label (its peer) shows the keyboard focus the hidden input has (WCAG 2.4.7). */}
      <input
        ref={inputRef}
        id={inputId}
        type="file"
        accept={MESSAGE_FILE_ACCEPT[kind]}
        aria-label={kind === 'video' ? 'Upload video file' : 'Upload audio file'}
        className="peer sr-only"
        onChange={onChange}
      />
      <label
        htmlFor={inputId}
        className="inline-flex min-h-11 cursor-pointer items-center justify-center rounded-xl border border-stone-300 bg-white px-5 py-2.5 font-semibold text-stone-800 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600 hover:bg-stone-50"
      >
        Choose {kind} file
      </label>
    </div>
  );
}

/** The chosen or recorded file, playable, with its name and size and a way to choose again. */
export function MediaPreview({
  kind,
  media,
  busy,
  onClear,
}: {
  kind: 'video' | 'audio';
  media: ChosenMedia;
  busy: boolean;
  onClear: () => void;
}) {
  // After Stop recording (or a chosen file) the recorder is replaced by this preview: its button takes focus.
  const again = useRef<HTMLButtonElement>(null);
  useFocusWhenLost(again, true);
  return (
    <div className="flex flex-col gap-4">
      {kind === 'video' ? (
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
          {kind === 'video' ? <FileVideo className="size-4 shrink-0" aria-hidden /> : <FileAudio className="size-4 shrink-0" aria-hidden />}
          <span className="truncate">{media.file.name}</span>
          <span className="shrink-0 text-stone-500">{formatFileMegabytes(media.file.size)}MB</span>
        </span>
        <Button ref={again} variant="secondary" onClick={onClear} disabled={busy}>
          <RotateCcw className="size-4" aria-hidden /> Upload Again
        </Button>
      </div>
    </div>
  );
}
