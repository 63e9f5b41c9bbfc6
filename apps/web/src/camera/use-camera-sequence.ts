import { useEffect, useEffectEvent, useState } from 'react';

/**
 * The camera screen's timing, as the product specification sets it: once frames arrive the viewfinder animates after
 * 1.5 s, scanning is allowed 0.5 s later, a photo is then taken automatically after 2 s, and a failed scan returns
 * to ready after 1 s. The demo follows all of it; the recipient's scanner scans live from the moment the camera is
 * ready instead of taking that automatic photo, which would use one of their two attempts (decision 030).
 */
export const ANIMATION_DELAY_MS = 1500;
export const PROCESSING_DELAY_MS = 500;
export const AUTO_CAPTURE_DELAY_MS = 2000;
export const RESET_DELAY_MS = 1000;

/** `animating` 1.5 s and `processingEnabled` 2 s after the camera (started for `restartKey`) is ready. */
export function useCameraSequence(cameraReady: boolean, restartKey = 0) {
  // Timers of the camera sequence, tagged with the camera start they belong to.
  const [sequence, setSequence] = useState({ key: -1, animating: false, processing: false });

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

  const current = cameraReady && sequence.key === restartKey;
  return { animating: current && sequence.animating, processingEnabled: current && sequence.processing };
}

/** While `enabled` stays true for 2 s, takes the photo, so the person only has to hold steady. */
export function useAutoCapture(enabled: boolean, capture: () => void) {
  const fire = useEffectEvent(capture);
  useEffect(() => {
    if (!enabled) return;
    const t = window.setTimeout(fire, AUTO_CAPTURE_DELAY_MS);
    return () => window.clearTimeout(t);
  }, [enabled]);
}
