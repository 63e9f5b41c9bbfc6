import { texts } from '@giftlens/contract/texts';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { scanFrame } from '../../../camera/scan-photo.ts';
import { useCamera, type CameraFailure } from '../../../camera/use-camera.ts';
import { RESET_DELAY_MS, useAutoCapture, useCameraSequence } from '../../../camera/use-camera-sequence.ts';
import { isScanBusy, useScanRequest } from '../../../camera/use-scan-request.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { errorText } from '../../../lib/user-text.ts';
import { postDemoScan } from '../api/post-demo-scan.ts';
import type { Demo } from '../demos.ts';

export type DemoScanStatus = 'ready' | 'scanning' | 'success' | 'failed';

/** The demo's words for a camera that did not start: a refused permission asks for it, anything else failed. */
function cameraFailureText(failure: CameraFailure): string {
  const name = failure.stage === 'unsupported' ? '' : failure.error instanceof DOMException ? failure.error.name : '';
  return name === 'NotAllowedError' || name === 'SecurityError' ? texts.recipient.cameraRequired : texts.recipient.cameraError;
}

const sendDemoScan = ({ demoId, scan, signal }: { demoId: string; scan: File; signal: AbortSignal }) =>
  postDemoScan(demoId, scan, signal);

/**
 * The demo scanner: the shared camera, its warm-up and automatic photo, and the same photo and compression as a
 * real scan, matched against the demo gift on the server. A match opens the demo message; two misses offer it.
 */
export function useDemoScan(demo: Demo) {
  const navigate = useNavigate();
  const { attachVideo, video, camera } = useCamera();
  const { processingEnabled: cameraReady } = useCameraSequence(camera.status === 'ready');
  const request = useScanRequest(sendDemoScan);
  const busy = useRef(false);
  const inFlight = useRef<AbortController | null>(null);
  const [status, setStatus] = useState<DemoScanStatus>('ready');
  const [failure, setFailure] = useState<string | null>(null);
  const [attempts, setAttempts] = useState(0);
  const [unavailable, setUnavailable] = useState(false);

  const failed = (message: string, counted: boolean) => {
    setFailure(message);
    if (counted) setAttempts((n) => n + 1);
    setStatus('failed');
  };

  const capture = async () => {
    if (!video || !cameraReady || busy.current) return;
    busy.current = true;
    setStatus('scanning');
    const controller = new AbortController();
    inFlight.current = controller;
    try {
      const scan = scanFrame(video);
      const result = await request.send({ demoId: demo.id, scan, signal: controller.signal });
      if (result.matched) {
        setStatus('success');
        void navigate(paths.demoMessage.href(demo.id));
        return;
      }
      failed(texts.recipient.noMatch, true);
    } catch (err) {
      // A scan we cancelled (leaving the page) is not a failure.
      if (controller.signal.aborted || (err instanceof DOMException && err.name === 'AbortError')) return;
      if (err instanceof ApiError && err.status === 404) {
        setUnavailable(true);
        return;
      }
      // Still busy after the retries: the server counted nothing, so neither does the page.
      failed(errorText(err, texts.recipient.scanFailed), !isScanBusy(err));
    } finally {
      busy.current = false;
    }
  };

  useAutoCapture(cameraReady && status === 'ready', () => void capture());
  useEffect(() => () => inFlight.current?.abort(), []);

  const tryAgain = () => {
    setFailure(null);
    setTimeout(() => setStatus('ready'), RESET_DELAY_MS);
  };

  return {
    attachVideo,
    cameraError: camera.status === 'error' ? cameraFailureText(camera.failure) : null,
    cameraReady,
    status,
    waiting: request.waiting,
    failure,
    attempts,
    unavailable,
    canShoot: status === 'ready' && cameraReady,
    takePhoto: () => void capture(),
    tryAgain,
  };
}
