import { BACKUP_CODE, SCAN_FAILURE_LIMIT } from '@giftlens/contract/constants';
import { texts } from '@giftlens/contract/texts';
import type { ReferenceInput } from '../../adapters/recogniser.ts';
import type { BackupCodes } from '../../lib/backup-codes.ts';
import { randomHex } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { matchScan } from './scan-match.ts';
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
  backupCodes: BackupCodes;
}

const tooManyFailedScans = (retryAfter: number) =>
  new AppError(429, 'too_many_failed_scans', texts.recipient.tooManyFailedScans, { retryAfter });
const tooManyWrongCodes = (retryAfter: number) =>
  new AppError(429, 'too_many_wrong_codes', texts.backupCode.tooManyWrong, { retryAfter });

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

export function createScansService({ failureLimit, backupCodes, ...deps }: ScansDeps) {
  const { db, clock, recogniser } = deps;
  const limit = failureLimit ?? DEFAULT_SCAN_FAILURE_LIMIT;
  const core = createScanCore(deps);

  // An attacker could probe for a gift's look if failed scans were not rate limited.
  async function assertNotThrottled(scopes: { scope: string; max: number }[], windowMs = limit.windowMs, refusal = tooManyFailedScans) {
    const now = clock.now().getTime();
    const since = new Date(now - windowMs).toISOString();
    for (const { scope, max } of scopes) {
      const recent = await repo.recentFailures(db, scope, since, max);
      const oldest = recent[max - 1];
      if (oldest) throw refusal(Math.max(1, Math.ceil((Date.parse(oldest.created_at) + windowMs - now) / 1000)));
    }
  }

  // Rows older than the longest window (the backup codes' hour) are pruned as new ones are written.
  async function recordFailure(scopes: string[]) {
    const now = clock.now();
    await repo.recordFailures(
      db,
      scopes.map((scope) => ({ id: randomHex(16), scope })),
      now.toISOString(),
      new Date(now.getTime() - Math.max(limit.windowMs, BACKUP_CODE.windowMs)).toISOString(),
    );
  }

  /**
   * Backup codes (decision 039, issue 37): wrong codes are counted in the database (so the limits hold across API
   * nodes) per gift and client address (`code:{giftId}:ip:{client}`), per client address over all gifts
   * (`code-ip:{client}`) and per gift (`code:{giftId}`), within the hour. A client address over either of its own
   * limits is refused (429); a gift over its pace refuses only the addresses that have guessed wrong for it: its
   * recipient, typing the right code from their own address, still opens it, whoever guessed before. A try is written
   * down before its code is compared and re-checked with itself counted (tries sent all at once are each counted);
   * a right one takes its rows back.
   */
  const { code: codeScope, codeClient, codeIp } = repo.failureScope;
  async function withCodeTry<T>(giftIds: string[], client: string, attempt: () => T | null): Promise<T> {
    if (giftIds.length === 0) throw new AppError(400, 'backup_code_wrong', texts.backupCode.wrong);
    const now = clock.now();
    const since = new Date(now.getTime() - BACKUP_CODE.windowMs).toISOString();
    const count = (scope: string, max: number) => repo.recentFailures(db, scope, since, max);
    // Refused when a limit holds `extra` or more beyond its max (0 before this try is written, 1 after).
    async function assertOpen(extra: number) {
      const refusals: { created_at: string }[] = [];
      const over = (rows: { created_at: string }[], max: number) => {
        const oldest = rows[max - 1 + extra];
        if (oldest) refusals.push(oldest);
      };
      over(await count(codeIp(client), BACKUP_CODE.wrongPerClientAll + extra), BACKUP_CODE.wrongPerClientAll);
      for (const id of giftIds) {
        const mine = await count(codeClient(id, client), BACKUP_CODE.wrongPerClient + extra);
        over(mine, BACKUP_CODE.wrongPerClient);
        // The gift's pace binds only an address that has guessed wrong for it (beyond this try).
        if (mine.length > extra) over(await count(codeScope(id), BACKUP_CODE.wrongPerGift + extra), BACKUP_CODE.wrongPerGift);
      }
      const first = refusals.sort((x, y) => Date.parse(y.created_at) - Date.parse(x.created_at))[0];
      if (first) throw tooManyWrongCodes(Math.max(1, Math.ceil((Date.parse(first.created_at) + BACKUP_CODE.windowMs - now.getTime()) / 1000)));
    }
    await assertOpen(0);
    const rows = [
      { id: randomHex(16), scope: codeIp(client) },
      ...giftIds.flatMap((id) => [
        { id: randomHex(16), scope: codeScope(id) },
        { id: randomHex(16), scope: codeClient(id, client) },
      ]),
    ];
    await repo.recordFailures(db, rows, now.toISOString(), new Date(now.getTime() - Math.max(limit.windowMs, BACKUP_CODE.windowMs)).toISOString());
    const taken = () => repo.deleteFailures(db, rows.map((r) => r.id));
    try {
      // Counted with this try: over a limit (others arrived at the same moment) and it is not made.
      await assertOpen(1);
    } catch (err) {
      await taken();
      throw err;
    }
    const opened = attempt();
    if (opened === null) throw new AppError(400, 'backup_code_wrong', texts.backupCode.wrong);
    await taken();
    return opened;
  }

  // A saturated matcher refuses with 503 here, before any failure is recorded or reveal counted.
  const recognise = (scan: Buffer, references: ReferenceInput[][]) => matchScan(recogniser, scan, references);

  return {
    /** Direct flow: the gift id comes from the link; the plan rules are checked before any matching work. */
    async scanGift(giftId: string, scan: Buffer, clientIp: string): Promise<ScanOutcome> {
      const gift = await core.linkedGift(giftId);
      const scopes = [repo.failureScope.gift(gift.id), repo.failureScope.ip(clientIp)];
      await assertNotThrottled([
        { scope: scopes[0]!, max: limit.perTarget },
        { scope: scopes[1]!, max: limit.perClient },
      ]);
      const decision = await recognise(scan, await core.referencesOf([gift]));
      if (!decision.matched) {
        await recordFailure(scopes);
        await repo.recordScanEvent(db, { id: randomHex(16), giftId: gift.id, outcome: 'no_match', flow: 'photo', score: decision.score, now: clock.now().toISOString() });
        return noMatch(gift.id, decision.score);
      }
      return core.revealed(gift, decision.score);
    },

    /**
     * Direct flow by backup code: the gift link plus the gift's code reveal it exactly as a matching scan does
     * (the same answer, grant, counted reveal and notice; score 0, nothing was matched).
     */
    async openWithCode(giftId: string, code: string, clientIp: string): Promise<ScanOutcome> {
      const gift = await core.linkedGift(giftId);
      await withCodeTry([gift.id], clientIp, () => (backupCodes.matches(gift.id, gift.backup_code, code) ? gift : null));
      return core.revealed(gift, 0, 'code');
    },

    /**
     * Recipient flow by backup code: the code is tried against the session e-mail's active gifts (newest 20); a
     * wrong one counts against each of them.
     */
    async openWithCodeForRecipient(recipient: Recipient, recipientId: string | undefined, code: string, clientIp: string): Promise<ScanOutcome> {
      assertOwnRecipient(recipient, recipientId);
      const candidates = await core.candidatesOf(recipient);
      // Every candidate is compared, so the time taken does not say which gift (if any) the code belongs to.
      const gift = await withCodeTry(
        candidates.map((g) => g.id),
        clientIp,
        () => candidates.filter((g) => backupCodes.matches(g.id, g.backup_code, code))[0] ?? null,
      );
      return core.revealed(gift, 0, 'code');
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
      const scopes = [repo.failureScope.recipient(recipient.email), repo.failureScope.ip(clientIp)];
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
