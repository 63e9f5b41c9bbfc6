import { type Kysely, sql } from 'kysely';

// Group gifts (README "Group gifts"): the group of a gift, the people invited to it, and their contributions. Each
// hangs off its gift (ON DELETE CASCADE, decision 041); a contribution also off its invitation. Tokens are stored
// only as SHA-256 hashes; the shared link's token is derived again from its nonce when the organizer copies it.
// An upload intent made through a contribution link names its invitation (NULL: the organizer's own message).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('group_gifts')
    .addColumn('gift_id', 'text', (c) => c.primaryKey().references('gifts.id').onDelete('cascade'))
    .addColumn('deadline', 'text', (c) => c.notNull())
    .addColumn('closed_at', 'text')
    .addColumn('invite_nonce', 'text', (c) => c.notNull())
    .addColumn('invite_token_hash', 'text', (c) => c.notNull().unique())
    // The organizer was told nobody had contributed (once), and the closing summary went (once).
    .addColumn('empty_warned_at', 'text')
    .addColumn('summary_sent_at', 'text')
    .addColumn('combined_state', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('combined_path', 'text')
    .addColumn('combined_error', 'text')
    // Bumped by every change of what the combined MP4 shows: a render of an older version throws its output away.
    .addColumn('combined_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('group_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('gift_id', 'text', (c) => c.notNull().references('gifts.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('via_shared_link', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('invite_sent_at', 'text')
    .addColumn('reminded_48_at', 'text')
    .addColumn('reminded_24_at', 'text')
    .addColumn('notify_opened', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('group_invitations_gift_email_key', ['gift_id', 'email'])
    .execute();

  await db.schema
    .createTable('contributions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('gift_id', 'text', (c) => c.notNull().references('gifts.id').onDelete('cascade'))
    .addColumn('invitation_id', 'text', (c) => c.notNull().unique().references('group_invitations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('message_type', 'text', (c) => c.notNull())
    .addColumn('file_path', 'text')
    .addColumn('poster_path', 'text')
    .addColumn('mime', 'text')
    .addColumn('size', 'integer')
    .addColumn('text', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contributions_gift_idx').on('contributions').columns(['gift_id', 'position']).execute();

  await db.schema.alterTable('upload_intents').addColumn('invitation_id', 'text').execute();
  // The paths a file sweep asks about (housekeeping's referenced paths), as for gifts and reactions.
  await db.schema.createIndex('contributions_file_path_idx').on('contributions').column('file_path').where(sql.raw<boolean>('file_path IS NOT NULL')).execute();
  await db.schema.createIndex('contributions_poster_path_idx').on('contributions').column('poster_path').where(sql.raw<boolean>('poster_path IS NOT NULL')).execute();
  await db.schema.createIndex('group_gifts_combined_path_idx').on('group_gifts').column('combined_path').where(sql.raw<boolean>('combined_path IS NOT NULL')).execute();
  // Contributions are rendered like messages and reactions: the partial index of render jobs that may have left
  // files (flat_costs) names the kinds, and housekeeping's query names the same three.
  await leftoversIndex(db, RENDER_KINDS_NOW);
}

const RENDER_KINDS_BEFORE = ['message.render', 'reaction.render'];
const RENDER_KINDS_NOW = ['message.render', 'reaction.render', 'contribution.render'];

async function leftoversIndex(db: Kysely<unknown>, kinds: string[]): Promise<void> {
  await db.schema.dropIndex('jobs_render_leftovers_idx').execute();
  const list = kinds.map((k) => `'${k}'`).join(', ');
  await db.schema
    .createIndex('jobs_render_leftovers_idx')
    .on('jobs')
    .column('id')
    .where(sql.raw<boolean>(`kind IN (${list}) AND finished_at IS NOT NULL AND (attempts > 1 OR status <> 'done') AND leftovers_swept_at IS NULL`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await leftoversIndex(db, RENDER_KINDS_BEFORE);
  await db.schema.dropIndex('group_gifts_combined_path_idx').execute();
  await db.schema.dropIndex('contributions_poster_path_idx').execute();
  await db.schema.dropIndex('contributions_file_path_idx').execute();
  await db.schema.alterTable('upload_intents').dropColumn('invitation_id').execute();
  await db.schema.dropTable('contributions').execute();
  await db.schema.dropTable('group_invitations').execute();
  await db.schema.dropTable('group_gifts').execute();
}
