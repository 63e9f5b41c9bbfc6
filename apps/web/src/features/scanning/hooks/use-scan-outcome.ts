import { MAX_SCAN_ATTEMPTS } from '@giftlens/contract/constants';
import { texts } from '@giftlens/contract/texts';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { RESET_DELAY_MS } from '../../../camera/use-camera-sequence.ts';
import type { GiftNotFoundState } from '../components/gift-not-found-page.tsx';
import { errorKind, type ScanErrorKind } from '../lib/scan-errors.ts';

export type ScanStatus = 'ready' | 'scanning' | 'success' | 'failed';
/** Progress while a capture is processed: the photo, its compression, the server's match. */
export type ScanPhase = 'capturing' | 'matching';

export interface RetryPrompt {
  kind: ScanErrorKind;
  message: string;
}

/**
 * The scan status: ready → scanning → success, or failed and back to ready after 1 s.
 * A failed recognition uses one of the MAX_SCAN_ATTEMPTS (the last one leads to /gift-not-found); a refusal by
 * the server (or a scan the server was too busy to take) shows the retry dialog without using one.
 */
export function useScanOutcome(from: { flow: 'direct' | 'recipient'; scanId: string }) {
  const navigate = useNavigate();
  const [status, setStatus] = useState<ScanStatus>('ready');
  const [phase, setPhase] = useState<ScanPhase | null>(null);
  const [image, setImage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempts, setAttempts] = useState(0);
  const [prompt, setPrompt] = useState<RetryPrompt | null>(null);

  const attemptsRef = useRef(0);
  const resetTimerRef = useRef<number | undefined>(undefined);
  const imageRef = useRef<string | null>(null);

  /** Shows the captured photo over the camera picture (an object URL, revoked when replaced), or none. */
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

  const start = () => {
    setStatus('scanning');
    setPhase('capturing');
    setError(null);
  };

  const succeed = () => {
    setStatus('success');
    setPhase(null);
  };

  const fail = (message: string, refusal: boolean) => {
    setStatus('failed');
    setError(message);
    setPhase(null);
    window.clearTimeout(resetTimerRef.current);
    resetTimerRef.current = window.setTimeout(reset, RESET_DELAY_MS);
    if (refusal) {
      // The server refused (scan limit, expired, too many tries, busy): not a failed recognition, so no attempt is used.
      setPrompt({ kind: 'refused', message });
      return;
    }
    const n = attemptsRef.current + 1;
    attemptsRef.current = n;
    setAttempts(n);
    if (n >= MAX_SCAN_ATTEMPTS) {
      // Where it came from, so its Try again and backup code lead back to this gift (or this recipient's gifts).
      const state: GiftNotFoundState = { message: texts.recipient.giftNotFoundPage, flow: from.flow, scanId: from.scanId };
      void navigate(paths.giftNotFound.href(), { replace: true, state });
      return;
    }
    setPrompt({ kind: errorKind(message), message });
  };

  /** Try Again in the retry dialog: closes it and returns to ready. */
  const dismiss = () => {
    setPrompt(null);
    reset();
  };

  useEffect(
    () => () => {
      window.clearTimeout(resetTimerRef.current);
      if (imageRef.current) URL.revokeObjectURL(imageRef.current);
    },
    [],
  );

  return { status, phase, image, error, attempts, prompt, setPhase, showImage, start, succeed, fail, dismiss };
}
