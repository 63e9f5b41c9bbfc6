import { useEffect, useState } from 'react';

/** The rear camera at 1280x720 when the device has one; `ideal`, never `exact`, so any camera still works. */
export const SCAN_CAMERA_CONSTRAINTS: MediaStreamConstraints = {
  video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
  audio: false,
};

/**
 * Why the camera did not start: the browser has no camera API (`unsupported`), getUserMedia refused (`open`,
 * with its error: permission, no device, busy…), or the stream would not play (`play`). Each screen words it.
 */
export type CameraFailure = { stage: 'unsupported' } | { stage: 'open'; error: unknown } | { stage: 'play'; error: unknown };

export type CameraState = { status: 'starting' } | { status: 'ready' } | { status: 'error'; failure: CameraFailure };

function stopStream(stream: MediaStream | null) {
  stream?.getTracks().forEach((t) => t.stop());
}

/** Points the element at a stream (or none); a DOM side effect, kept out of the hook's body. */
function attachStream(video: HTMLVideoElement, stream: MediaStream | null) {
  video.srcObject = stream;
}

/**
 * The scan camera, shared by the scanner and the demo: opens the rear camera into the <video> given to
 * `attachVideo` and reports `ready` once frames arrive. Every track is stopped when the screen goes away or the
 * camera is restarted (`restartKey`), including a stream that arrives after that.
 */
export function useCamera(restartKey = 0) {
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
        setState({ status: 'error', failure: { stage: 'unsupported' } });
        return;
      }
      try {
        stream = await navigator.mediaDevices.getUserMedia(SCAN_CAMERA_CONSTRAINTS);
      } catch (error) {
        if (!cancelled) setState({ status: 'error', failure: { stage: 'open', error } });
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
      } catch (error) {
        if (cancelled) return;
        // play() is interrupted when the element is torn down; anything else means the stream is unusable.
        if (error instanceof DOMException && error.name === 'AbortError') return;
        stopStream(stream);
        setState({ status: 'error', failure: { stage: 'play', error } });
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
  }, [video, restartKey]);

  return { attachVideo: setVideo, video, camera: state };
}
