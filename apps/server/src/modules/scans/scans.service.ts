import { SCAN_FAILURE_LIMIT } from '@giftlens/contract/constants';
import { type ScanResponse } from '@giftlens/contract/recipient';
import { texts } from '@giftlens/contract/texts';
import type { Clock } from '../../adapters/clock.ts';
import type { MediaStorage } from '../../adapters/media-storage.ts';
import { isUnreadableImage, type Recogniser } from '../../adapters/recogniser.ts';
import type { Db } from '../../db/database.ts';
import { randomHex } from '../../lib/crypto.ts';
import { AppError, giftNotFound } from '../../lib/errors.ts';
import { matchScan } from '../../lib/scan-photo.ts';
import * as gifts from '../gifts/gifts.repository.ts';
import type { Gift } from '../gifts/gifts.table.ts';
import type { MessagesService } from '../messages/messages.service.ts';
import type { RevealGrants } from '../reveal-grants/reveal-grants.ts';
import { queueSenderNotice } from '../notices/notices.queue.ts';
import { listActiveGiftsForEmail } from '../recipient-auth/recipient-auth.repository.ts';
import type { Recipient } from '../recipient-auth/recipient-auth.table.ts';
import { MAX_RECIPIENT_GIFTS } from '../recipient-auth/recipient-auth.service.ts';
import { assertRevealable, scanLimitReached } from './gift-rules.ts';
import * as repo from './scans.repository.ts';

export interface ScanFailureLimit {
  /** Failed scans allowed per gift (or per recipient e-mail) within the window. */
  perTarget: number;
  /** Failed scans allowed per client address within the window. */
  perClient: number;
  windowMs: number;
}

export const DEFAULT_SCAN_FAILURE_LIMIT: ScanFailureLimit = SCAN_FAILURE_LIMIT;

export interface ScansDeps {
  db: Db;
  media: MediaStorage;
  clock: Clock;
  recogniser: Recogniser;
  messages: MessagesService;
  grants: RevealGrants;
  failureLimit?: ScanFailureLimit;
}


/** A decided scan: the response, and on a match the reveal grant issued for its gift (the cookie to set). */
export interface ScanOutcome {
  response: ScanResponse;
  grant: { giftId: string; token: string } | null;
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

export function createScansService({ db, media, clock, recogniser, messages, grants, failureLimit }: ScansDeps) {
  const limit = failureLimit ?? DEFAULT_SCAN_FAILURE_LIMIT;

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

  /** Photos enrolled before the matcher existed (features null) are enrolled from storage on first use. */
  async function referencesOf(candidates: Gift[]): Promise<Uint8Array[][]> {
    const rows = await repo.listReferences(db, candidates.map((g) => g.id));
    const byGift = new Map<string, Uint8Array[]>(candidates.map((g) => [g.id, []]));
    for (const row of rows) {
      let features: Uint8Array | null = row.features;
      if (!features) {
        const stat = await media.stat(row.storage_path);
        if (!stat) continue;
        try {
          const enrolled = await recogniser.enrol(await media.readHead(row.storage_path, stat.size));
          const buffer = Buffer.from(enrolled.reference);
          await repo.setPhotoFeatures(db, row.id, {
            features: buffer,
            quality: enrolled.quality.score,
            recognisable: enrolled.quality.recognisable,
            message: enrolled.quality.message ?? null,
          });
          features = buffer;
        } catch (err) {
          if (isUnreadableImage(err)) continue;
          throw err;
        }
      }
      byGift.get(row.gift_id)?.push(features);
    }
    return candidates.map((g) => byGift.get(g.id) ?? []);
  }

  // A saturated matcher refuses with 503 here, before any failure is recorded or reveal counted.
  const recognise = (scan: Buffer, references: Uint8Array[][]) => matchScan(recogniser, scan, references);

  /** Counts the reveal and answers with the gift's details; the route then sets the grant cookie. */
  async function revealed(gift: Gift, score: number): Promise<ScanOutcome> {
    const plan = assertRevealable(gift, clock.now());
    const now = clock.now();
    // The reveal is counted, its grant issued, and the first one recorded with the sender's notice, in one
    // transaction: a failure between them can neither spend a reveal without a grant nor grant one uncounted.
    const token = await db.transaction().execute(async (trx) => {
      if (!(await repo.claimScan(trx, gift.id, plan.scans, now.toISOString()))) return null;
      if (await repo.markFirstOpened(trx, gift.id, now.toISOString())) await queueSenderNotice(trx, now, 'opened', gift.id);
      return grants.issue(trx, gift.id);
    });
    if (token === null) throw scanLimitReached();
    return {
      response: {
        success: true,
        giftId: gift.id,
        matchResult: { matched: true, matchFound: true, giftId: gift.id, score },
        openAIResponse: { content: 'yes' },
        giftDetails: await messages.revealDetails(gift),
      },
      grant: { giftId: gift.id, token },
    };
  }

  return {
    /** Direct flow: the gift id comes from the link; the plan rules are checked before any matching work. */
    async scanGift(giftId: string, scan: Buffer, clientIp: string): Promise<ScanOutcome> {
      const gift = await gifts.findGift(db, giftId);
      if (!gift) throw giftNotFound();
      assertRevealable(gift, clock.now());
      const scopes = [`gift:${gift.id}`, `ip:${clientIp}`];
      await assertNotThrottled([
        { scope: scopes[0]!, max: limit.perTarget },
        { scope: scopes[1]!, max: limit.perClient },
      ]);
      const decision = await recognise(scan, await referencesOf([gift]));
      if (!decision.matched) {
        await recordFailure(scopes);
        return noMatch(gift.id, decision.score);
      }
      return revealed(gift, decision.score);
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
      if (!recipientId) throw new AppError(400, 'recipient_id_missing', texts.recipient.recipientIdMissing);
      if (recipientId !== recipient.id) throw new AppError(403, 'forbidden', texts.recipient.recipientIdMissing);
      const scopes = [`recipient:${recipient.email}`, `ip:${clientIp}`];
      await assertNotThrottled([
        { scope: scopes[0]!, max: limit.perTarget },
        { scope: scopes[1]!, max: limit.perClient },
      ]);
      const candidates = await listActiveGiftsForEmail(db, recipient.email, MAX_RECIPIENT_GIFTS);
      if (candidates.length === 0) throw new AppError(404, 'no_active_gifts', texts.recipient.noActiveGifts);
      const decision = await recognise(scan, await referencesOf(candidates));
      const gift = decision.matched ? candidates[decision.bestIndex] : undefined;
      if (!gift) {
        await recordFailure(scopes);
        return noMatch(null, decision.score);
      }
      return revealed(gift, decision.score);
    },
  };
}

export type ScansService = ReturnType<typeof createScansService>;
