import type { ScanResponse } from '@giftlens/contract/recipient';
import { texts } from '@giftlens/contract/texts';
import type { Clock } from '../../adapters/clock.ts';
import type { MediaStorage } from '../../adapters/media-storage.ts';
import { isUnreadableImage, type Recogniser, type ReferenceInput, type ReferenceLoader, REFERENCE_RECIPE } from '../../adapters/recogniser.ts';
import type { Db } from '../../db/database.ts';
import { AppError, giftNotFound } from '../../lib/errors.ts';
import * as photos from '../gifts/gift-photos.repository.ts';
import * as gifts from '../gifts/gifts.repository.ts';
import { MAX_RECIPIENT_GIFTS } from '../gifts/gifts.service.ts';
import type { Gift } from '../gifts/gifts.table.ts';
import type { MessagesService } from '../messages/messages.service.ts';
import { queueSenderNotice } from '../notices/notices.queue.ts';
import type { Recipient } from '../recipient-auth/recipient-auth.table.ts';
import type { RevealGrants } from '../reveal-grants/reveal-grants.ts';
import { assertRevealable, scanLimitReached } from './gift-rules.ts';
import { onGiftFirstOpened } from '../group-gifts/group-gifts.service.ts';
import { scansAllowed } from '../gifts/gift-plan.ts';
import { recordScanEvent, type ScanFlow, type ScanOutcomeKind } from './scans.repository.ts';
import { randomHex } from '../../lib/crypto.ts';

export interface ScanCoreDeps {
  db: Db;
  media: MediaStorage;
  clock: Clock;
  recogniser: Recogniser;
  messages: MessagesService;
  grants: RevealGrants;
}

/** A decided scan: the response, and on a match the reveal grant issued for its gift (the cookie to set). */
export interface ScanOutcome {
  response: ScanResponse;
  grant: { giftId: string; token: string } | null;
}

/**
 * What an explicit scan (process-scan) and a live frame share: which gifts a photo is matched against, their
 * enrolled references, and the reveal on a match.
 */
export function createScanCore({ db, media, clock, recogniser, messages, grants }: ScanCoreDeps) {
  /** The bytes of photos a matcher worker lacks, read only then (a worker keeps them by photo id and recipe). */
  const load: ReferenceLoader = (keys) => photos.featuresOf(db, keys);

  /**
   * The candidates' references by `referenceKey`, the photo id and its features' recipe (decisions 045 and 053): the
   * matcher's workers keep enrolled features by key, so a scan reads no features from the database unless a worker
   * lacks them. Photos enrolled before the matcher existed (features null) are enrolled from storage on first use.
   */
  async function referencesOf(candidates: Gift[]): Promise<ReferenceInput[][]> {
    const rows = await photos.listPhotoReferences(db, candidates.map((g) => g.id));
    const byGift = new Map<string, ReferenceInput[]>(candidates.map((g) => [g.id, []]));
    for (const row of rows) {
      let reference: ReferenceInput = { key: photos.referenceKey(row.id, row.features_recipe), load };
      if (!row.enrolled) {
        const stat = await media.stat(row.storage_path);
        if (!stat) continue;
        try {
          const enrolled = await recogniser.enrol(await media.readHead(row.storage_path, stat.size));
          const buffer = Buffer.from(enrolled.reference);
          await photos.setPhotoFeatures(db, row.id, {
            features: buffer,
            recipe: REFERENCE_RECIPE,
            quality: enrolled.quality.score,
            recognisable: enrolled.quality.recognisable,
            message: enrolled.quality.message ?? null,
          });
          reference = { key: photos.referenceKey(row.id, REFERENCE_RECIPE), bytes: buffer, load };
        } catch (err) {
          if (isUnreadableImage(err)) continue;
          throw err;
        }
      }
      byGift.get(row.gift_id)?.push(reference);
    }
    return candidates.map((g) => byGift.get(g.id) ?? []);
  }

  /**
   * The plan rules (assertRevealable); a gift out of scans also tells its sender, once per gift (issue 40), so the
   * recipient's "scan limit" answer can say the sender has been told.
   */
  async function revealable(gift: Gift, now: Date) {
    try {
      return assertRevealable(gift, now);
    } catch (err) {
      if (err instanceof AppError && err.code === 'scan_limit_reached') await queueSenderNotice(db, now, 'scans-out', gift.id);
      throw err;
    }
  }

  return {
    referencesOf,

    /** Direct flow: the linked gift, with the plan rules checked before any matching work. */
    async linkedGift(giftId: string): Promise<Gift> {
      const gift = await gifts.findGift(db, giftId);
      if (!gift) throw giftNotFound();
      await revealable(gift, clock.now());
      return gift;
    },

    /** Recipient flow: the session e-mail's active gifts (newest 20) are the candidates. */
    async candidatesOf(recipient: Recipient): Promise<Gift[]> {
      const candidates = await gifts.listActiveGiftsForEmail(db, recipient.email, MAX_RECIPIENT_GIFTS);
      if (candidates.length === 0) throw new AppError(404, 'no_active_gifts', texts.recipient.noActiveGifts);
      return candidates;
    },

    /** Counts the reveal and answers with the gift's details; the route then sets the grant cookie. */
    async revealed(gift: Gift, score: number, flow: ScanFlow = 'photo'): Promise<ScanOutcome> {
      const now = clock.now();
      const plan = await revealable(gift, now);
      // Read before the reveal is counted: a failure here spends nothing.
      const giftDetails = await messages.revealDetails(gift);
      // The reveal is counted, its grant issued, and the first one recorded with the sender's notice, in one
      // transaction: a failure between them can neither spend a reveal without a grant nor grant one uncounted.
      const event = (outcome: ScanOutcomeKind) => ({ id: randomHex(16), giftId: gift.id, outcome, flow, score: flow === 'code' ? null : score, now: now.toISOString() });
      const token = await db.transaction().execute(async (trx) => {
        if (!(await gifts.claimScan(trx, gift.id, scansAllowed(gift, plan), now.toISOString()))) return null;
        await recordScanEvent(trx, event('revealed'));
        if (await gifts.markFirstOpened(trx, gift.id, now.toISOString())) {
          await queueSenderNotice(trx, now, 'opened', gift.id);
          // A group gift's contributions close as it is first opened; contributors who asked are told.
          await onGiftFirstOpened(trx, gift, now);
        }
        return grants.issue(trx, gift.id);
      });
      if (token === null) {
        await db.transaction().execute(async (trx) => {
          await recordScanEvent(trx, event('limit_reached'));
          await queueSenderNotice(trx, now, 'scans-out', gift.id);
        });
        throw scanLimitReached();
      }
      return {
        response: {
          success: true,
          giftId: gift.id,
          matchResult: { matched: true, matchFound: true, giftId: gift.id, score },
          openAIResponse: { content: 'yes' },
          giftDetails,
        },
        grant: { giftId: gift.id, token },
      };
    },
  };
}

export type ScanCore = ReturnType<typeof createScanCore>;

/** The recipient_id a scan names must be present and the session's own. */
export function assertOwnRecipient(recipient: Recipient, recipientId: string | undefined) {
  if (!recipientId) throw new AppError(400, 'recipient_id_missing', texts.recipient.recipientIdMissing);
  if (recipientId !== recipient.id) throw new AppError(403, 'forbidden', texts.recipient.recipientIdMissing);
}
