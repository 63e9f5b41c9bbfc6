import { LIVE_SCAN } from '@giftlens/contract/constants';
import type { LiveFrameResponse } from '@giftlens/contract/recipient';
import { useEffect, useEffectEvent, useState } from 'react';
import type { FrameHint } from '../../../camera/frame-checks.ts';
import { scanFrame } from '../../../camera/scan-photo.ts';
import { sendLiveFrame } from '../api/live-frame.ts';
import { liveFrameFailure } from '../lib/live-frame-errors.ts';
import { hintOfAnswer, newScanSession, SERVER_HINT_MS } from '../lib/live-hint.ts';

/** How soon the loop asks the frame checks again while they hold the frame back (they look every 120 ms). */
const GOOD_FRAME_POLL_MS = 40;

/** `looking` while frames are being sent; `spent` once the live budget is; `stopped` after another refusal. */
export type LiveScanState = 'off' | 'looking' | 'spent' | 'stopped';

export interface LiveScanOptions {
  /** The camera is ready, no capture runs and no dialog is open. */
  enabled: boolean;
  video: HTMLVideoElement | null;
  flow: 'direct' | 'recipient';
  scanId: string;
  /** Whether the frame checks passed on the latest look at the picture. */
  isGoodFrame: () => boolean;
  /** A decisive frame (the scan's own answer), revealed as a matching Take Photo is; false when it revealed nothing. */
  onMatch: (res: Extract<LiveFrameResponse, { success: true }>) => boolean;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = window.setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (window.clearTimeout(timer), resolve()), { once: true });
  });
}

/**
 * Live scanning (decision 030): while `enabled`, a frame that passes the checks is taken and encoded
 * exactly as Take Photo does (the matcher is calibrated on it) and sent to the live-frame route, one every
 * LIVE_SCAN.intervalMs at most and never two at once. A miss is silent and never a failed attempt. Turning
 * `enabled` off (Take Photo, a dialog, leaving) aborts the frame in flight.
 */
export function useLiveScan({ enabled, video, flow, scanId, isGoodFrame, onMatch }: LiveScanOptions) {
  const [halted, setHalted] = useState<'spent' | 'stopped' | null>(null);
  // One scanning session per opening of the camera page: the server pools frames only within it (and one gift).
  const [session] = useState(newScanSession);
  /** the latest answers' hint ("Move closer": the gift is small in the frame), for SERVER_HINT_MS */
  const [serverHint, setServerHint] = useState<FrameHint | null>(null);
  const goodFrame = useEffectEvent(isGoodFrame);
  const matched = useEffectEvent(onMatch);

  useEffect(() => {
    if (!enabled || halted || !video) return;
    const ac = new AbortController();
    const { signal } = ac;

    let hintTimer = 0;
    const run = async () => {
      let nextAt = 0;
      let failures = 0;
      while (!signal.aborted) {
        const wait = nextAt - performance.now();
        if (wait > 0) await pause(wait, signal);
        if (signal.aborted) return;
        if (!goodFrame()) {
          await pause(GOOD_FRAME_POLL_MS, signal);
          continue;
        }
        nextAt = performance.now() + LIVE_SCAN.intervalMs;
        try {
          const image = scanFrame(video);
          if (signal.aborted) return;
          const req =
            flow === 'direct' ? { flow, giftId: scanId, image, signal, session } : { flow, recipientId: scanId, image, signal, session };
          const res = await sendLiveFrame(req);
          if (signal.aborted) return;
          failures = 0;
          const hint = hintOfAnswer(res);
          if (hint) {
            setServerHint(hint);
            window.clearTimeout(hintTimer);
            hintTimer = window.setTimeout(() => setServerHint(null), SERVER_HINT_MS);
          }
          if (res.success && matched(res)) return;
        } catch (err) {
          if (signal.aborted || (err instanceof DOMException && err.name === 'AbortError')) return;
          failures++;
          const next = liveFrameFailure(err, failures);
          if (next.kind !== 'wait') {
            setHalted(next.kind === 'spent' ? 'spent' : 'stopped');
            return;
          }
          nextAt = performance.now() + next.ms;
        }
      }
    };
    void run();
    return () => {
      ac.abort();
      window.clearTimeout(hintTimer);
      setServerHint(null);
    };
  }, [enabled, halted, video, flow, scanId, session]);

  const state: LiveScanState = halted ?? (enabled && video ? 'looking' : 'off');
  return { state, serverHint: state === 'looking' ? serverHint : null };
}
