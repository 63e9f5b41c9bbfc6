import type { LiveFrameResponse } from '@giftlens/contract/recipient';
import type { FrameHint } from '../../../camera/frame-checks.ts';

/**
 * How long the server's "Move closer" stays on screen after the answer that asked for it (decision 047): about two
 * live frames (LIVE_SCAN.intervalMs is 400 ms), so it neither flickers between frames nor outlives the situation.
 */
export const SERVER_HINT_MS = 1200;

/** The hint a live frame's answer carries: "Move closer" when the matcher found the gift small in the frame. */
export function hintOfAnswer(res: LiveFrameResponse): FrameHint | null {
  return !res.success && res.hint === 'moveCloser' ? 'moveCloser' : null;
}

/**
 * What the scanner shows: the page's own frame checks first (a dark or shaking picture is worth fixing before anything
 * else, and they look every 120 ms), else the server's hint while it lasts (useLiveScan clears it after SERVER_HINT_MS).
 */
export function scannerHint(local: FrameHint | null, server: FrameHint | null): FrameHint | null {
  return local ?? server;
}

/** A new scanning session's id (sent with each live frame as `scan_session`; the server pools frames only within it). */
export function newScanSession(): string {
  return crypto.randomUUID().replace(/-/g, '');
}
