import { Circle, Mic, Pause, Play, Square, Video } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { formatDuration } from '../../../lib/format.ts';
import { useFocusWhenLost } from '../../../lib/use-focus.ts';
import { useRecordingTimer } from '../hooks/use-recording-timer.ts';
import { useVideoRecorder } from '../hooks/use-video-recorder.ts';
import { useWavRecorder } from '../hooks/use-wav-recorder.ts';
import { recorderErrorText, type RecorderError, type RecorderStatus } from '../lib/recorder-errors.ts';

interface RecorderBoxProps {
  onRecorded: (file: File) => void;
  /** Shown next to the record card while not recording (the upload option). */
  idleExtra: ReactNode;
}

export function VideoRecorderBox({ onRecorded, idleExtra }: RecorderBoxProps) {
  const rec = useVideoRecorder(onRecorded);
  const live = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (live.current) live.current.srcObject = rec.stream;
  }, [rec.stream]);
  return (
    <RecorderFrame
      kind="video"
      status={rec.status}
      error={rec.error}
      onStart={() => void rec.start()}
      onStop={rec.stop}
      onPause={rec.pause}
      onResume={rec.resume}
      idleExtra={idleExtra}
      live={
        <video
          ref={live}
          autoPlay
          muted
          playsInline
          aria-label="Camera preview"
          className="aspect-video w-full -scale-x-100 rounded-2xl bg-stone-900 object-cover"
        />
      }
    />
  );
}

export function AudioRecorderBox({ onRecorded, idleExtra }: RecorderBoxProps) {
  const rec = useWavRecorder(onRecorded);
  return (
    <RecorderFrame
      kind="audio"
      status={rec.status}
      error={rec.error}
      onStart={() => void rec.start()}
      onStop={rec.stop}
      onPause={rec.pause}
      onResume={rec.resume}
      idleExtra={idleExtra}
      live={
        <div className="flex aspect-video w-full items-center justify-center rounded-2xl bg-brand-50">
          <span className={`flex size-20 items-center justify-center rounded-full bg-brand-500 text-white ${'animate-pulse'}`}>
            <Mic className="size-9" aria-hidden />
          </span>
        </div>
      }
    />
  );
}

interface FrameProps {
  kind: 'video' | 'audio';
  status: RecorderStatus;
  error: RecorderError | null;
  onStart: () => void;
  onStop: () => void;
  onPause: () => void;
  onResume: () => void;
  idleExtra: ReactNode;
  live: ReactNode;
}

function RecorderFrame({ kind, status, error, onStart, onStop, onPause, onResume, idleExtra, live }: FrameProps) {
  const active = status === 'acquiring_media' || status === 'recording' || status === 'paused' || status === 'stopping';
  const [session, setSession] = useState(0);
  const seconds = useRecordingTimer(status === 'recording', session);
  // Start recording is replaced by these controls: Stop takes focus once it can be pressed.
  const stopButton = useRef<HTMLButtonElement>(null);
  useFocusWhenLost(stopButton, status === 'recording');
  const Icon = kind === 'video' ? Video : Mic;

  if (!active) {
    return (
      <div className="flex flex-col gap-4">
        {error ? <Alert>{recorderErrorText(error, kind)}</Alert> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="flex flex-col items-center gap-3 rounded-2xl border border-stone-200 bg-stone-50 p-5 text-center">
            <span className="flex size-12 items-center justify-center rounded-full bg-brand-100 text-brand-600">
              <Icon className="size-6" aria-hidden />
            </span>
            <div>
              <p className="font-semibold text-stone-900">{kind === 'video' ? 'Record a video' : 'Record your voice'}</p>
              <p className="text-sm text-stone-500">
                {kind === 'video' ? 'Use your camera right here.' : 'Use your microphone right here.'}
              </p>
            </div>
            <Button
              onClick={() => {
                setSession((s) => s + 1);
                onStart();
              }}
            >
              <Circle className="size-4 fill-current" aria-hidden />
              Start recording
            </Button>
          </div>
          {idleExtra}
        </div>
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      <div className="relative">
        {live}
        <div className="absolute top-3 left-3 flex items-center gap-2 rounded-full bg-black/60 px-3 py-1 text-sm font-semibold text-white">
          <span className={`size-2.5 rounded-full ${status === 'recording' ? 'animate-pulse bg-red-500' : 'bg-stone-300'}`} aria-hidden />
          <span role="timer" aria-label="Recording time">
            {formatDuration(seconds)}
          </span>
          <span className="sr-only">
            {status === 'acquiring_media' ? 'Starting…' : status === 'paused' ? 'Paused' : 'Recording'}
          </span>
        </div>
      </div>
      <p className="text-center text-sm text-stone-600" aria-live="polite">
        {status === 'acquiring_media'
          ? kind === 'video'
            ? 'Waiting for camera and microphone…'
            : 'Waiting for microphone…'
          : status === 'paused'
            ? 'Paused'
            : status === 'stopping'
              ? 'Finishing…'
              : 'Recording…'}
      </p>
      <div className="flex flex-wrap justify-center gap-3">
        {status === 'paused' ? (
          <Button variant="secondary" onClick={onResume}>
            <Play className="size-4" aria-hidden /> Resume
          </Button>
        ) : (
          <Button variant="secondary" onClick={onPause} disabled={status !== 'recording'}>
            <Pause className="size-4" aria-hidden /> Pause
          </Button>
        )}
        <Button ref={stopButton} variant="danger" onClick={onStop} disabled={status !== 'recording' && status !== 'paused'}>
          <Square className="size-4 fill-current" aria-hidden /> Stop recording
        </Button>
      </div>
    </div>
  );
}
