import { MAX_SCAN_ATTEMPTS } from '@giftlens/contract/constants';
import { type ScanResponse } from '@giftlens/contract/recipient';
import { texts } from '@giftlens/contract/texts';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../app/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { RECIPIENT_KEYS, readString } from '../../../lib/recipient-storage.ts';
import { processScan } from '../api/process-scan.ts';
import { captureFrame } from '../lib/capture-frame.ts';
import { compressScan } from '../lib/compress-scan.ts';
import { errorKind, isRefusal, type ScanErrorKind } from '../lib/scan-errors.ts';
import { messageLink, storeReveal } from '../lib/store-reveal.ts';
import { useCamera } from './use-camera.ts';

/** Camera sequence (recipient-side §4/§9): animations 1.5 s after the stream starts, processing 0.5 s later. */
export const ANIMATION_DELAY_MS = 1500;
export const PROCESSING_DELAY_MS = 500;
export const AUTO_CAPTURE_DELAY_MS = 2000;
export const RESET_DELAY_MS = 1000;

export type ScanStatus = 'ready' | 'scanning' | 'success' | 'failed';
/** Progress while a capture is processed: the photo, its compression, the server's match. */
export type ScanPhase = 'capturing' | 'preparing' | 'matching';
export type ScanFlow = 'direct' | 'recipient';

export interface RetryPrompt {
  kind: ScanErrorKind;
  message: string;
}

/** The state of the camera screen for a gift id (direct flow) or a recipient id (recipient flow). */
export function useScanner({ flow, scanId }: { flow: ScanFlow; scanId: string }) {
  const navigate = useNavigate();
  const [restartKey, setRestartKey] = useState(0);
  const { attachVideo, video, camera } = useCamera(flow === 'recipient', restartKey);
  const cameraReady = camera.status === 'ready';

  // Timers of the camera sequence, tagged with the camera start they belong to.
  const [sequence, setSequence] = useState({ key: -1, animating: false, processing: false });
  const animating = cameraReady && sequence.key === restartKey && sequence.animating;
  const processingEnabled = cameraReady && sequence.key === restartKey && sequence.processing;

  const [status, setStatus] = useState<ScanStatus>('ready');
  const [phase, setPhase] = useState<ScanPhase | null>(null);
  const [image, setImage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempts, setAttempts] = useState(0);
  const [prompt, setPrompt] = useState<RetryPrompt | null>(null);

  const attemptsRef = useRef(0);
  const capturingRef = useRef(false);
  const abortRef = useRef<AbortController | null>(null);
  const resetTimerRef = useRef<number | undefined>(undefined);
  const imageRef = useRef<string | null>(null);

  const retryPrompt: RetryPrompt | null =
    prompt ?? (camera.status === 'error' ? { kind: 'camera', message: camera.message } : null);

  useEffect(() => {
    if (!cameraReady) return;
    const key = restartKey;
    const t1 = window.setTimeout(() => setSequence({ key, animating: true, processing: false }), ANIMATION_DELAY_MS);
    const t2 = window.setTimeout(
      () => setSequence({ key, animating: true, processing: true }),
      ANIMATION_DELAY_MS + PROCESSING_DELAY_MS,
    );
    return () => {
      window.clearTimeout(t1);
      window.clearTimeout(t2);
    };
  }, [cameraReady, restartKey]);

  const showImage = (url: string | null) => {
    if (imageRef.current) URL.revokeObjectURL(imageRef.current);
    imageRef.current = url;
    setImage(url);
  };

  const reset = () => {
    window.clearTimeout(resetTimerRef.current);
    setStatus('ready');
    setError(null);
    showImage(null);
  };

  const fail = (message: string, refusal: boolean) => {
    setStatus('failed');
    setError(message);
    setPhase(null);
    window.clearTimeout(resetTimerRef.current);
    resetTimerRef.current = window.setTimeout(reset, RESET_DELAY_MS);
    if (refusal) {
      // The server refused (scan limit, expired, too many tries): not a failed recognition, so no attempt is used.
      setPrompt({ kind: 'refused', message });
      return;
    }
    const n = attemptsRef.current + 1;
    attemptsRef.current = n;
    setAttempts(n);
    if (n >= MAX_SCAN_ATTEMPTS) {
      void navigate(paths.giftNotFound.href(), { replace: true, state: { message: texts.recipient.giftNotFoundPage } });
      return;
    }
    setPrompt({ kind: errorKind(message), message });
  };

  const onResult = (res: ScanResponse) => {
    const matched =
      res.success && (res.matchResult.matched || res.matchResult.matchFound || res.openAIResponse.content === 'yes');
    const giftId = res.giftId ?? res.matchResult.giftId ?? (flow === 'direct' ? scanId : null);
    if (!matched || !giftId) {
      fail(res.error || texts.recipient.noMatch, false);
      return;
    }
    setStatus('success');
    setPhase(null);
    const link = messageLink(res.giftDetails);
    if (res.giftDetails && link) {
      storeReveal(giftId, res.giftDetails, link);
      void navigate(paths.giftMessage.href(giftId), { replace: true });
    } else {
      void navigate(paths.matchResult.href(giftId), { replace: true });
    }
  };

  const capture = async () => {
    if (status !== 'ready' || !cameraReady || capturingRef.current || retryPrompt || !video) return;
    if (flow === 'recipient' && !scanId) {
      fail(texts.recipient.recipientIdMissing, true);
      return;
    }
    capturingRef.current = true;
    abortRef.current?.abort();
    const ac = new AbortController();
    abortRef.current = ac;
    setStatus('scanning');
    setPhase('capturing');
    setError(null);
    try {
      const raw = await captureFrame(video);
      if (ac.signal.aborted) return;
      showImage(URL.createObjectURL(raw));
      setPhase('preparing');
      const image = await compressScan(raw);
      if (ac.signal.aborted) return;
      setPhase('matching');
      const res = await processScan(
        flow === 'direct'
          ? { flow, giftId: scanId, image, signal: ac.signal }
          : { flow, recipientId: scanId, image, signal: ac.signal },
      );
      if (ac.signal.aborted) return;
      onResult(res);
    } catch (err) {
      // A scan aborted (screen left, cancelled) is ignored, whatever it answered.
      if (ac.signal.aborted || (err instanceof DOMException && err.name === 'AbortError')) return;
      if (err instanceof ApiError) fail(err.message, isRefusal(err.status));
      else fail(texts.recipient.scanFailed, false);
    } finally {
      capturingRef.current = false;
    }
  };

  const autoCapture = useEffectEvent(() => void capture());
  const canAutoCapture = status === 'ready' && processingEnabled && !retryPrompt;
  useEffect(() => {
    if (!canAutoCapture) return;
    const t = window.setTimeout(autoCapture, AUTO_CAPTURE_DELAY_MS);
    return () => window.clearTimeout(t);
  }, [canAutoCapture]);

  useEffect(
    () => () => {
      abortRef.current?.abort();
      window.clearTimeout(resetTimerRef.current);
      if (imageRef.current) URL.revokeObjectURL(imageRef.current);
    },
    [],
  );

  const goBack = (fallback: string) => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) void navigate(-1);
    else void navigate(fallback, { replace: true });
  };

  /** Cancel: back in the direct flow; the recipient's instructions (or back) in the recipient flow. */
  const cancel = () => {
    abortRef.current?.abort();
    if (flow === 'direct') return goBack(paths.shareLink.href(scanId));
    const recipientId = readString('session', RECIPIENT_KEYS.recipientId);
    if (recipientId) void navigate(paths.scanningInstructions.href(recipientId));
    else goBack(paths.scan.href());
  };

  const tryAgain = () => {
    if (!prompt && camera.status === 'error') {
      setRestartKey((k) => k + 1);
      return;
    }
    setPrompt(null);
    reset();
  };

  return {
    attachVideo,
    camera,
    cameraReady,
    animating,
    processingEnabled,
    status,
    phase,
    image,
    error,
    attempts,
    retryPrompt,
    canTakePhoto: status === 'ready' && cameraReady && !retryPrompt,
    takePhoto: () => void capture(),
    cancel,
    tryAgain,
  };
}
