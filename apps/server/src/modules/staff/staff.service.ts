import { SIGNED_URL_TTL_MS } from '@giftlens/contract/constants';
import {
  type StaffExtendRequest,
  type StaffGiftResponse,
  type StaffGiftRow,
  type StaffGiftState,
  type StaffJobsResponse,
  type StaffMembersResponse,
  staffTexts,
  type TimelineEvent,
} from '@giftlens/contract/staff';
import type { Clock } from '../../adapters/clock.ts';
import type { MediaStorage } from '../../adapters/media-storage.ts';
import type { PaymentProviders } from '../../adapters/payments.ts';
import type { Db, Executor } from '../../db/database.ts';
import * as jobs from '../../jobs/jobs.repository.ts';
import { enqueue } from '../../jobs/queue.ts';
import { AppError, giftNotFound } from '../../lib/errors.ts';
import { deleteSubjectSessions } from '../auth/auth.repository.ts';
import { resendDelivery } from '../deliveries/deliveries.service.ts';
import * as deliveries from '../deliveries/deliveries.repository.ts';
import { planOf, scansAllowed, validUntil, withdrawn } from '../gifts/gift-plan.ts';
import * as group from '../group-gifts/group-gifts.repository.ts';
import * as gifts from '../gifts/gifts.repository.ts';
import type { Gift } from '../gifts/gifts.table.ts';
import * as merchants from '../merchants/merchants.repository.ts';
import * as payments from '../payments/payments.repository.ts';
import { findReactionForGift } from '../reactions/reactions.repository.ts';
import { scanEventsOf } from '../scans/scans.repository.ts';
import { findSenderByEmail, findSenderById } from '../sender-auth/sender-auth.repository.ts';
import * as repo from './staff.repository.ts';
import type { StaffMember } from './staff-auth.service.ts';

export interface StaffDeps {
  db: Db;
  media: MediaStorage;
  clock: Clock;
  payments: PaymentProviders;
  wakeJobs?: () => void;
  log: (line: string) => void;
  /** STAFF_EMAILS, lowercased: the team the console lists. */
  staffEmails?: readonly string[];
}

const DAY_MS = 24 * 60 * 60 * 1000;
const SEARCH_LIMIT = 50;
const TIMELINE_ROWS = 500;

const giftIdPattern = /^[0-9a-f]{32}$/;

/** A gift's state as support sees it, most telling first. */
function stateOf(gift: Gift, now: number): StaffGiftState {
  if (gift.taken_down_at) return 'taken_down';
  if (gift.refunded_at) return 'refunded';
  if (gift.status === 'draft') return 'draft';
  if (gift.status !== 'active') return 'awaiting_payment';
  const plan = planOf(gift);
  const until = validUntil(gift, plan);
  const allowed = scansAllowed(gift, plan);
  if ((until !== null && until <= now) || (allowed !== null && gift.scans_used >= allowed)) return 'expired';
  return gift.first_opened_at ? 'opened' : 'active';
}

/** An audit entry's details (JSON) as a line: "days 7, scans 5". */
function detailsText(details: string | null): string {
  if (!details) return '';
  try {
    const parts = Object.entries(JSON.parse(details) as Record<string, unknown>).filter(([, v]) => v !== null && v !== 0 && v !== '');
    return parts.length ? ` (${parts.map(([k, v]) => `${k} ${String(v)}`).join(', ')})` : '';
  } catch {
    return '';
  }
}

const short = (s: string | null, max = 300) => (s && s.length > max ? `${s.slice(0, max)}…` : s);

/** What a second-factor reset did. */
export interface SecondFactorReset {
  /** The member had an authenticator (set up or being set up), now forgotten. */
  secretForgotten: boolean;
  /** Their staff and staff_enrol sessions ended. */
  sessionsEnded: number;
}

/**
 * Forgets `member`'s authenticator and ends their staff and staff_enrol sessions, in one transaction with the audit
 * entry (`reset_second_factor`, by `by`, for `reason`) and, when something was reset, the job that e-mails them. The
 * console's reset (a colleague's) and the operator's command (`npm run staff -- reset-totp`, a team of one) both
 * reset here; neither checks who may: their callers do.
 */
export async function resetSecondFactor(db: Db, now: Date, r: { by: string; member: string; reason: string }): Promise<SecondFactorReset> {
  return db.transaction().execute(async (trx) => {
    const secretForgotten = await repo.forgetSecret(trx, r.member);
    const sessionsEnded = (await deleteSubjectSessions(trx, 'staff', r.member)) + (await deleteSubjectSessions(trx, 'staff_enrol', r.member));
    await repo.audit(trx, {
      staffEmail: r.by,
      action: 'reset_second_factor',
      giftId: null,
      reason: r.reason,
      details: { member: r.member, secretForgotten, sessionsEnded },
      now: now.toISOString(),
    });
    // The member hears of it when something of theirs was reset (a member who never started enrolling had nothing).
    if (secretForgotten || sessionsEnded > 0) await enqueue(trx, now, 'staff.member_notice', { email: r.member, by: r.by, kind: 'totp_reset' });
    return { secretForgotten, sessionsEnded };
  });
}

/** The staff console (decision 051): search, a gift's whole story, and the audited actions. */
export function createStaffService({ db, media, clock, payments: providers, wakeJobs, log, staffEmails = [] }: StaffDeps) {
  const team = [...new Set(staffEmails)].sort();
  async function row(gift: Gift): Promise<StaffGiftRow> {
    const sender = await findSenderById(db, gift.sender_id);
    return {
      id: gift.id,
      senderEmail: sender?.email ?? '',
      recipientEmail: gift.recipient_email,
      plan: gift.plan_id,
      state: stateOf(gift, clock.now().getTime()),
      createdAt: gift.created_at,
    };
  }

  async function found(giftId: string): Promise<Gift> {
    const gift = giftIdPattern.test(giftId) ? await gifts.findGift(db, giftId) : undefined;
    if (!gift) throw giftNotFound();
    return gift;
  }

  async function timelineOf(gift: Gift): Promise<TimelineEvent[]> {
    const [orders, dels, scans, reaction, jobRows, audit] = await Promise.all([
      payments.ordersOfGift(db, gift.id),
      deliveries.listForGift(db, gift.id),
      scanEventsOf(db, gift.id, TIMELINE_ROWS),
      findReactionForGift(db, gift.id),
      jobs.jobsOfGift(db, gift.id, TIMELINE_ROWS),
      repo.auditEntries(db, gift.id, TIMELINE_ROWS),
    ]);
    const events: TimelineEvent[] = [{ at: gift.created_at, kind: 'created', summary: `Gift created (${planOf(gift).name}, ${gift.occasion})` }];
    for (const j of jobRows) {
      if (j.kind !== 'message.render') continue;
      events.push({ at: j.created_at, kind: 'message_uploaded', summary: 'Message uploaded' });
      if (j.status === 'done' && j.finished_at) events.push({ at: j.finished_at, kind: 'message_rendered', summary: 'Message converted so every phone plays it' });
      if (j.status === 'dead' && j.finished_at) events.push({ at: j.finished_at, kind: 'message_failed', summary: `Message could not be converted: ${short(j.last_error)}` });
    }
    for (const o of orders) {
      if (o.paid_at) events.push({ at: o.paid_at, kind: 'paid', summary: `Paid ${(o.amount_minor / 100).toFixed(2)} ${o.currency} through ${o.provider} (order ${o.id}, payment ${o.payment_id ?? '—'})` });
      if (o.refunded_at) events.push({ at: o.refunded_at, kind: 'refund', summary: `Refunded in full through ${o.provider} (${o.refund_id ?? 'no id'})` });
    }
    for (const d of dels) {
      events.push({ at: d.created_at, kind: 'delivery', summary: `Delivery by ${d.contact_type} to ${d.recipient_contact} scheduled for ${d.scheduled_at}` });
      if (d.sent_at) events.push({ at: d.sent_at, kind: 'delivery', summary: `Delivered by ${d.contact_type} to ${d.recipient_contact}` });
      if (d.last_error) {
        const what = d.status === 'failed' ? 'failed' : `attempt ${d.attempts} failed`;
        events.push({ at: d.updated_at, kind: 'delivery', summary: `Delivery to ${d.recipient_contact} ${what}: ${short(d.last_error)}` });
      }
    }
    for (const s of scans) {
      const how = s.flow === 'code' ? 'backup code' : s.flow === 'live' ? 'live camera' : 'photo';
      const outcome = s.outcome === 'revealed' ? 'revealed the message' : s.outcome === 'no_match' ? 'did not match' : 'refused: no scans left';
      events.push({ at: s.created_at, kind: 'scan', summary: `Scan by ${how} ${outcome}${s.score !== null ? ` (score ${s.score.toFixed(2)})` : ''}` });
    }
    if (gift.first_opened_at) events.push({ at: gift.first_opened_at, kind: 'opened', summary: 'First opened by the recipient' });
    if (reaction) events.push({ at: reaction.created_at, kind: 'reaction', summary: `Reaction recorded (${reaction.file_state ?? 'no file'})` });
    // A merchant's gift (decision 058): each webhook and every attempt's answer.
    for (const { webhook, attempts } of await merchants.webhooksOfGift(db, gift.id, TIMELINE_ROWS)) {
      events.push({ at: webhook.created_at, kind: 'webhook', summary: `Webhook ${webhook.type} queued (event ${webhook.id})` });
      for (const a of attempts) {
        const answer = a.status_code !== null ? `answered ${a.status_code}${a.answer ? `: ${short(a.answer, 120)}` : ''}` : `failed: ${short(a.error, 200)}`;
        events.push({ at: a.created_at, kind: 'webhook', summary: `Webhook ${webhook.type} attempt ${a.attempt} ${answer}` });
      }
    }
    for (const a of audit) events.push({ at: a.created_at, kind: 'staff', summary: `Staff: ${a.action.replace(/_/g, ' ')}${detailsText(a.details)}`, actor: a.staff_email, reason: a.reason });
    // A group gift's invitations, contributions and close (decision 050); their content only through "open message".
    const [grp, invitations, contributions] = await Promise.all([group.findGroup(db, gift.id), group.listInvitations(db, gift.id), group.listContributions(db, gift.id)]);
    if (grp) events.push({ at: grp.created_at, kind: 'group', summary: `Group started, contributions until ${grp.deadline}` });
    for (const i of invitations) events.push({ at: i.created_at, kind: 'group', summary: `${i.email} ${i.via_shared_link ? 'joined through the shared link' : 'invited'}` });
    for (const c of contributions) events.push({ at: c.created_at, kind: 'group', summary: `Contribution from ${c.name} (${c.message_type}, ${c.state})` });
    if (grp?.closed_at) events.push({ at: grp.closed_at, kind: 'group', summary: 'Contributions closed' });
    return events.sort((a, b) => a.at.localeCompare(b.at));
  }

  async function detail(gift: Gift): Promise<StaffGiftResponse> {
    const plan = planOf(gift);
    const [base, sender, orders, dels, timeline] = await Promise.all([
      row(gift),
      findSenderById(db, gift.sender_id),
      payments.ordersOfGift(db, gift.id),
      deliveries.listForGift(db, gift.id),
      timelineOf(gift),
    ]);
    const until = validUntil(gift, plan);
    return {
      success: true,
      gift: {
        ...base,
        senderName: sender?.first_name ?? null,
        recipientName: gift.recipient_name,
        occasion: gift.occasion,
        planName: plan.name,
        messageType: gift.message_type,
        messageState: gift.message_state,
        paidAt: gift.paid_at,
        validUntil: until === null ? null : new Date(until).toISOString(),
        scansUsed: gift.scans_used,
        scansAllowed: scansAllowed(gift, plan),
        firstOpenedAt: gift.first_opened_at,
        orders: orders.map((o) => ({ id: o.id, provider: o.provider, status: o.refunded_at ? 'refunded' : o.status, amountMinor: o.amount_minor, currency: o.currency, paymentId: o.payment_id, paidAt: o.paid_at })),
        deliveries: dels.map((d) => ({ id: d.id, channel: d.contact_type, contact: d.recipient_contact, status: d.status, scheduledAt: d.scheduled_at, sentAt: d.sent_at, error: d.last_error })),
      },
      timeline,
    };
  }

  /** Everyone in STAFF_EMAILS, and whether their authenticator is enrolled. */
  async function members(who: StaffMember): Promise<StaffMembersResponse> {
    const rows = new Map((await repo.membersIn(db, team)).map((m) => [m.email, m.totp_confirmed_at]));
    return {
      success: true,
      members: team.map((email) => ({ email, enrolled: Boolean(rows.get(email)), enrolledAt: rows.get(email) ?? null, you: email === who.email })),
    };
  }

  /** Runs an action and its audit entry in one transaction: no effect without its entry, no entry without its effect. */
  async function audited<T>(who: StaffMember, giftId: string | null, action: string, reason: string, details: Record<string, unknown> | null, effect: (trx: Executor) => Promise<T>): Promise<T> {
    return db.transaction().execute(async (trx) => {
      const result = await effect(trx);
      await repo.audit(trx, { staffEmail: who.email, action, giftId, reason, details, now: clock.now().toISOString() });
      return result;
    });
  }

  return {
    async search(q: string): Promise<StaffGiftRow[]> {
      const query = q.trim().toLowerCase();
      if (query.length < 3) throw new AppError(400, 'query_too_short', staffTexts.queryTooShort);
      let found: Gift[];
      if (giftIdPattern.test(query)) {
        // Gift ids and our order ids look alike (32 hex digits): either.
        found = await gifts.giftsByIds(db, [query, ...(await payments.giftIdsByOrderRef(db, query))]);
      } else if (query.includes('@')) {
        const sender = await findSenderByEmail(db, query);
        const [sent, received] = await Promise.all([
          sender ? gifts.listSenderGifts(db, sender.id) : Promise.resolve([]),
          gifts.giftsForRecipientEmail(db, query, SEARCH_LIMIT),
        ]);
        const byId = new Map([...sent, ...received].map((g) => [g.id, g]));
        found = [...byId.values()].sort((a, b) => b.created_at.localeCompare(a.created_at));
      } else {
        // Order and payment ids keep their case.
        found = await gifts.giftsByIds(db, await payments.giftIdsByOrderRef(db, q.trim()));
      }
      return Promise.all(found.slice(0, SEARCH_LIMIT).map(row));
    },

    gift: async (giftId: string) => detail(await found(giftId)),

    /** The message's content for this staff member, audited with the reason. */
    async openMessage(who: StaffMember, giftId: string, reason: string) {
      const gift = await found(giftId);
      await repo.audit(db, { staffEmail: who.email, action: 'open_message', giftId, reason, now: clock.now().toISOString() });
      const url = gift.message_type && gift.message_type !== 'text' && gift.message_path ? media.signedUrl(gift.message_path, SIGNED_URL_TTL_MS, clock.now()) : null;
      const signed = (key: string | null) => (key ? media.signedUrl(key, SIGNED_URL_TTL_MS, clock.now()) : null);
      const contributions = (await group.listContributions(db, gift.id)).map((c) => ({
        from: c.name,
        messageType: c.message_type,
        messageUrl: c.message_type === 'text' ? null : signed(c.file_path),
        text: c.message_type === 'text' ? c.text : null,
      }));
      return { success: true as const, messageType: gift.message_type, messageUrl: url, text: gift.message_type === 'text' ? gift.message_text : null, contributions };
    },

    async extend(who: StaffMember, giftId: string, req: StaffExtendRequest) {
      const gift = await found(giftId);
      const plan = planOf(gift);
      if (!req.days && !req.scans) throw new AppError(400, 'extend_nothing', staffTexts.extendNothing);
      if (withdrawn(gift)) throw new AppError(409, 'gift_withdrawn', staffTexts.giftUnavailable);
      if (req.days && plan.validityMs === null) throw new AppError(400, 'extend_no_days', staffTexts.extendNoDays);
      if (req.scans && plan.scans === null) throw new AppError(400, 'extend_no_scans', staffTexts.extendNoScans);
      const now = clock.now();
      // Days count from the later of the current end and now: an ended plan gets that many days from today.
      const until = validUntil(gift, plan);
      const newEnd = req.days ? new Date(Math.max(until ?? now.getTime(), now.getTime()) + req.days * DAY_MS).toISOString() : undefined;
      await audited(who, giftId, 'extend', req.reason, { days: req.days ?? 0, scans: req.scans ?? 0, validUntil: newEnd ?? null }, (trx) =>
        gifts.extendGift(trx, giftId, { validUntil: newEnd, extraScans: req.scans }, now.toISOString()),
      );
      return detail(await found(giftId));
    },

    async resend(who: StaffMember, giftId: string, deliveryId: string, reason: string) {
      const gift = await found(giftId);
      const delivery = await deliveries.findDelivery(db, deliveryId);
      if (!delivery || delivery.gift_id !== gift.id) throw new AppError(404, 'delivery_not_found', staffTexts.deliveryNotFound);
      const ok = await audited(who, giftId, 'resend_delivery', reason, { deliveryId, contact: delivery.recipient_contact, was: delivery.status }, async (trx) => {
        if (!(await resendDelivery(trx, delivery, clock.now()))) throw new AppError(409, 'delivery_not_resendable', staffTexts.deliveryNotResendable);
        return true;
      });
      if (ok) wakeJobs?.();
      return detail(await found(giftId));
    },

    /**
     * Refunds the paid order in full (issue 37): first the order and the gift (which no longer opens) are marked
     * refunded with the audit entry, in one transaction; only once the database took that is the provider asked; its
     * refund id and the sender's e-mail follow. A provider's refusal takes the marks back (audited `refund_failed`);
     * the provider's idempotency (Stripe's key; a second Razorpay refund of a fully refunded payment is refused) keeps
     * a retry after a crash from paying twice.
     */
    async refund(who: StaffMember, giftId: string, reason: string) {
      const gift = await found(giftId);
      if (gift.refunded_at) throw new AppError(409, 'already_refunded', staffTexts.alreadyRefunded);
      // The gift's own order (its plan); a top-up of scans (issue 40) is not what this refunds.
      const order = (await payments.ordersOfGift(db, gift.id)).find((o) => o.purpose === 'gift' && o.status === 'paid' && !o.refunded_at);
      if (!order?.payment_id) throw new AppError(409, 'not_paid', staffTexts.notPaid);
      const provider = Object.values(providers).find((p) => p.name === order.provider);
      if (!provider) throw new AppError(502, 'refund_failed', staffTexts.refundFailed);
      // The database takes the change first (the order and the gift marked refunded, audited with the reason): only
      // then is the provider asked, so no money moves for a change the database refused. A refusal takes the marks
      // back and is audited too.
      const marked = clock.now().toISOString();
      const details = { orderId: order.id, provider: order.provider, amountMinor: order.amount_minor, currency: order.currency };
      await audited(who, giftId, 'refund', reason, details, async (trx) => {
        if (!(await payments.markOrderRefunded(trx, order.id, null, marked))) throw new AppError(409, 'already_refunded', staffTexts.alreadyRefunded);
        await gifts.withdrawGift(trx, giftId, 'refunded_at', marked);
      });
      let refundId: string;
      try {
        ({ refundId } = await provider.refund(order.payment_id, order.amount_minor));
      } catch (err) {
        log(`[staff] refund of order ${order.id} through ${order.provider} failed: ${err instanceof Error ? err.message : String(err)}`);
        const now = clock.now().toISOString();
        await audited(who, giftId, 'refund_failed', reason, { ...details, error: (err instanceof Error ? err.message : String(err)).slice(0, 500) }, async (trx) => {
          await payments.unmarkOrderRefunded(trx, order.id, marked, now);
          await gifts.unwithdrawRefund(trx, giftId, marked, now);
        });
        throw new AppError(502, 'refund_failed', staffTexts.refundFailed);
      }
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await payments.setRefundId(trx, order.id, refundId, now.toISOString());
        await enqueue(trx, now, 'staff.notice', { giftId, kind: 'refunded' }, { key: `staff-notice:refunded:${giftId}`, giftId });
      });
      wakeJobs?.();
      return detail(await found(giftId));
    },

    async takedown(who: StaffMember, giftId: string, reason: string) {
      const gift = await found(giftId);
      if (gift.taken_down_at) throw new AppError(409, 'already_taken_down', staffTexts.alreadyTakenDown);
      const now = clock.now();
      await audited(who, giftId, 'take_down', reason, null, async (trx) => {
        if (!(await gifts.withdrawGift(trx, giftId, 'taken_down_at', now.toISOString()))) throw new AppError(409, 'already_taken_down', staffTexts.alreadyTakenDown);
        await enqueue(trx, now, 'staff.notice', { giftId, kind: 'taken_down' }, { key: `staff-notice:taken_down:${giftId}`, giftId });
      });
      wakeJobs?.();
      return detail(await found(giftId));
    },

    /** Lifts a take-down (audited `lift_take_down`): the gift opens again and its sender may change it again. */
    async liftTakedown(who: StaffMember, giftId: string, reason: string) {
      const gift = await found(giftId);
      if (!gift.taken_down_at) throw new AppError(409, 'not_taken_down', staffTexts.notTakenDown);
      const now = clock.now();
      await audited(who, giftId, 'lift_take_down', reason, { takenDownAt: gift.taken_down_at }, async (trx) => {
        if (!(await gifts.liftTakedown(trx, giftId, now.toISOString()))) throw new AppError(409, 'not_taken_down', staffTexts.notTakenDown);
      });
      return detail(await found(giftId));
    },

    async queue(): Promise<StaffJobsResponse> {
      const now = clock.now();
      const [counts, oldest, dead] = await Promise.all([jobs.jobCountsByKind(db), jobs.oldestDueRunAt(db, now.toISOString()), jobs.deadJobs(db, 100)]);
      return {
        success: true,
        counts: counts.map((c) => ({ kind: c.kind, status: c.status, count: Number(c.count) })),
        oldestDueLagMs: oldest ? Math.max(0, now.getTime() - Date.parse(oldest)) : 0,
        dead: dead.map((j) => ({ id: j.id, kind: j.kind, giftId: j.gift_id, lastError: short(j.last_error, 1000), attempts: j.attempts, finishedAt: j.finished_at })),
      };
    },

    async retryJob(who: StaffMember, jobId: string, reason: string) {
      const job = await jobs.findJob(db, jobId);
      if (!job) throw new AppError(404, 'job_not_found', staffTexts.jobNotFound);
      await audited(who, job.gift_id, 'retry_job', reason, { jobId, kind: job.kind, lastError: short(job.last_error) }, async (trx) => {
        if (!(await jobs.retryDeadJob(trx, jobId, clock.now().toISOString()))) throw new AppError(409, 'job_not_dead', staffTexts.jobNotDead);
      });
      wakeJobs?.();
      return { success: true as const };
    },

    members,

    /**
     * A colleague lost their phone: their authenticator is forgotten and their staff sessions (and any enrolment
     * under way) end, audited in the same transaction; they are told by e-mail. Their next sign-in enrols again,
     * which still takes an e-mail code sent to them. Never one's own: a signed-in member has theirs.
     */
    async resetTotp(who: StaffMember, email: string, reason: string) {
      if (!team.includes(email)) throw new AppError(404, 'member_not_found', staffTexts.memberNotFound);
      if (email === who.email) throw new AppError(409, 'own_second_factor', staffTexts.ownSecondFactor);
      await resetSecondFactor(db, clock.now(), { by: who.email, member: email, reason });
      wakeJobs?.();
      log(`staff: ${who.email} reset the second factor of ${email}`);
      return members(who);
    },

    async auditTrail(giftId: string | null) {
      const rows = await repo.auditEntries(db, giftId, 200);
      return {
        success: true as const,
        entries: rows.map((r) => ({ id: r.id, at: r.created_at, staffEmail: r.staff_email, action: r.action, giftId: r.gift_id, reason: r.reason, details: r.details })),
      };
    },
  };
}

export type StaffService = ReturnType<typeof createStaffService>;
