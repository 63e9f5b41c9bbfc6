import { useCallback, useEffect, useRef, useState } from 'react';
import { encodeWav } from '../../../lib/wav-encoder.ts';
import { toRecorderError, type RecorderError, type RecorderStatus } from '../lib/recorder-errors.ts';
import { useEndedTrackWatch } from './use-ended-track-watch.ts';

/**
 * Records the microphone with Web Audio and encodes a 16-bit PCM WAV (MediaRecorder cannot write WAV).
 * ScriptProcessorNode is deprecated but works in every browser without a separate worklet file.
 */
export function useWavRecorder(onRecorded: (file: File) => void) {
  const [status, setStatus] = useState<RecorderStatus>('idle');
  const [error, setError] = useState<RecorderError | null>(null);
  const ctxRef = useRef<AudioContext | null>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const nodeRef = useRef<ScriptProcessorNode | null>(null);
  const chunks = useRef<Float32Array[]>([]);
  const pausedRef = useRef(false);
  const onRecordedRef = useRef(onRecorded);
  useEffect(() => {
    onRecordedRef.current = onRecorded;
  }, [onRecorded]);

  const release = useCallback(() => {
    nodeRef.current?.disconnect();
    nodeRef.current = null;
    streamRef.current?.getTracks().forEach((t) => t.stop());
    streamRef.current = null;
    const ctx = ctxRef.current;
    ctxRef.current = null;
    if (ctx && ctx.state !== 'closed') void ctx.close().catch(() => undefined);
  }, []);

  const start = useCallback(async () => {
    setError(null);
    if (!navigator.mediaDevices?.getUserMedia) {
      setError('recorder_error');
      return;
    }
    setStatus('acquiring_media');
    try {
      const media = await navigator.mediaDevices.getUserMedia({
        audio: { echoCancellation: true, noiseSuppression: true },
        video: false,
      });
      streamRef.current = media;
      const ctx = new AudioContext();
      ctxRef.current = ctx;
      const source = ctx.createMediaStreamSource(media);
      const node = ctx.createScriptProcessor(4096, 1, 1);
      chunks.current = [];
      pausedRef.current = false;
      node.onaudioprocess = (e) => {
        if (!pausedRef.current) chunks.current.push(new Float32Array(e.inputBuffer.getChannelData(0)));
      };
      source.connect(node);
      // The node only runs when connected to the destination; it writes silence to it.
      node.connect(ctx.destination);
      nodeRef.current = node;
      setStatus('recording');
    } catch (err) {
      release();
      setError(toRecorderError(err));
      setStatus('idle');
    }
  }, [release]);

  const stop = useCallback(() => {
    const ctx = ctxRef.current;
    if (!ctx) return;
    setStatus('stopping');
    const wav = encodeWav(chunks.current, ctx.sampleRate);
    chunks.current = [];
    release();
    setStatus('stopped');
    onRecordedRef.current(new File([wav], `voice-message-${Date.now()}.wav`, { type: 'audio/wav' }));
  }, [release]);

  const pause = useCallback(() => {
    if (!ctxRef.current) return;
    pausedRef.current = true;
    setStatus('paused');
  }, []);

  const resume = useCallback(() => {
    if (!ctxRef.current) return;
    pausedRef.current = false;
    setStatus('recording');
  }, []);

  const reset = useCallback(() => {
    chunks.current = [];
    release();
    setStatus('idle');
    setError(null);
  }, [release]);

  useEndedTrackWatch(streamRef, status === 'recording' || status === 'paused', () => {
    setError('recorder_error');
    stop();
  });

  useEffect(() => () => reset(), [reset]);

  return { status, error, start, stop, pause, resume, reset };
}
