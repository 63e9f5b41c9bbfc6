import { useCallback, useEffect, useRef, useState } from 'react';
import { frameHint, measureFrame, sampleFrame, type FrameHint, type GreyFrame } from './frame-checks.ts';

/** How often the frame checks look at the camera picture. */
export const CHECK_INTERVAL_MS = 120;
/** A hint is shown (or cleared) only once this many checks in a row agree, so it does not flicker. */
export const HINT_SETTLE_CHECKS = 3;
/** A check older than this no longer vouches for the picture (the tab was in the background, say). */
const FRESH_MS = CHECK_INTERVAL_MS * 3;

/**
 * The frame checks of the live picture (frame-checks.ts) while `enabled`: every CHECK_INTERVAL_MS the video is
 * drawn small and measured against the previous check. `hint` is what the person should do (settled over a few
 * checks), `isGoodFrame()` says whether the latest check passed, so a frame taken now is worth sending.
 */
export function useFrameChecks(video: HTMLVideoElement | null, enabled: boolean) {
  const [hint, setHint] = useState<FrameHint | null>(null);
  const latest = useRef<{ good: boolean; at: number }>({ good: false, at: 0 });

  useEffect(() => {
    if (!enabled || !video) return;
    const canvas = document.createElement('canvas');
    let previous: GreyFrame | null = null;
    let candidate: FrameHint | null = null;
    let streak = 0;

    const check = () => {
      const frame = sampleFrame(video, video.videoWidth, video.videoHeight, canvas);
      if (!frame) return;
      // The first check has no previous frame: its motion counts as none, so a good first frame is sent at once.
      const verdict = frameHint(measureFrame(frame, previous));
      previous = frame;
      latest.current = { good: verdict === null, at: performance.now() };
      streak = verdict === candidate ? streak + 1 : 1;
      candidate = verdict;
      if (streak >= HINT_SETTLE_CHECKS) setHint(verdict);
    };
    check();
    const timer = window.setInterval(check, CHECK_INTERVAL_MS);
    return () => {
      window.clearInterval(timer);
      latest.current = { good: false, at: 0 };
      canvas.width = 0;
      canvas.height = 0;
      setHint(null);
    };
  }, [video, enabled]);

  const isGoodFrame = useCallback(() => latest.current.good && performance.now() - latest.current.at < FRESH_MS, []);
  return { hint: enabled ? hint : null, isGoodFrame };
}
