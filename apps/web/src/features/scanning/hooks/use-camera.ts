import { useEffect, useState } from 'react';
import { texts } from '@giftlens/contract/texts';
import { cameraErrorText } from '../lib/scan-errors.ts';

/** The rear camera at 1280x720 when the device has one; `ideal`, never `exact`, so any camera still works. */
export const SCAN_CAMERA_CONSTRAINTS: MediaStreamConstraints = {
  video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
  audio: false,
};

export type CameraState = { status: 'starting' } | { status: 'ready' } | { status: 'error'; message: string };

function stopStream(stream: MediaStream | null) {
  stream?.getTracks().forEach((t) => t.stop());
}

/** Points the element at a stream (or none); a DOM side effect, kept out of the hook's body. */
function attachStream(video: HTMLVideoElement, stream: MediaStream | null) {
  video.srcObject = stream;
}

/**
 * Opens the scan camera into the <video> given to `attachVideo` and reports when frames arrive. Every track is stopped when the
 * screen goes away or the camera is restarted (`restartKey`), including a stream that arrives after that.
 */
export function useCamera(recipientFlow: boolean, restartKey: number) {
  // A callback ref kept in state: the camera starts once the <video> element exists.
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const [state, setState] = useState<CameraState>({ status: 'starting' });

  useEffect(() => {
    let cancelled = false;
    let stream: MediaStream | null = null;
    if (!video) return;

    const start = async () => {
      await Promise.resolve();
      if (cancelled) return;
      setState({ status: 'starting' });
      if (!navigator.mediaDevices?.getUserMedia) {
        setState({ status: 'error', message: texts.recipient.cameraInitFailed });
        return;
      }
      try {
        stream = await navigator.mediaDevices.getUserMedia(SCAN_CAMERA_CONSTRAINTS);
      } catch (err) {
        if (!cancelled) setState({ status: 'error', message: cameraErrorText(err, recipientFlow) });
        return;
      }
      if (cancelled) {
        stopStream(stream);
        return;
      }
      try {
        attachStream(video, stream);
        if (video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA) {
          await new Promise<void>((resolve, reject) => {
            video.addEventListener('loadeddata', () => resolve(), { once: true });
            video.addEventListener('error', () => reject(new Error('video error')), { once: true });
          });
        }
        await video.play();
      } catch (err) {
        if (cancelled) return;
        // play() is interrupted when the element is torn down; anything else means the stream is unusable.
        if (err instanceof DOMException && err.name === 'AbortError') return;
        stopStream(stream);
        setState({ status: 'error', message: texts.recipient.cameraInitFailed });
        return;
      }
      if (!cancelled) setState({ status: 'ready' });
    };
    void start();

    return () => {
      cancelled = true;
      stopStream(stream);
      attachStream(video, null);
    };
  }, [video, recipientFlow, restartKey]);

  return { attachVideo: setVideo, video, camera: state };
}
