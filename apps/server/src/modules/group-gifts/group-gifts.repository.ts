import type { ContributionState } from '@giftlens/contract/group-gifts';
import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { isPostgres } from '../../db/dialect.ts';
import type { ContributionRow, ContributionsTable, GroupGift, GroupGiftsTable, GroupInvitation, GroupInvitationsTable } from './group-gifts.table.ts';

// The group-gifts module's three tables (decision 041: one owner per table). Every query is scoped by gift id.

export const findGroup = (db: Executor, giftId: string): Promise<GroupGift | undefined> =>
  db.selectFrom('group_gifts').selectAll().where('gift_id', '=', giftId).executeTakeFirst();

/** The group whose shared link has this token hash. */
export const findGroupByTokenHash = (db: Executor, tokenHash: string): Promise<GroupGift | undefined> =>
  db.selectFrom('group_gifts').selectAll().where('invite_token_hash', '=', tokenHash).executeTakeFirst();

/** Creates the group if the gift has none; true when this call made it. */
export async function insertGroup(db: Executor, row: Omit<GroupGiftsTable, 'combined_state' | 'combined_version'>): Promise<boolean> {
  const made = await db.insertInto('group_gifts').values(row).onConflict((oc) => oc.column('gift_id').doNothing()).returning('gift_id').executeTakeFirst();
  return made !== undefined;
}

/** Locks the group row (PostgreSQL) for a change that reads it first: closing, a new deadline, an invitation. */
export async function lockGroup(trx: Executor, giftId: string): Promise<GroupGift | undefined> {
  let q = trx.selectFrom('group_gifts').selectAll().where('gift_id', '=', giftId);
  if (isPostgres(trx)) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function setDeadline(db: Executor, giftId: string, deadline: string, now: string): Promise<void> {
  await db.updateTable('group_gifts').set({ deadline, updated_at: now }).where('gift_id', '=', giftId).where('closed_at', 'is', null).execute();
}

/** Closes contributions; true only for the call that closed them. */
export async function closeGroup(db: Executor, giftId: string, now: string): Promise<boolean> {
  const res = await db
    .updateTable('group_gifts')
    .set({ closed_at: now, updated_at: now })
    .where('gift_id', '=', giftId)
    .where('closed_at', 'is', null)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** Marks a once-only organizer mail as going; true only for the call that marked it. */
export async function markGroupMail(db: Executor, giftId: string, column: 'empty_warned_at' | 'summary_sent_at', now: string): Promise<boolean> {
  const res = await db.updateTable('group_gifts').set({ [column]: now }).where('gift_id', '=', giftId).where(column, 'is', null).executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** What the combined MP4 shows changed: a new version is due (processing), an older render's output is dropped. */
export async function bumpCombined(db: Executor, giftId: string, now: string): Promise<number | null> {
  const row = await db
    .updateTable('group_gifts')
    .set((eb) => ({ combined_version: eb('combined_version', '+', 1), combined_state: 'processing', combined_error: null, updated_at: now }))
    .where('gift_id', '=', giftId)
    .returning('combined_version')
    .executeTakeFirst();
  return row?.combined_version ?? null;
}

/** Stores the combined MP4 of `version` if it is still the newest; answers the path it replaced (or null). */
export async function finishCombined(db: Executor, giftId: string, version: number, path: string, now: string): Promise<{ replaced: string | null } | null> {
  const before = await db.selectFrom('group_gifts').select(['combined_path', 'combined_version']).where('gift_id', '=', giftId).executeTakeFirst();
  if (!before || before.combined_version !== version) return null;
  const res = await db
    .updateTable('group_gifts')
    .set({ combined_path: path, combined_state: 'ready', combined_error: null, updated_at: now })
    .where('gift_id', '=', giftId)
    .where('combined_version', '=', version)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n ? { replaced: before.combined_path } : null;
}

export async function failCombined(db: Executor, giftId: string, version: number, error: string, now: string): Promise<void> {
  await db
    .updateTable('group_gifts')
    .set({ combined_state: 'failed', combined_error: error, updated_at: now })
    .where('gift_id', '=', giftId)
    .where('combined_version', '=', version)
    .execute();
}

/** No contribution left to combine: back to none (the old file is the caller's to delete). */
export async function clearCombined(db: Executor, giftId: string, now: string): Promise<string | null> {
  const before = await db.selectFrom('group_gifts').select('combined_path').where('gift_id', '=', giftId).executeTakeFirst();
  await db
    .updateTable('group_gifts')
    .set((eb) => ({ combined_state: 'none', combined_path: null, combined_error: null, combined_version: eb('combined_version', '+', 1), updated_at: now }))
    .where('gift_id', '=', giftId)
    .execute();
  return before?.combined_path ?? null;
}

// Invitations -------------------------------------------------------------------------------------------------------

export const listInvitations = (db: Executor, giftId: string): Promise<GroupInvitation[]> =>
  db.selectFrom('group_invitations').selectAll().where('gift_id', '=', giftId).orderBy('created_at').orderBy('email').execute();

export const countInvitations = async (db: Executor, giftId: string): Promise<number> =>
  Number((await db.selectFrom('group_invitations').select((eb) => eb.fn.countAll().as('n')).where('gift_id', '=', giftId).executeTakeFirst())?.n ?? 0);

export const findInvitation = (db: Executor, id: string): Promise<GroupInvitation | undefined> =>
  db.selectFrom('group_invitations').selectAll().where('id', '=', id).executeTakeFirst();

export const findInvitationByTokenHash = (db: Executor, tokenHash: string): Promise<GroupInvitation | undefined> =>
  db.selectFrom('group_invitations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();

export const findInvitationByEmail = (db: Executor, giftId: string, email: string): Promise<GroupInvitation | undefined> =>
  db.selectFrom('group_invitations').selectAll().where('gift_id', '=', giftId).where('email', '=', email).executeTakeFirst();

/** Adds an invitation unless this address is invited already; true when added. */
export async function insertInvitation(db: Executor, row: Omit<GroupInvitationsTable, 'via_shared_link' | 'notify_opened'> & { via_shared_link: number }): Promise<boolean> {
  const made = await db
    .insertInto('group_invitations')
    .values(row)
    .onConflict((oc) => oc.columns(['gift_id', 'email']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return made !== undefined;
}

export async function setNotifyOpened(db: Executor, invitationId: string, notify: boolean): Promise<void> {
  await db.updateTable('group_invitations').set({ notify_opened: notify ? 1 : 0 }).where('id', '=', invitationId).execute();
}

/**
 * Marks this reminder as sent for every invitee of the gift who has not contributed and was not reminded so before;
 * answers their ids (each gets one mail). Run in the transaction that queues those mails: exactly once each.
 */
export async function claimReminders(trx: Executor, giftId: string, column: 'reminded_48_at' | 'reminded_24_at', now: string): Promise<string[]> {
  const rows = await trx
    .updateTable('group_invitations')
    .set({ [column]: now })
    .where('gift_id', '=', giftId)
    .where(column, 'is', null)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('contributions').select('contributions.id').whereRef('contributions.invitation_id', '=', 'group_invitations.id'))))
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Invitees who asked to hear when the recipient first opens the gift, and contributed. */
export const invitationsToTellOfOpening = (db: Executor, giftId: string) =>
  db
    .selectFrom('group_invitations')
    .innerJoin('contributions', 'contributions.invitation_id', 'group_invitations.id')
    .select('group_invitations.id')
    .where('group_invitations.gift_id', '=', giftId)
    .where('group_invitations.notify_opened', '=', 1)
    .execute();

// Contributions -----------------------------------------------------------------------------------------------------

export const listContributions = (db: Executor, giftId: string): Promise<ContributionRow[]> =>
  db.selectFrom('contributions').selectAll().where('gift_id', '=', giftId).orderBy('position').orderBy('created_at').execute();

export const findContribution = (db: Executor, id: string): Promise<ContributionRow | undefined> =>
  db.selectFrom('contributions').selectAll().where('id', '=', id).executeTakeFirst();

export const findContributionOfInvitation = (db: Executor, invitationId: string): Promise<ContributionRow | undefined> =>
  db.selectFrom('contributions').selectAll().where('invitation_id', '=', invitationId).executeTakeFirst();

export const countContributions = async (db: Executor, giftId: string, state?: ContributionState): Promise<number> => {
  let q = db.selectFrom('contributions').select((eb) => eb.fn.countAll().as('n')).where('gift_id', '=', giftId);
  if (state) q = q.where('state', '=', state);
  return Number((await q.executeTakeFirst())?.n ?? 0);
};

const nextPosition = async (db: Executor, giftId: string) =>
  Number((await db.selectFrom('contributions').select((eb) => eb.fn.max('position').as('p')).where('gift_id', '=', giftId).executeTakeFirst())?.p ?? 0) + 1;

export type ContributionContent = Pick<ContributionsTable, 'name' | 'message_type' | 'file_path' | 'poster_path' | 'mime' | 'size' | 'text' | 'state' | 'error'>;

/**
 * Stores an invitation's contribution: a new one goes last, a replaced one keeps its place. Answers the row it
 * replaced (its files are the caller's to delete), or null.
 */
export async function putContribution(trx: Executor, giftId: string, invitationId: string, id: string, content: ContributionContent, now: string): Promise<ContributionRow | null> {
  const before = await findContributionOfInvitation(trx, invitationId);
  if (before) {
    await trx.updateTable('contributions').set({ ...content, updated_at: now }).where('id', '=', before.id).execute();
    return before;
  }
  const position = await nextPosition(trx, giftId);
  await trx
    .insertInto('contributions')
    .values({ id, gift_id: giftId, invitation_id: invitationId, ...content, position, created_at: now, updated_at: now })
    .execute();
  return null;
}

export async function setContributionName(db: Executor, id: string, name: string, now: string): Promise<void> {
  await db.updateTable('contributions').set({ name, updated_at: now }).where('id', '=', id).execute();
}

/** Deletes an invitation (its per-person link stops; its contribution is deleted first by the caller). */
export async function deleteInvitation(trx: Executor, id: string): Promise<void> {
  await trx.deleteFrom('group_invitations').where('id', '=', id).execute();
}

/** A new shared link: its nonce and token hash (the old link's token no longer resolves). */
export async function setInviteLink(trx: Executor, giftId: string, nonce: string, tokenHash: string, now: string): Promise<void> {
  await trx.updateTable('group_gifts').set({ invite_nonce: nonce, invite_token_hash: tokenHash, updated_at: now }).where('gift_id', '=', giftId).execute();
}

/** Deletes one contribution and closes the gap it leaves in the order. */
export async function deleteContribution(trx: Executor, c: ContributionRow): Promise<void> {
  await trx.deleteFrom('contributions').where('id', '=', c.id).execute();
  await trx
    .updateTable('contributions')
    .set((eb) => ({ position: eb('position', '-', 1) }))
    .where('gift_id', '=', c.gift_id)
    .where('position', '>', c.position)
    .execute();
}

/** Moves one contribution to `position` (1-based, within the list), shifting the others. */
export async function moveContribution(trx: Executor, c: ContributionRow, position: number, now: string): Promise<void> {
  if (position === c.position) return;
  if (position < c.position) {
    await trx
      .updateTable('contributions')
      .set((eb) => ({ position: eb('position', '+', 1) }))
      .where('gift_id', '=', c.gift_id)
      .where('position', '>=', position)
      .where('position', '<', c.position)
      .execute();
  } else {
    await trx
      .updateTable('contributions')
      .set((eb) => ({ position: eb('position', '-', 1) }))
      .where('gift_id', '=', c.gift_id)
      .where('position', '>', c.position)
      .where('position', '<=', position)
      .execute();
  }
  await trx.updateTable('contributions').set({ position, updated_at: now }).where('id', '=', c.id).execute();
}

interface RenderedContribution {
  path: string;
  mime: string;
  size: number;
  poster: string | null;
  now: string;
}

/** Swaps a contribution to its rendition, only if it still holds the file that was processed. */
export async function finishContributionRender(db: Executor, id: string, original: string, r: RenderedContribution): Promise<boolean> {
  const res = await db
    .updateTable('contributions')
    .set({ file_path: r.path, mime: r.mime, size: r.size, poster_path: r.poster, state: 'ready', error: null, updated_at: r.now })
    .where('id', '=', id)
    .where('file_path', '=', original)
    .where('state', '=', 'processing')
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

export async function failContributionRender(db: Executor, id: string, original: string, error: string, now: string): Promise<void> {
  await db
    .updateTable('contributions')
    .set({ state: 'failed', error, updated_at: now })
    .where('id', '=', id)
    .where('file_path', '=', original)
    .where('state', '=', 'processing')
    .execute();
}

// Files (deletion, housekeeping) ------------------------------------------------------------------------------------

/** Every stored file of these gifts' groups: contributions, their posters, the combined MP4. */
export async function groupFilesOf(db: Executor, giftIds: string[]): Promise<string[]> {
  if (giftIds.length === 0) return [];
  const [contributions, groups] = await Promise.all([
    db.selectFrom('contributions').select(['file_path', 'poster_path']).where('gift_id', 'in', giftIds).execute(),
    db.selectFrom('group_gifts').select('combined_path').where('gift_id', 'in', giftIds).execute(),
  ]);
  return [...contributions.flatMap((c) => [c.file_path, c.poster_path]), ...groups.map((g) => g.combined_path)].filter((f): f is string => f !== null);
}

/** Of these storage paths, the ones a group row still names. */
export async function groupPathsAmong(db: Executor, paths: string[]): Promise<{ path: string | null }[]> {
  if (paths.length === 0) return [];
  const [a, b, c] = await Promise.all([
    // `is not null` as in the partial indexes' predicates (contributions_file_path_idx, contributions_poster_path_idx).
    db.selectFrom('contributions').select('file_path as path').where('file_path', 'is not', null).where('file_path', 'in', paths).execute(),
    db.selectFrom('contributions').select('poster_path as path').where('poster_path', 'is not', null).where('poster_path', 'in', paths).execute(),
    db.selectFrom('group_gifts').select('combined_path as path').where('combined_path', 'is not', null).where('combined_path', 'in', paths).execute(),
  ]);
  return [...a, ...b, ...c];
}

/** A gift's content ended with its plan (housekeeping): its contributions and combined MP4 go too. */
export async function purgeGroupContent(trx: Executor, giftIds: string[], now: string): Promise<void> {
  if (giftIds.length === 0) return;
  await trx.deleteFrom('contributions').where('gift_id', 'in', giftIds).execute();
  await trx
    .updateTable('group_gifts')
    .set({ combined_path: null, combined_state: 'none', updated_at: now, closed_at: sql<string>`coalesce(closed_at, ${now})` })
    .where('gift_id', 'in', giftIds)
    .execute();
}
