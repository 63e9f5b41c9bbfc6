import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '../../adapters/clock.ts';
import type { Mailer } from '../../adapters/mail.ts';
import { type CombinedPart, type MediaProcessor, MediaTooCostlyError, UnreadableMediaError } from '../../adapters/media-processor.ts';
import type { MediaStorage } from '../../adapters/media-storage.ts';
import type { Scratch } from '../../adapters/scratch.ts';
import type { Db } from '../../db/database.ts';
import { groupMailJob, groupNoticeJob } from '../../jobs/keys.ts';
import { jobMessageId } from '../../jobs/message-id.ts';
import { enqueue } from '../../jobs/queue.ts';
import { type JobHandlers, PermanentJobError } from '../../jobs/runner.ts';
import { findGift } from '../gifts/gifts.repository.ts';
import { senderNameOf } from '../messages/messages.service.ts';
import { findSenderById } from '../sender-auth/sender-auth.repository.ts';
import { deadlineMovedEmail, emptyWarningEmail, invitationEmail, openedEmail, reminderEmail, summaryEmail } from './group-gifts.content.ts';
import * as repo from './group-gifts.repository.ts';
import { closeContributions, createGroupLinks, groupIsOpen } from './group-gifts.service.ts';
import { contributePath } from '@giftlens/contract/group-gifts';

export interface GroupJobDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  media: MediaStorage;
  processor: MediaProcessor | null;
  scratch: Scratch;
  publicOrigin: string;
  sessionSecret: string;
}

/** Each combined render's scratch folder starts so (inside this process's own scratch folder). */
export const GROUP_RENDER_SCRATCH_PREFIX = 'giftlens-group-';

/** Where attempt `attempt` of render job `jobId` writes a group's combined MP4 of `version`. */
export const combinedKey = (giftId: string, version: number, jobId: string, attempt: number) =>
  `gifts/${giftId}/group/combined-${version}-${jobId}-${attempt}.mp4`;

/**
 * Group gifts' jobs: the deadline's close and reminders, each invitee's mail, the organizer's notices, and the
 * combined MP4. Each re-reads the group and does nothing when what it was queued for no longer holds (a moved
 * deadline, a closed group, a contribution that came in).
 */
/** How often a running combined render looks whether a newer version was asked for. */
const SUPERSEDED_CHECK_MS = 1000;

export function groupGiftJobs(deps: GroupJobDeps): Pick<JobHandlers, 'group.close' | 'group.remind' | 'group.mail' | 'group.notice' | 'group.render'> {
  const { db, clock, mailer, media, processor, scratch, publicOrigin } = deps;
  const links = createGroupLinks(deps.sessionSecret);
  const organizerPage = (giftId: string) => `${publicOrigin}/share/${giftId}#group`;

  async function giftAndGroup(giftId: string) {
    const [gift, group] = await Promise.all([findGift(db, giftId), repo.findGroup(db, giftId)]);
    return gift && group ? { gift, group } : null;
  }

  return {
    'group.close': {
      async run({ giftId, deadline }) {
        const found = await giftAndGroup(giftId);
        if (!found || found.group.deadline !== deadline || found.group.closed_at !== null) return;
        const dropped = await db.transaction().execute(async (trx) => (await closeContributions(trx, found.gift, clock.now())).dropped);
        if (dropped) await media.delete(dropped).catch(() => enqueue(db, clock.now(), 'media.delete', { keys: [dropped] }));
      },
    },

    'group.remind': {
      async run({ giftId, deadline, hours }) {
        const found = await giftAndGroup(giftId);
        if (!found || found.group.deadline !== deadline) return;
        const now = clock.now();
        if (!groupIsOpen(found.group, found.gift, now)) return;
        await db.transaction().execute(async (trx) => {
          const column = hours === 48 ? 'reminded_48_at' : 'reminded_24_at';
          for (const id of await repo.claimReminders(trx, giftId, column, now.toISOString())) {
            await enqueue(trx, now, 'group.mail', { invitationId: id, kind: 'remind', hours }, groupMailJob(giftId, id, `remind${hours}`));
          }
          // Nobody has contributed at the first reminder: the organizer hears it while there is time to act.
          if ((await repo.countContributions(trx, giftId)) === 0 && (await repo.countInvitations(trx, giftId)) > 0 && (await repo.markGroupMail(trx, giftId, 'empty_warned_at', now.toISOString()))) {
            await enqueue(trx, now, 'group.notice', { giftId, kind: 'empty' }, groupNoticeJob(giftId, 'empty'));
          }
        });
      },
    },

    'group.mail': {
      async run({ invitationId, kind, hours }, ctx) {
        const invitation = await repo.findInvitation(db, invitationId);
        const found = invitation ? await giftAndGroup(invitation.gift_id) : null;
        if (!invitation || !found) return;
        const { gift, group } = found;
        if (kind !== 'opened') {
          // An invitation or reminder is pointless once contributions closed, and a reminder once they contributed.
          if (!groupIsOpen(group, gift, clock.now())) return;
          if ((kind === 'remind' || kind === 'deadline') && (await repo.findContributionOfInvitation(db, invitationId))) return;
        }
        const organizerName = senderNameOf(await findSenderById(db, gift.sender_id));
        const facts = {
          organizerName,
          recipientName: gift.recipient_name,
          occasion: gift.occasion,
          deadline: group.deadline,
          url: `${publicOrigin}${contributePath(links.personal(invitationId))}`,
        };
        const content =
          kind === 'invite'
            ? invitationEmail(facts)
            : kind === 'remind'
              ? reminderEmail({ ...facts, hours: hours ?? 24 })
              : kind === 'deadline'
                ? deadlineMovedEmail(facts)
                : openedEmail(facts);
        await mailer.send({ to: invitation.email, ...content, messageId: jobMessageId(`group-${kind}`, ctx.id, publicOrigin) });
      },
    },

    'group.notice': {
      async run({ giftId, kind }, ctx) {
        const found = await giftAndGroup(giftId);
        const sender = found ? await findSenderById(db, found.gift.sender_id) : undefined;
        if (!found || !sender) return;
        const [added, invited] = await Promise.all([repo.countContributions(db, giftId), repo.countInvitations(db, giftId)]);
        const base = { senderFirstName: sender.first_name, recipientName: found.gift.recipient_name, url: organizerPage(giftId) };
        if (kind === 'empty' && added > 0) return;
        const content =
          kind === 'summary' ? summaryEmail({ ...base, added, invited }) : emptyWarningEmail({ ...base, invited, deadline: found.group.deadline });
        await mailer.send({ to: sender.email, ...content, messageId: jobMessageId(`group-${kind}`, ctx.id, publicOrigin) });
      },
    },

    'group.render': {
      async run({ giftId, version }, job) {
        const found = await giftAndGroup(giftId);
        if (!found || found.group.combined_version !== version) return;
        if (!processor) throw new PermanentJobError('ffmpeg is not installed on this worker');
        const { gift } = found;
        const rows = (await repo.listContributions(db, giftId)).filter((c) => c.state === 'ready');
        const organizer = senderNameOf(await findSenderById(db, gift.sender_id));
        const work = await scratch.make(GROUP_RENDER_SCRATCH_PREFIX);
        const out = combinedKey(giftId, version, job.id, job.attempt);
        try {
          const local = async (key: string, name: string) => {
            const file = path.join(work, `${name}${path.posix.extname(key)}`);
            await pipeline(await media.openRead(key), createWriteStream(file), { signal: job.signal });
            return file;
          };
          const parts: CombinedPart[] = [];
          const first = { title: `From ${organizer}` };
          if (gift.message_type === 'text' || !gift.message_path) parts.push({ ...first, kind: 'text', text: gift.message_text ?? '' });
          else parts.push({ ...first, kind: gift.message_type === 'audio' ? 'audio' : 'video', file: await local(gift.message_path, 'organizer') });
          for (const [i, c] of rows.entries()) {
            const title = `From ${c.name}`;
            if (c.message_type === 'text' || !c.file_path) parts.push({ title, kind: 'text', text: c.text ?? '' });
            else parts.push({ title, kind: c.message_type, file: await local(c.file_path, `part-${i + 1}`) });
          }
          // A newer version asked for while this one renders (a reorder): ffmpeg stops at once and the lane is free for
          // the next job; the newer version's own job renders the latest order (issue 37).
          const superseded = new AbortController();
          const stop = () => superseded.abort();
          job.signal.addEventListener('abort', stop);
          const watch = setInterval(() => {
            repo
              .findGroup(db, giftId)
              .then((g) => {
                if (!g || g.combined_version !== version) superseded.abort();
              })
              .catch(() => undefined);
          }, SUPERSEDED_CHECK_MS);
          watch.unref();
          let result;
          try {
            result = await processor.renderCombined(parts, path.join(work, 'combined.mp4'), superseded.signal);
          } catch (err) {
            if (superseded.signal.aborted && !job.signal.aborted) return;
            if (err instanceof UnreadableMediaError || err instanceof MediaTooCostlyError) throw new PermanentJobError(err.message);
            throw err;
          } finally {
            clearInterval(watch);
            job.signal.removeEventListener('abort', stop);
          }
          await media.putFile(out, result.file);
          const now = clock.now().toISOString();
          const stored = await repo.finishCombined(db, giftId, version, out, now).catch(async (err: unknown) => {
            await media.delete(out).catch(() => undefined);
            throw err;
          });
          // A newer version was asked for meanwhile: this one is nobody's.
          if (!stored) return void (await media.delete(out));
          if (stored.replaced && stored.replaced !== out) await media.delete(stored.replaced).catch(() => enqueue(db, clock.now(), 'media.delete', { keys: [stored.replaced!] }));
        } finally {
          await scratch.release(work);
        }
      },
      async onDead({ giftId, version }, error) {
        await repo.failCombined(db, giftId, version, error.slice(0, 500), clock.now().toISOString());
      },
    },
  };
}
