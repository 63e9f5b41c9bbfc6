import { useCallback, useEffect, useRef, useState } from 'react';
import { toRecorderError, type RecorderError, type RecorderStatus } from '../lib/recorder-errors.ts';
import { useEndedTrackWatch } from './use-ended-track-watch.ts';

const VIDEO_MIME_CANDIDATES = [
  'video/mp4;codecs=avc1,opus',
  'video/webm;codecs=vp9,opus',
  'video/webm;codecs=vp8,opus',
  'video/webm',
];

/** MP4 (H.264) where the browser can record it, WebM otherwise. */
export function pickVideoMimeType(): string {
  if (typeof MediaRecorder === 'undefined') return '';
  return VIDEO_MIME_CANDIDATES.find((t) => MediaRecorder.isTypeSupported(t)) ?? '';
}

export interface RecordedFile {
  file: File;
  url: string;
}

/** Records camera + microphone with MediaRecorder; exposes the live stream for a preview. */
export function useVideoRecorder(onRecorded: (file: File) => void) {
  const [status, setStatus] = useState<RecorderStatus>('idle');
  const [error, setError] = useState<RecorderError | null>(null);
  const [stream, setStream] = useState<MediaStream | null>(null);
  const recorderRef = useRef<MediaRecorder | null>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const chunks = useRef<Blob[]>([]);
  const onRecordedRef = useRef(onRecorded);
  useEffect(() => {
    onRecordedRef.current = onRecorded;
  }, [onRecorded]);

  const release = useCallback(() => {
    streamRef.current?.getTracks().forEach((t) => t.stop());
    streamRef.current = null;
    setStream(null);
  }, []);

  const start = useCallback(async () => {
    setError(null);
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') {
      setError('recorder_error');
      return;
    }
    setStatus('acquiring_media');
    try {
      const media = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: 'user', width: { ideal: 1280 }, height: { ideal: 720 } },
        audio: true,
      });
      streamRef.current = media;
      setStream(media);
      const mimeType = pickVideoMimeType();
      const recorder = new MediaRecorder(media, mimeType ? { mimeType } : undefined);
      chunks.current = [];
      recorder.ondataavailable = (e) => {
        if (e.data.size > 0) chunks.current.push(e.data);
      };
      recorder.onstop = () => {
        const type = (recorder.mimeType || mimeType || 'video/webm').split(';')[0] ?? 'video/webm';
        const ext = type.includes('mp4') ? 'mp4' : 'webm';
        const blob = new Blob(chunks.current, { type });
        release();
        setStatus('stopped');
        if (blob.size > 0)
          onRecordedRef.current(new File([blob], `video-message-${Date.now()}.${ext}`, { type }));
      };
      recorder.onerror = () => {
        setError('recorder_error');
        if (recorder.state !== 'inactive') recorder.stop();
      };
      recorderRef.current = recorder;
      recorder.start(1000);
      setStatus('recording');
    } catch (err) {
      release();
      setError(toRecorderError(err));
      setStatus('idle');
    }
  }, [release]);

  const stop = useCallback(() => {
    const r = recorderRef.current;
    if (r && r.state !== 'inactive') {
      setStatus('stopping');
      r.stop();
    }
  }, []);

  const pause = useCallback(() => {
    const r = recorderRef.current;
    if (r?.state === 'recording') {
      r.pause();
      setStatus('paused');
    }
  }, []);

  const resume = useCallback(() => {
    const r = recorderRef.current;
    if (r?.state === 'paused') {
      r.resume();
      setStatus('recording');
    }
  }, []);

  const reset = useCallback(() => {
    const r = recorderRef.current;
    if (r && r.state !== 'inactive') {
      r.onstop = null;
      r.stop();
    }
    recorderRef.current = null;
    release();
    setStatus('idle');
    setError(null);
  }, [release]);

  useEndedTrackWatch(streamRef, status === 'recording' || status === 'paused', () => {
    setError('recorder_error');
    recorderRef.current?.stop();
  });

  useEffect(() => () => reset(), [reset]);

  return { status, error, stream, start, stop, pause, resume, reset };
}
