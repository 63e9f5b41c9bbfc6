import { SCAN_FAILURE_LIMIT } from '@giftlens/contract/constants';
import { texts } from '@giftlens/contract/texts';
import { randomHex } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { matchScan } from '../../lib/scan-photo.ts';
import type { Recipient } from '../recipient-auth/recipient-auth.table.ts';
import { assertOwnRecipient, createScanCore, type ScanCoreDeps, type ScanOutcome } from './scan-core.ts';
import * as repo from './scans.repository.ts';

export interface ScanFailureLimit {
  /** Failed scans allowed per gift (or per recipient e-mail) within the window. */
  perTarget: number;
  /** Failed scans allowed per client address within the window. */
  perClient: number;
  windowMs: number;
}

export const DEFAULT_SCAN_FAILURE_LIMIT: ScanFailureLimit = SCAN_FAILURE_LIMIT;

export interface ScansDeps extends ScanCoreDeps {
  failureLimit?: ScanFailureLimit;
}

function noMatch(giftId: string | null, score: number): ScanOutcome {
  return {
    response: {
      success: false,
      giftId,
      matchResult: { matched: false, matchFound: false, giftId: null, score },
      openAIResponse: { content: 'no' },
      giftDetails: null,
      error: texts.recipient.noMatch,
    },
    grant: null,
  };
}

export function createScansService({ failureLimit, ...deps }: ScansDeps) {
  const { db, clock, recogniser } = deps;
  const limit = failureLimit ?? DEFAULT_SCAN_FAILURE_LIMIT;
  const core = createScanCore(deps);

  // An attacker could probe for a gift's look if failed scans were not rate limited.
  async function assertNotThrottled(scopes: { scope: string; max: number }[]) {
    const now = clock.now().getTime();
    const since = new Date(now - limit.windowMs).toISOString();
    for (const { scope, max } of scopes) {
      const recent = await repo.recentFailures(db, scope, since, max);
      const oldest = recent[max - 1];
      if (oldest) {
        const retryAfter = Math.max(1, Math.ceil((Date.parse(oldest.created_at) + limit.windowMs - now) / 1000));
        throw new AppError(429, 'too_many_failed_scans', texts.recipient.tooManyFailedScans, { retryAfter });
      }
    }
  }

  async function recordFailure(scopes: string[]) {
    const now = clock.now();
    await repo.recordFailures(
      db,
      scopes.map((scope) => ({ id: randomHex(16), scope })),
      now.toISOString(),
      new Date(now.getTime() - limit.windowMs).toISOString(),
    );
  }

  // A saturated matcher refuses with 503 here, before any failure is recorded or reveal counted.
  const recognise = (scan: Buffer, references: Uint8Array[][]) => matchScan(recogniser, scan, references);

  return {
    /** Direct flow: the gift id comes from the link; the plan rules are checked before any matching work. */
    async scanGift(giftId: string, scan: Buffer, clientIp: string): Promise<ScanOutcome> {
      const gift = await core.linkedGift(giftId);
      const scopes = [`gift:${gift.id}`, `ip:${clientIp}`];
      await assertNotThrottled([
        { scope: scopes[0]!, max: limit.perTarget },
        { scope: scopes[1]!, max: limit.perClient },
      ]);
      const decision = await recognise(scan, await core.referencesOf([gift]));
      if (!decision.matched) {
        await recordFailure(scopes);
        return noMatch(gift.id, decision.score);
      }
      return core.revealed(gift, decision.score);
    },

    /**
     * Recipient flow: the scan is matched against the session e-mail's active gifts (newest 20); the
     * recipient_id the page sends must be the session's own.
     */
    async scanForRecipient(
      recipient: Recipient,
      recipientId: string | undefined,
      scan: Buffer,
      clientIp: string,
    ): Promise<ScanOutcome> {
      assertOwnRecipient(recipient, recipientId);
      const scopes = [`recipient:${recipient.email}`, `ip:${clientIp}`];
      await assertNotThrottled([
        { scope: scopes[0]!, max: limit.perTarget },
        { scope: scopes[1]!, max: limit.perClient },
      ]);
      const candidates = await core.candidatesOf(recipient);
      const decision = await recognise(scan, await core.referencesOf(candidates));
      const gift = decision.matched ? candidates[decision.bestIndex] : undefined;
      if (!gift) {
        await recordFailure(scopes);
        return noMatch(null, decision.score);
      }
      return core.revealed(gift, decision.score);
    },
  };
}

export type ScansService = ReturnType<typeof createScansService>;
