import { useEffect, useRef, type RefObject } from 'react';

/** How often a recording checks that its camera and microphone tracks still run: every second. */
const TRACK_CHECK_MS = 1000;

/**
 * While `active`, checks the stream's tracks every second; a camera unplugged or a permission revoked
 * mid-recording ends a track, and `onEnded` stops the recording and says so.
 */
export function useEndedTrackWatch(
  streamRef: RefObject<MediaStream | null>,
  active: boolean,
  onEnded: () => void,
): void {
  const latest = useRef(onEnded);
  useEffect(() => {
    latest.current = onEnded;
  }, [onEnded]);

  useEffect(() => {
    if (!active) return;
    const check = window.setInterval(() => {
      if (streamRef.current?.getTracks().some((t) => t.readyState === 'ended')) latest.current();
    }, TRACK_CHECK_MS);
    return () => window.clearInterval(check);
  }, [active, streamRef]);
}
