import type { ColumnType, Selectable } from 'kysely';

/**
 * queued: waits for run_at; running: claimed by a worker until locked_until (its lease); done; dead: every
 * attempt failed, kept with last_error; cancelled: its record no longer wants it.
 */
export type JobStatus = 'queued' | 'running' | 'done' | 'dead' | 'cancelled';

export interface JobsTable {
  id: string;
  kind: string;
  /** JSON of the kind's payload. */
  payload: string;
  key: string | null;
  /** The gift the job acts on (a delivery, notice, render, payment confirmation): deleting the gift deletes it by this. */
  gift_id: string | null;
  status: JobStatus;
  run_at: string;
  attempts: number;
  max_attempts: number;
  /** Set by each claim; completion and lease renewal only count with the current token (fencing). */
  lock_token: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  /** When housekeeping looked for files this ended render job left behind (it looks once); unset on insert. */
  leftovers_swept_at: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * Whose turn the job takes in a lane with a fair share (the single messages' conversions: the sender of its gift,
   * keys.ts senderShare); null: a turn of its own.
   */
  share_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** When it was last claimed (a share's last turn is its jobs' newest); unset on insert. */
  claimed_at: ColumnType<string | null, string | null | undefined, string | null>;
}
export type JobRow = Selectable<JobsTable>;
