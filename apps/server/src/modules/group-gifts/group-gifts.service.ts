import { RECIPIENT_RESEND_COOLDOWN_S, SIGNED_URL_TTL_MS } from '@giftlens/contract/constants';
import {
  type Contribution,
  ContributionToken,
  type ContributionPageResponse,
  type ContributionConfirmRequest,
  type ContributionTextRequest,
  type ContributionUploadUrlRequest,
  contributePath,
  GROUP_DEADLINE_CHANGES,
  GROUP_DEFAULT_DEADLINE_MS,
  GROUP_MIN_DEADLINE_MS,
  GROUP_REMINDER_HOURS,
  type GroupState,
  groupContributorLimit,
  groupTexts,
  type Invitation,
  type InviteRequest,
  type OwnContribution,
  type RevealedContribution,
} from '@giftlens/contract/group-gifts';
import { Email } from '@giftlens/contract/common';
import type { Plan } from '@giftlens/contract/plans';
import { texts } from '@giftlens/contract/texts';
import { createHmac } from 'node:crypto';
import type { Clock } from '../../adapters/clock.ts';
import type { MediaStorage } from '../../adapters/media-storage.ts';
import type { Executor } from '../../db/database.ts';
import { groupCloseJob, groupMailJob, groupNoticeJob, groupRemindJob, groupRenderJob, renderJob } from '../../jobs/keys.ts';
import { cancelJob, enqueue, enqueueAtMostEvery } from '../../jobs/queue.ts';
import type { SlidingWindow } from '../../adapters/sliding-window.ts';
import { deriveKey, randomHex, sha256Hex } from '../../lib/crypto.ts';
import { AppError, giftNotFound } from '../../lib/errors.ts';
import { createOneTimeCodes, type OneTimeCodesDeps } from '../auth/one-time-codes.ts';
import { planOf, refuseIfTakenDown, validUntil, withdrawn } from '../gifts/gift-plan.ts';
import { giftUnavailable } from '../scans/gift-rules.ts';
import * as gifts from '../gifts/gifts.repository.ts';
import type { Gift } from '../gifts/gifts.table.ts';
import { senderNameOf } from '../messages/messages.service.ts';
import { findSenderById } from '../sender-auth/sender-auth.repository.ts';
import type { Sender } from '../sender-auth/sender-auth.table.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import * as uploads from '../uploads/uploads.repository.ts';
import * as repo from './group-gifts.repository.ts';
import type { ContributionRow, GroupGift, GroupInvitation } from './group-gifts.table.ts';

const HOUR_MS = 60 * 60 * 1000;

const notAllowed = () => new AppError(403, 'group_not_allowed', groupTexts.notAllowed);
const notPaid = () => new AppError(409, 'gift_not_paid', groupTexts.notPaid);
const closed = () => new AppError(409, 'contributions_closed', groupTexts.closed);
const linkNotFound = () => new AppError(404, 'contribution_link_not_found', groupTexts.linkNotFound);
const contributionNotFound = () => new AppError(404, 'contribution_not_found', groupTexts.contributionNotFound);
/** Once the recipient has opened the gift, what they saw stays as it was. */
const openedLocked = () => new AppError(409, 'contributions_opened', groupTexts.openedLocked);
const tooMany = (plan: Plan, limit: number) => new AppError(409, 'too_many_contributors', groupTexts.tooManyContributors(limit, plan.name));

/** The links' tokens: HMACs under a key derived from SESSION_SECRET, so a mail job can write the link again. */
export function createGroupLinks(sessionSecret: string) {
  const key = deriveKey(sessionSecret, 'group-gift-links');
  const mac = (value: string) => createHmac('sha256', key).update(value).digest('base64url');
  return {
    /** The per-person token of an invitation (43 base64url characters, 256 bits). */
    personal: (invitationId: string) => mac(`invitation:${invitationId}`),
    /** The group's shared invitation link's token. */
    shared: (giftId: string, nonce: string) => mac(`shared:${giftId}:${nonce}`),
    hash: (token: string) => sha256Hex(token),
  };
}
export type GroupLinks = ReturnType<typeof createGroupLinks>;

/** Contributions may still be added: not closed, before the deadline, the gift not yet opened. */
export function groupIsOpen(group: Pick<GroupGift, 'closed_at' | 'deadline'> | undefined, gift: Pick<Gift, 'first_opened_at' | 'status' | 'refunded_at' | 'taken_down_at'>, now: Date): boolean {
  // A gift refunded or taken down by staff takes nothing more (decision 051).
  const giftOpen = gift.status === 'active' && gift.first_opened_at === null && !withdrawn(gift);
  if (!group) return giftOpen;
  return giftOpen && group.closed_at === null && Date.parse(group.deadline) > now.getTime();
}

/** Whether a gift's group takes contributions now (an upload through a contributor's link lands only then). */
export async function contributionsOpen(db: Executor, giftId: string, now: Date): Promise<boolean> {
  const [gift, group] = await Promise.all([gifts.findGift(db, giftId), repo.findGroup(db, giftId)]);
  return gift !== undefined && group !== undefined && groupIsOpen(group, gift, now);
}

/** A contribution's message as every viewer gets it: signed URLs for a recording, the words of a text. */
const contentOf = (c: ContributionRow, signed: (key: string | null) => string | null) => ({
  messageUrl: c.message_type === 'text' ? null : signed(c.file_path),
  posterUrl: c.message_type === 'video' ? signed(c.poster_path) : null,
  text: c.message_type === 'text' ? c.text : null,
});

/** The contributions the recipient's message page plays, in the organizer's order (ready ones only), and the combined MP4. */
export async function revealedContributions(
  { db, media, clock }: { db: Executor; media: MediaStorage; clock: Clock },
  gift: Gift,
): Promise<{ contributions: RevealedContribution[]; combinedDownloadUrl: string | null }> {
  const signed = (key: string | null) => (key ? media.signedUrl(key, SIGNED_URL_TTL_MS, clock.now()) : null);
  const [rows, group] = await Promise.all([repo.listContributions(db, gift.id), repo.findGroup(db, gift.id)]);
  const contributions = rows
    .filter((c) => c.state === 'ready')
    .map((c) => ({ from: c.name, messageType: c.message_type, ...contentOf(c, signed) }));
  // Saved as "Messages for {recipient}.mp4" (issue 40's keepsake), not under its storage key.
  const combined =
    group?.combined_state === 'ready' && planOf(gift).downloads && group.combined_path
      ? media.signedUrl(group.combined_path, SIGNED_URL_TTL_MS, clock.now(), { download: true, name: `Messages for ${gift.recipient_name}` })
      : null;
  return { contributions, combinedDownloadUrl: combined };
}


/** How long a combined render waits after the change that asked for it: the next reorder within it replaces it. */
export const COMBINED_SETTLE_MS = 5_000;

/**
 * After a change of what the combined MP4 shows (contributions closed, one reordered, removed or converted after
 * closing): queues a new version where the plan has downloads, or clears it when nothing is left to combine. Returns
 * a file that is no longer named (the caller deletes it after the commit).
 */
export async function refreshCombined(trx: Executor, gift: Gift, now: Date): Promise<string | null> {
  if (!planOf(gift).downloads) return null;
  const group = await repo.findGroup(trx, gift.id);
  if (!group || group.closed_at === null) return null;
  if ((await repo.countContributions(trx, gift.id, 'ready')) === 0) return repo.clearCombined(trx, gift.id, now.toISOString());
  const version = await repo.bumpCombined(trx, gift.id, now.toISOString());
  if (version !== null) {
    // Reorders in a row coalesce (issue 37): the waiting render of the version before is cancelled, the new one waits
    // a few seconds for the next change, and a render already running stops when it sees a newer version.
    await cancelJob(trx, groupRenderJob(gift.id, version - 1).key, now);
    await enqueue(trx, now, 'group.render', { giftId: gift.id, version }, { ...groupRenderJob(gift.id, version), runAt: new Date(now.getTime() + COMBINED_SETTLE_MS) });
  }
  return null;
}

/** Closes contributions (deadline, organizer, first opening): the organizer's summary and the combined MP4 follow. */
export async function closeContributions(trx: Executor, gift: Gift, now: Date): Promise<{ closed: boolean; dropped: string | null }> {
  if (!(await repo.closeGroup(trx, gift.id, now.toISOString()))) return { closed: false, dropped: null };
  if (await repo.markGroupMail(trx, gift.id, 'summary_sent_at', now.toISOString())) {
    await enqueue(trx, now, 'group.notice', { giftId: gift.id, kind: 'summary' }, groupNoticeJob(gift.id, 'summary'));
  }
  return { closed: true, dropped: await refreshCombined(trx, gift, now) };
}

/**
 * The gift's first opening (scan-core, in the reveal's transaction): contributions close, and contributors who
 * asked are told.
 */
export async function onGiftFirstOpened(trx: Executor, gift: Gift, now: Date): Promise<void> {
  const group = await repo.findGroup(trx, gift.id);
  if (!group) return;
  await closeContributions(trx, gift, now);
  for (const { id } of await repo.invitationsToTellOfOpening(trx, gift.id)) {
    await enqueue(trx, now, 'group.mail', { invitationId: id, kind: 'opened' }, groupMailJob(gift.id, id, 'opened'));
  }
}

/** Queues the deadline's close and reminders (keys carry the deadline: a moved one makes new jobs, the old skip). */
async function scheduleDeadline(trx: Executor, giftId: string, deadline: string, now: Date): Promise<void> {
  const at = Date.parse(deadline);
  await enqueue(trx, now, 'group.close', { giftId, deadline }, { ...groupCloseJob(giftId, deadline), runAt: new Date(at) });
  for (const hours of GROUP_REMINDER_HOURS) {
    const runAt = at - hours * HOUR_MS;
    if (runAt > now.getTime()) await enqueue(trx, now, 'group.remind', { giftId, deadline, hours }, { ...groupRemindJob(giftId, deadline, hours), runAt: new Date(runAt) });
  }
}

export interface GroupGiftsDeps extends OneTimeCodesDeps {
  /** Where deadline moves are counted per group (memory, or Redis shared by the API nodes). */
  deadlineWindow: SlidingWindow;
  media: MediaStorage;
  publicOrigin: string;
  uploads: UploadsService['shared'];
  /** ffmpeg converts contributions (a render job after confirm); without it a file is kept as uploaded. */
  renders: boolean;
  wakeJobs?: () => void;
}

export function createGroupGiftsService(deps: GroupGiftsDeps) {
  const { db, media, clock, publicOrigin, renders, wakeJobs, deadlineWindow } = deps;
  const links = createGroupLinks(deps.sessionSecret);
  const codes = createOneTimeCodes(deps);
  const signed = (key: string | null) => (key ? media.signedUrl(key, SIGNED_URL_TTL_MS, clock.now()) : null);

  const dropFiles = async (files: (string | null | undefined)[]) => {
    for (const f of files) if (f) await media.delete(f).catch(() => undefined);
  };
  const filesOf = (c: ContributionRow | null | undefined) => (c ? [c.file_path, c.poster_path] : []);

  async function ownGift(sender: Sender, giftId: string): Promise<{ gift: Gift; plan: Plan; limit: number }> {
    const gift = await gifts.findSenderGift(db, giftId, sender.id);
    if (!gift) throw giftNotFound();
    refuseIfTakenDown(gift);
    const plan = planOf(gift);
    const limit = groupContributorLimit(plan.id);
    if (limit === 0) throw notAllowed();
    if (gift.status !== 'active' || !gift.paid_at) throw notPaid();
    if (withdrawn(gift)) throw giftUnavailable();
    return { gift, plan, limit };
  }

  /** The group, made on first use with the default deadline (3 days, or the plan's end if sooner). */
  async function ensureGroup(trx: Executor, gift: Gift, plan: Plan, now: Date): Promise<GroupGift> {
    const existing = await repo.lockGroup(trx, gift.id);
    if (existing) return existing;
    const end = validUntil(gift, plan);
    const deadline = new Date(Math.min(now.getTime() + GROUP_DEFAULT_DEADLINE_MS, end ?? Infinity)).toISOString();
    const nonce = randomHex(16);
    await repo.insertGroup(trx, {
      gift_id: gift.id,
      deadline,
      closed_at: null,
      invite_nonce: nonce,
      invite_token_hash: links.hash(links.shared(gift.id, nonce)),
      empty_warned_at: null,
      summary_sent_at: null,
      combined_path: null,
      combined_error: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    });
    await scheduleDeadline(trx, gift.id, deadline, now);
    const made = await repo.lockGroup(trx, gift.id);
    if (!made) throw new Error(`group of ${gift.id} not found after insert`);
    return made;
  }

  function checkDeadline(gift: Gift, plan: Plan, deadline: string, now: Date): string {
    // ISO-8601 with its offset (a bare local time would be read in the server's zone), and a real calendar day.
    const m = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/.exec(deadline);
    const day = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
    const at = Date.parse(deadline);
    if (!m || !day || day.getUTCDate() !== Number(m[3]) || day.getUTCMonth() !== Number(m[2]) - 1 || Number.isNaN(at)) {
      throw new AppError(400, 'deadline_invalid', groupTexts.deadlineInvalid);
    }
    if (at < now.getTime() + GROUP_MIN_DEADLINE_MS) throw new AppError(400, 'deadline_too_soon', groupTexts.deadlineTooSoon);
    const end = validUntil(gift, plan);
    if (end !== null && at > end) throw new AppError(400, 'deadline_after_plan', groupTexts.deadlineAfterPlan);
    return new Date(at).toISOString();
  }

  const invitationState = (inv: GroupInvitation, contributed: Set<string>): Invitation['state'] =>
    contributed.has(inv.id) ? 'contributed' : inv.reminded_48_at || inv.reminded_24_at ? 'reminded' : 'invited';

  async function stateOf(ex: Executor, gift: Gift, plan: Plan, limit: number): Promise<{ group: GroupState; invitations: GroupInvitation[]; contributions: ContributionRow[] }> {
    let group = await repo.findGroup(ex, gift.id);
    if (!group) {
      // The shared link exists before anyone is invited: copying it starts the group.
      group = await db.transaction().execute(async (trx) => ensureGroup(trx, gift, plan, clock.now()));
    }
    const [invitations, contributions] = await Promise.all([repo.listInvitations(ex, gift.id), repo.listContributions(ex, gift.id)]);
    const combinedReady = group.combined_state === 'ready' && plan.downloads;
    return {
      invitations,
      contributions,
      group: {
        open: groupIsOpen(group, gift, clock.now()),
        deadline: group.deadline,
        closedAt: group.closed_at,
        inviteUrl: `${publicOrigin}${contributePath(links.shared(gift.id, group.invite_nonce))}`,
        contributorLimit: limit,
        invitedCount: invitations.length,
        contributedCount: contributions.length,
        combined: { state: group.combined_state, downloadUrl: combinedReady ? signed(group.combined_path) : null },
      },
    };
  }

  /** What organizer and contributor both see of a contribution (signed, short-lived URLs). */
  const shown = (c: ContributionRow) => ({
    id: c.id,
    name: c.name,
    messageType: c.message_type,
    state: c.state,
    ...contentOf(c, signed),
  });

  const organizerView = (c: ContributionRow, emails: Map<string, string>): Contribution => ({
    ...shown(c),
    position: c.position,
    email: emails.get(c.invitation_id) ?? '',
    createdAt: c.created_at,
  });

  async function contributionsView(gift: Gift, plan: Plan, limit: number) {
    const { group, invitations, contributions } = await stateOf(db, gift, plan, limit);
    const emails = new Map(invitations.map((i) => [i.id, i.email]));
    return { success: true as const, contributions: contributions.map((c) => organizerView(c, emails)), group };
  }

  // The contributor's side --------------------------------------------------------------------------------------

  type Resolved =
    | { kind: 'personal'; invitation: GroupInvitation; gift: Gift; group: GroupGift | undefined }
    | { kind: 'shared'; gift: Gift; group: GroupGift };

  async function resolve(token: string): Promise<Resolved> {
    if (!ContributionToken.safeParse(token).success) throw linkNotFound();
    const hash = links.hash(token);
    const invitation = await repo.findInvitationByTokenHash(db, hash);
    if (invitation) {
      const gift = await gifts.findGift(db, invitation.gift_id);
      if (!gift) throw linkNotFound();
      return { kind: 'personal', invitation, gift, group: await repo.findGroup(db, gift.id) };
    }
    const group = await repo.findGroupByTokenHash(db, hash);
    const gift = group ? await gifts.findGift(db, group.gift_id) : undefined;
    if (!group || !gift) throw linkNotFound();
    return { kind: 'shared', gift, group };
  }

  async function personal(token: string) {
    const r = await resolve(token);
    if (r.kind !== 'personal') throw new AppError(401, 'email_code_required', groupTexts.sharedLinkNeedsEmail);
    if (!groupIsOpen(r.group, r.gift, clock.now())) throw closed();
    return r;
  }

  const ownView = (c: ContributionRow, inv: GroupInvitation): OwnContribution => ({
    ...shown(c),
    error: c.error,
    notifyWhenOpened: inv.notify_opened === 1,
  });

  /** The invitation as a call that may have set its "tell me when it's opened" left it. */
  const withNotify = (inv: GroupInvitation, notify: boolean | undefined): GroupInvitation =>
    notify === undefined ? inv : { ...inv, notify_opened: notify ? 1 : 0 };

  /** Stores a contribution under the gift's and the group's locks, only while contributions are open. */
  async function store(
    r: { invitation: GroupInvitation; gift: Gift },
    content: repo.ContributionContent,
    notify: boolean | undefined,
    extra?: (trx: Executor, c: ContributionRow) => Promise<'changed' | void>,
  ): Promise<{ outcome: 'stored' | 'closed' | 'changed'; replaced: ContributionRow | null; row?: ContributionRow }> {
    const now = clock.now();
    return db.transaction().execute(async (trx) => {
      const [gift] = await gifts.lockGifts(trx, [r.gift.id]);
      const group = await repo.lockGroup(trx, r.gift.id);
      if (!gift || !groupIsOpen(group, gift, now)) return { outcome: 'closed' as const, replaced: null };
      const replaced = await repo.putContribution(trx, gift.id, r.invitation.id, randomHex(16), content, now.toISOString());
      if (notify !== undefined) await repo.setNotifyOpened(trx, r.invitation.id, notify);
      const row = await repo.findContributionOfInvitation(trx, r.invitation.id);
      if (!row) throw new Error('contribution vanished in its own transaction');
      if (extra && (await extra(trx, row)) === 'changed') throw new ChangedDuringStore();
      return { outcome: 'stored' as const, replaced, row };
    });
  }

  /** The organizer's own address cannot join their group as a contributor (their message is the gift's). */
  async function isOrganizer(gift: Gift, email: string) {
    const organizer = await findSenderById(db, gift.sender_id);
    return organizer !== undefined && organizer.email.toLowerCase() === email.toLowerCase();
  }
  async function refuseOrganizer(gift: Gift, email: string) {
    if (await isOrganizer(gift, email)) throw new AppError(400, 'invite_self', groupTexts.organizerOwnLink);
  }

  return {
    links,

    // The organizer ------------------------------------------------------------------------------------------------

    async invite(sender: Sender, giftId: string, req: InviteRequest) {
      const { gift, plan, limit } = await ownGift(sender, giftId);
      const emails: string[] = [];
      for (const raw of req.emails) {
        const parsed = Email.safeParse(raw);
        if (!parsed.success) throw new AppError(400, 'invalid_email', groupTexts.invalidEmailOf(String(raw).slice(0, 254)));
        if (!emails.includes(parsed.data)) emails.push(parsed.data);
      }
      if (emails.includes(sender.email.toLowerCase())) throw new AppError(400, 'invite_self', groupTexts.inviteSelf);
      const now = clock.now();
      const nowIso = now.toISOString();
      // A deadline move counted, given back when the invitation as a whole is refused.
      let takenMove: (() => Promise<void>) | null = null;
      const outcome = await db.transaction().execute(async (trx) => {
        const [locked] = await gifts.lockGifts(trx, [gift.id]);
        if (!locked) throw giftNotFound();
        const group = await ensureGroup(trx, locked, plan, now);
        if (!groupIsOpen(group, locked, now)) throw new AppError(409, 'contributions_closed', groupTexts.organizerClosed);
        if (req.deadline !== undefined) {
          const deadline = checkDeadline(locked, plan, req.deadline, now);
          if (deadline !== group.deadline) {
            // A few moves a day per group: each one may mail every invitee (coalesced below).
            const move = await deadlineWindow.take([{ key: gift.id, max: GROUP_DEADLINE_CHANGES.moves, windowMs: GROUP_DEADLINE_CHANGES.windowMs }], now.getTime());
            if (!move.admitted) throw new AppError(429, 'too_many_deadline_moves', groupTexts.tooManyDeadlineMoves, { retryAfter: Math.max(1, Math.ceil(move.retryAfterMs / 1000)) });
            takenMove = move.release;
            await repo.setDeadline(trx, gift.id, deadline, nowIso);
            await scheduleDeadline(trx, gift.id, deadline, now);
            // Those invited before, and not yet in, hear of the new deadline (their invitation named the old one):
            // one mail per invitee per few hours at most, naming the deadline as it is when the mail goes.
            const contributed = new Set((await repo.listContributions(trx, gift.id)).map((c) => c.invitation_id));
            for (const inv of await repo.listInvitations(trx, gift.id)) {
              if (contributed.has(inv.id)) continue;
              await enqueueAtMostEvery(trx, now, 'group.mail', { invitationId: inv.id, kind: 'deadline' }, { ...groupMailJob(gift.id, inv.id, 'deadline'), gapMs: GROUP_DEADLINE_CHANGES.noticeGapMs });
            }
          }
        }
        const existing = new Map((await repo.listInvitations(trx, gift.id)).map((i) => [i.email, i]));
        const fresh = emails.filter((e) => !existing.has(e));
        if (existing.size + fresh.length > limit) throw tooMany(plan, limit);
        for (const email of fresh) {
          const id = randomHex(16);
          await repo.insertInvitation(trx, {
            id,
            gift_id: gift.id,
            email,
            token_hash: links.hash(links.personal(id)),
            via_shared_link: 0,
            invite_sent_at: nowIso,
            reminded_48_at: null,
            reminded_24_at: null,
            created_at: nowIso,
          });
          await enqueue(trx, now, 'group.mail', { invitationId: id, kind: 'invite' }, groupMailJob(gift.id, id, 'invite'));
        }
        return true;
      }).catch(async (err: unknown) => {
        await takenMove?.();
        throw err;
      });
      if (outcome) wakeJobs?.();
      const { group, invitations, contributions } = await stateOf(db, (await gifts.findGift(db, gift.id)) ?? gift, plan, limit);
      const contributed = new Set(contributions.map((c) => c.invitation_id));
      return {
        success: true as const,
        invitations: invitations.filter((i) => emails.includes(i.email)).map((i) => ({ id: i.id, email: i.email, state: invitationState(i, contributed) })),
        group,
      };
    },

    async listInvitations(sender: Sender, giftId: string) {
      const { gift, plan, limit } = await ownGift(sender, giftId);
      const { group, invitations, contributions } = await stateOf(db, gift, plan, limit);
      const contributed = new Set(contributions.map((c) => c.invitation_id));
      return {
        success: true as const,
        invitations: invitations.map((i) => ({
          id: i.id,
          email: i.email,
          state: invitationState(i, contributed),
          viaSharedLink: i.via_shared_link === 1,
          createdAt: i.created_at,
        })),
        group,
      };
    },

    async listContributions(sender: Sender, giftId: string) {
      const { gift, plan, limit } = await ownGift(sender, giftId);
      return contributionsView(gift, plan, limit);
    },

    async reorder(sender: Sender, giftId: string, id: string, position: number) {
      const { gift, plan, limit } = await ownGift(sender, giftId);
      const now = clock.now();
      const dropped = await db.transaction().execute(async (trx) => {
        const [locked] = await gifts.lockGifts(trx, [gift.id]);
        const c = await repo.findContribution(trx, id);
        if (!locked || !c || c.gift_id !== gift.id) throw contributionNotFound();
        if (locked.first_opened_at) throw openedLocked();
        const count = await repo.countContributions(trx, gift.id);
        if (position > count) throw new AppError(400, 'position_invalid', groupTexts.positionInvalid);
        await repo.moveContribution(trx, c, position, now.toISOString());
        return refreshCombined(trx, locked, now);
      });
      await dropFiles([dropped]);
      wakeJobs?.();
      return contributionsView(gift, plan, limit);
    },

    async remove(sender: Sender, giftId: string, id: string) {
      const { gift } = await ownGift(sender, giftId);
      const now = clock.now();
      const { c, dropped } = await db.transaction().execute(async (trx) => {
        const [locked] = await gifts.lockGifts(trx, [gift.id]);
        const c = await repo.findContribution(trx, id);
        if (!locked || !c || c.gift_id !== gift.id) throw contributionNotFound();
        if (locked.first_opened_at) throw openedLocked();
        await repo.deleteContribution(trx, c);
        return { c, dropped: await refreshCombined(trx, locked, now) };
      });
      await dropFiles([...filesOf(c), dropped]);
      wakeJobs?.();
    },

    /**
     * Takes an invitee's place back (issue 37): the invitation goes, so its link stops at once, and with it their
     * contribution (files included) unless the recipient already opened the gift.
     */
    async removeInvitation(sender: Sender, giftId: string, invitationId: string) {
      const { gift, plan, limit } = await ownGift(sender, giftId);
      const now = clock.now();
      const { c, dropped } = await db.transaction().execute(async (trx) => {
        const [locked] = await gifts.lockGifts(trx, [gift.id]);
        const invitation = await repo.findInvitation(trx, invitationId);
        if (!locked || !invitation || invitation.gift_id !== gift.id) throw new AppError(404, 'invitation_not_found', groupTexts.invitationNotFound);
        if (locked.first_opened_at) throw openedLocked();
        const c = await repo.findContributionOfInvitation(trx, invitation.id);
        if (c) await repo.deleteContribution(trx, c);
        await repo.deleteInvitation(trx, invitation.id);
        return { c, dropped: c ? await refreshCombined(trx, locked, now) : null };
      });
      await dropFiles([...filesOf(c), dropped]);
      wakeJobs?.();
      const { group } = await stateOf(db, gift, plan, limit);
      return { success: true as const, group };
    },

    /** A new shared link (issue 37): the old one stops at once; per-person links are unchanged. */
    async rotateSharedLink(sender: Sender, giftId: string) {
      const { gift, plan, limit } = await ownGift(sender, giftId);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        const [locked] = await gifts.lockGifts(trx, [gift.id]);
        if (!locked) throw giftNotFound();
        await ensureGroup(trx, locked, plan, now);
        const nonce = randomHex(16);
        await repo.setInviteLink(trx, gift.id, nonce, links.hash(links.shared(gift.id, nonce)), now.toISOString());
      });
      const { group } = await stateOf(db, gift, plan, limit);
      return { success: true as const, group };
    },

    async close(sender: Sender, giftId: string) {
      const { gift, plan, limit } = await ownGift(sender, giftId);
      const now = clock.now();
      const dropped = await db.transaction().execute(async (trx) => {
        const [locked] = await gifts.lockGifts(trx, [gift.id]);
        if (!locked) throw giftNotFound();
        await ensureGroup(trx, locked, plan, now);
        return (await closeContributions(trx, locked, now)).dropped;
      });
      await dropFiles([dropped]);
      wakeJobs?.();
      const { group } = await stateOf(db, gift, plan, limit);
      return { success: true as const, group };
    },

    // The contributor ----------------------------------------------------------------------------------------------

    async page(token: string): Promise<ContributionPageResponse> {
      const r = await resolve(token);
      const plan = planOf(r.gift);
      const sender = await findSenderById(db, r.gift.sender_id);
      const group = r.group;
      const mine = r.kind === 'personal' ? await repo.findContributionOfInvitation(db, r.invitation.id) : undefined;
      return {
        success: true,
        recipientName: r.gift.recipient_name,
        organizerName: senderNameOf(sender),
        occasion: r.gift.occasion,
        deadline: group?.deadline ?? null,
        open: groupIsOpen(group, r.gift, clock.now()),
        shared: r.kind === 'shared',
        email: r.kind === 'personal' ? r.invitation.email : null,
        maxFileBytes: plan.maxFileBytes,
        planName: plan.name,
        mine: mine && r.kind === 'personal' ? ownView(mine, r.invitation) : null,
      };
    },

    /** The shared link: a code to the address the visitor gives (any address: the link is the organizer's invitation). */
    async sendCode(token: string, email: string, client: string) {
      const r = await resolve(token);
      if (r.kind !== 'shared') throw new AppError(400, 'not_shared_link', groupTexts.notSharedLink);
      if (!groupIsOpen(r.group, r.gift, clock.now())) throw closed();
      // The organizer's address is answered as any other (issue 37: the answer must not say whose it is); no code
      // is mailed to it, and its verify is refused.
      const organizer = await isOrganizer(r.gift, email);
      const { resendAfter } = await codes.send('contributor', email, client, RECIPIENT_RESEND_COOLDOWN_S, { deliver: !organizer });
      return { success: true as const, resendAfter };
    },

    /** The shared link: the code proves the address; the visitor continues with their own per-person link. */
    async verify(token: string, email: string, code: string) {
      const r = await resolve(token);
      if (r.kind !== 'shared') throw new AppError(400, 'not_shared_link', groupTexts.notSharedLink);
      const plan = planOf(r.gift);
      const limit = groupContributorLimit(plan.id);
      const now = clock.now();
      if (!groupIsOpen(r.group, r.gift, now)) throw closed();
      const codeId = await codes.check('contributor', email, code);
      // Only after the code: a wrong code for the organizer's address is answered as any other's.
      await refuseOrganizer(r.gift, email);
      const invitationId = await db.transaction().execute(async (trx) => {
        const [gift] = await gifts.lockGifts(trx, [r.gift.id]);
        const group = await repo.lockGroup(trx, r.gift.id);
        if (!gift || !groupIsOpen(group, gift, now)) throw closed();
        await codes.consume(trx, codeId);
        const known = await repo.findInvitationByEmail(trx, gift.id, email);
        if (known) return known.id;
        if ((await repo.countInvitations(trx, gift.id)) >= limit) throw tooMany(plan, limit);
        const id = randomHex(16);
        await repo.insertInvitation(trx, {
          id,
          gift_id: gift.id,
          email,
          token_hash: links.hash(links.personal(id)),
          via_shared_link: 1,
          invite_sent_at: null,
          reminded_48_at: null,
          reminded_24_at: null,
          created_at: now.toISOString(),
        });
        return id;
      });
      return { success: true as const, token: links.personal(invitationId) };
    },

    async uploadUrl(token: string, req: ContributionUploadUrlRequest) {
      const r = await personal(token);
      const { uploadUrl, filePath } = await deps.uploads.createIntent(r.gift, req, {
        dir: `gifts/${r.gift.id}/contributions/${r.invitation.id}`,
        invitationId: r.invitation.id,
      });
      return { success: true as const, uploadUrl, filePath };
    },

    async confirm(token: string, req: ContributionConfirmRequest) {
      const r = await personal(token);
      const intent = await uploads.findIntentByPath(db, r.gift.id, req.filePath);
      if (!intent || intent.invitation_id !== r.invitation.id) throw new AppError(400, 'upload_not_found', texts.sender.confirmUploadFailed);
      const admitted = await deps.uploads.admit(intent, planOf(r.gift), req.messageType);
      let result;
      try {
        result = await store(
          r,
          {
            name: req.name,
            message_type: req.messageType,
            file_path: admitted.key,
            poster_path: null,
            mime: admitted.format.mime,
            size: admitted.size,
            text: null,
            state: renders ? 'processing' : 'ready',
            error: null,
          },
          req.notifyWhenOpened,
          async (trx, row) => {
            if (await deps.uploads.changedSinceAdmitted(intent, admitted)) return 'changed';
            await uploads.markIntentConfirmed(trx, intent.id);
            if (renders) {
              await enqueue(trx, clock.now(), 'contribution.render', { contributionId: row.id, key: admitted.key }, renderJob(r.gift.id, admitted.key, r.gift.sender_id));
            }
          },
        );
      } catch (err) {
        if (err instanceof ChangedDuringStore) throw await admitted.reject(new AppError(409, 'upload_changed', texts.sender.uploadChanged));
        throw err;
      }
      if (result.outcome !== 'stored' || !result.row) throw await admitted.reject(closed());
      wakeJobs?.();
      await dropFiles(filesOf(result.replaced).filter((f) => f !== admitted.key));
      return { success: true as const, mine: ownView(result.row, withNotify(r.invitation, req.notifyWhenOpened)) };
    },

    async saveText(token: string, req: ContributionTextRequest) {
      const r = await personal(token);
      const result = await store(
        r,
        { name: req.name, message_type: 'text', file_path: null, poster_path: null, mime: null, size: null, text: req.text, state: 'ready', error: null },
        req.notifyWhenOpened,
      );
      if (result.outcome !== 'stored' || !result.row) throw closed();
      await dropFiles(filesOf(result.replaced));
      return { success: true as const, mine: ownView(result.row, withNotify(r.invitation, req.notifyWhenOpened)) };
    },

    async deleteOwn(token: string) {
      const r = await personal(token);
      const now = clock.now();
      const c = await db.transaction().execute(async (trx) => {
        const [gift] = await gifts.lockGifts(trx, [r.gift.id]);
        const group = await repo.lockGroup(trx, r.gift.id);
        if (!gift || !groupIsOpen(group, gift, now)) throw closed();
        const c = await repo.findContributionOfInvitation(trx, r.invitation.id);
        if (!c) throw contributionNotFound();
        await repo.deleteContribution(trx, c);
        return c;
      });
      await dropFiles(filesOf(c));
    },

    // The recipient ------------------------------------------------------------------------------------------------

    revealed: (gift: Gift) => revealedContributions({ db, media, clock }, gift),
  };
}

class ChangedDuringStore extends Error {}

export type GroupGiftsService = ReturnType<typeof createGroupGiftsService>;
