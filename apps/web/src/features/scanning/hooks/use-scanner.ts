import { type ScanResponse } from '@giftlens/contract/recipient';
import { STILL_LOOKING_AFTER_MS } from '@giftlens/contract/constants';
import { texts } from '@giftlens/contract/texts';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { captureScan } from '../../../camera/scan-photo.ts';
import { useCamera } from '../../../camera/use-camera.ts';
import { useCameraSequence } from '../../../camera/use-camera-sequence.ts';
import { useFrameChecks } from '../../../camera/use-frame-checks.ts';
import { isScanBusy, useScanRequest } from '../../../camera/use-scan-request.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { RECIPIENT_KEYS, readString } from '../../../lib/recipient-storage.ts';
import { processScan } from '../api/process-scan.ts';
import { cameraFailureText, isRefusal } from '../lib/scan-errors.ts';
import { revealedPath } from '../lib/store-reveal.ts';
import { scannerHint } from '../lib/live-hint.ts';
import { useLiveScan } from './use-live-scan.ts';
import { useScanOutcome, type RetryPrompt } from './use-scan-outcome.ts';

export type { RetryPrompt, ScanPhase, ScanStatus } from './use-scan-outcome.ts';
export type ScanFlow = 'direct' | 'recipient';

/** The state of the camera screen for a gift id (direct flow) or a recipient id (recipient flow). */
export function useScanner({ flow, scanId }: { flow: ScanFlow; scanId: string }) {
  const navigate = useNavigate();
  const [restartKey, setRestartKey] = useState(0);
  const { attachVideo, video, camera } = useCamera(restartKey);
  const cameraReady = camera.status === 'ready';
  const { animating } = useCameraSequence(cameraReady, restartKey);
  const outcome = useScanOutcome({ flow, scanId });
  const { status, prompt, fail } = outcome;
  const request = useScanRequest(processScan);

  const capturingRef = useRef(false);
  const abortRef = useRef<AbortController | null>(null);

  const cameraMessage = camera.status === 'error' ? cameraFailureText(camera.failure, flow === 'recipient') : null;
  const retryPrompt: RetryPrompt | null = prompt ?? (cameraMessage ? { kind: 'camera', message: cameraMessage } : null);

  /** A matching answer (Take Photo's or a decisive live frame's): stores the reveal and opens it; false if no match. */
  const reveal = (res: ScanResponse): boolean => {
    const to = revealedPath(res, flow === 'direct' ? scanId : null);
    if (!to) return false;
    outcome.succeed();
    void navigate(to, { replace: true });
    return true;
  };

  const onResult = (res: ScanResponse) => {
    if (!reveal(res)) fail(res.error || texts.recipient.noMatch, false);
  };

  // Live scanning replaces the spec's automatic photo (decision 030): it runs while the camera is ready, no capture
  // runs and no dialog is open; only Take Photo uses one of the attempts.
  const liveEnabled = cameraReady && status === 'ready' && !retryPrompt;
  const checks = useFrameChecks(video, liveEnabled);
  const live = useLiveScan({ enabled: liveEnabled, video, flow, scanId, isGoodFrame: checks.isGoodFrame, onMatch: reveal });

  // Live frames for STILL_LOOKING_AFTER_MS without a match: say so, and point at Take Photo (the live scan goes on).
  const [stillLooking, setStillLooking] = useState(false);
  useEffect(() => {
    if (live.state !== 'looking') return;
    const timer = window.setTimeout(() => setStillLooking(true), STILL_LOOKING_AFTER_MS);
    return () => {
      window.clearTimeout(timer);
      setStillLooking(false);
    };
  }, [live.state]);

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
    outcome.start();
    try {
      const { preview, scan: image } = captureScan(video);
      outcome.showImage(URL.createObjectURL(preview));
      outcome.setPhase('matching');
      const res = await request.send(
        flow === 'direct'
          ? { flow, giftId: scanId, image, signal: ac.signal }
          : { flow, recipientId: scanId, image, signal: ac.signal },
      );
      if (ac.signal.aborted) return;
      onResult(res);
    } catch (err) {
      // A scan aborted (screen left, cancelled) is ignored, whatever it answered.
      if (ac.signal.aborted || (err instanceof DOMException && err.name === 'AbortError')) return;
      // The linked gift does not exist (any more): its link's page says so in words.
      if (err instanceof ApiError && err.status === 404 && flow === 'direct') {
        void navigate(paths.shareLink.href(scanId), { replace: true });
        return;
      }
      // Still busy after the retries: the server counted nothing, so neither does the page.
      if (err instanceof ApiError) fail(err.message, isRefusal(err.status) || isScanBusy(err));
      else fail(texts.recipient.scanFailed, false);
    } finally {
      capturingRef.current = false;
    }
  };

  useEffect(() => () => abortRef.current?.abort(), []);

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

  /** The retry dialog's way out when the camera cannot recognise the gift: its backup code. */
  const enterCode = () => {
    abortRef.current?.abort();
    void navigate(paths.backupCode.href(scanId, flow === 'direct' ? 'direct' : undefined));
  };

  const tryAgain = () => {
    if (!prompt && camera.status === 'error') setRestartKey((k) => k + 1);
    else outcome.dismiss();
  };

  return {
    attachVideo,
    camera,
    cameraMessage,
    cameraReady,
    animating,
    status,
    phase: outcome.phase,
    waiting: request.waiting,
    image: outcome.image,
    error: outcome.error,
    attempts: outcome.attempts,
    retryPrompt,
    live: live.state,
    stillLooking: stillLooking && live.state === 'looking',
    hint: scannerHint(checks.hint, live.serverHint),
    canTakePhoto: status === 'ready' && cameraReady && !retryPrompt,
    takePhoto: () => void capture(),
    cancel,
    tryAgain,
    enterCode,
  };
}
