import { LIVE_SCAN } from '@giftlens/contract/constants';
import type { LiveFrameResponse } from '@giftlens/contract/recipient';
import { texts } from '@giftlens/contract/texts';
import { MOVE_CLOSER_BELOW, type MatchDecision } from '../../adapters/recogniser.ts';
import type { SlidingWindow, WindowLimit } from '../../adapters/sliding-window.ts';
import { AppError } from '../../lib/errors.ts';
import { matchScan } from './scan-match.ts';
import type { Gift } from '../gifts/gifts.table.ts';
import type { Recipient } from '../recipient-auth/recipient-auth.table.ts';
import { createFramePool, type FramePool, SCAN_SESSION } from './frame-pool.ts';
import { assertOwnRecipient, createScanCore, type ScanCoreDeps, type ScanOutcome } from './scan-core.ts';

/** The live frames' own limits (contract: LIVE_SCAN); tests and operators may set others. */
export interface LiveScanLimit {
  /** frames one client address may send per second */
  perClientPerSecond: number;
  /** frames per gift (direct) or per recipient e-mail within the window */
  perTarget: number;
  /** frames per client address within the window */
  perClient: number;
  windowMs: number;
}

export const DEFAULT_LIVE_SCAN_LIMIT: LiveScanLimit = LIVE_SCAN;

export interface LiveFramesDeps extends ScanCoreDeps {
  /** Where the frame counters live (memory, or Redis shared by every API node): never the database. */
  window: SlidingWindow;
  limit?: LiveScanLimit;
  /** evidence pooled over the frames of one scanning session and gift (frame-pool.ts); default: FRAME_POOL */
  pool?: FramePool;
  /** Told of each frame refused for the rate, the budget or a busy matcher (metrics). */
  onRefused?: (reason: 'rate' | 'budget' | 'busy') => void;
}

/** A live frame's answer: a reveal exactly as process-scan's, or a miss that counts no failed attempt. */
export interface LiveOutcome {
  response: LiveFrameResponse;
  grant: ScanOutcome['grant'];
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** The page's scanning session id (without one a frame is decided alone); a malformed one is refused (400). */
function scanSession(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!SCAN_SESSION.test(value)) throw new AppError(400, 'invalid_scan_session', texts.recipient.scanSessionInvalid);
  return value;
}

/**
 * Live scanning (decision 029). A frame is matched in memory and never stored; a miss records nothing
 * (only Take Photo counts as the spec's failed attempt). What bounds live frames instead: a per-second rate per
 * client, and a budget per gift (or e-mail) and per client within the window, counted outside the database.
 */
export function createLiveFramesService({ window, limit: given, pool: givenPool, onRefused, ...deps }: LiveFramesDeps) {
  const limit = given ?? DEFAULT_LIVE_SCAN_LIMIT;
  const pool = givenPool ?? createFramePool();
  const { clock, recogniser } = deps;
  const core = createScanCore(deps);

  /** Counts the frame against the target's and the client's budget, or refuses it (429, nothing counted). */
  async function takeBudget(target: string, clientIp: string) {
    const limits: WindowLimit[] = [
      { key: `budget:${target}`, max: limit.perTarget, windowMs: limit.windowMs },
      { key: `budget:ip:${clientIp}`, max: limit.perClient, windowMs: limit.windowMs },
    ];
    const answer = await window.take(limits, clock.now().getTime());
    if (!answer.admitted) {
      const retryAfter = seconds(answer.retryAfterMs);
      onRefused?.('budget');
      throw new AppError(429, 'live_budget_spent', texts.recipient.liveBudgetSpent, { retryAfter });
    }
    return { framesLeft: Math.max(0, Math.min(...answer.left)), release: answer.release };
  }

  /**
   * Matches the frame against the candidates (on an idle worker only) and reveals on a decisive match: the matcher's
   * own, or this frame together with an earlier one of the same scanning session, target and gift (frame-pool.ts).
   * A miss says "Move closer" when the matcher placed the gift on a small part of the frame.
   */
  async function decide(candidates: Gift[], scan: Buffer, target: string, clientIp: string, session: string | undefined): Promise<LiveOutcome> {
    const budget = await takeBudget(target, clientIp);
    const references = await core.referencesOf(candidates);
    let decision: MatchDecision;
    try {
      decision = await matchScan(recogniser, scan, references, { live: true });
    } catch (err) {
      // Refused by a busy matcher after all: the frame was never matched, so it costs no budget.
      if (err instanceof AppError && err.code === 'scan_busy') {
        onRefused?.('busy');
        await budget.release();
      }
      throw err;
    }
    const found = candidates[decision.bestIndex];
    const pooled =
      // only frames whose evidence passed the whole-gift check join the pool (decision 056)
      !decision.matched && decision.vetted && found !== undefined && session !== undefined && pool.add({ session, target, giftId: found.id }, decision.inliers, clock.now().getTime());
    const gift = decision.matched || pooled ? found : undefined;
    if (!gift) {
      const small = decision.coverage !== undefined && decision.coverage < MOVE_CLOSER_BELOW;
      return { response: { success: false, decided: false, framesLeft: budget.framesLeft, ...(small ? { hint: 'moveCloser' as const } : {}) }, grant: null };
    }
    // a pooled decision reports the bar's score: the frames together reached it, neither alone
    const outcome = await core.revealed(gift, decision.matched ? decision.score : 0.5, 'live');
    return { response: { ...outcome.response, success: true }, grant: outcome.grant };
  }

  return {
    /** The per-second rate per client address: 429 too_many_frames above it (refused frames are not counted). */
    async assertRate(clientIp: string): Promise<void> {
      const answer = await window.take(
        [{ key: `rate:ip:${clientIp}`, max: limit.perClientPerSecond, windowMs: 1000 }],
        clock.now().getTime(),
      );
      if (!answer.admitted) {
        const retryAfter = seconds(answer.retryAfterMs);
        onRefused?.('rate');
        throw new AppError(429, 'too_many_frames', texts.recipient.tooManyFrames, { retryAfter });
      }
    },

    /** Direct flow: the same gift rules as process-scan (404, 403, 410) before any budget is spent. */
    async frameForGift(giftId: string, scan: Buffer, clientIp: string, session?: string): Promise<LiveOutcome> {
      const scanning = scanSession(session);
      const gift = await core.linkedGift(giftId);
      return decide([gift], scan, `gift:${gift.id}`, clientIp, scanning);
    },

    /** Recipient flow: the session e-mail's active gifts, as process-scan; the budget is per e-mail. */
    async frameForRecipient(
      recipient: Recipient,
      recipientId: string | undefined,
      scan: Buffer,
      clientIp: string,
      session?: string,
    ): Promise<LiveOutcome> {
      const scanning = scanSession(session);
      assertOwnRecipient(recipient, recipientId);
      const candidates = await core.candidatesOf(recipient);
      return decide(candidates, scan, `recipient:${recipient.email}`, clientIp, scanning);
    },
  };
}

export type LiveFramesService = ReturnType<typeof createLiveFramesService>;
