import type { Selectable } from 'kysely';

/** A matching scan lets the browser that made it read that gift's message for a few minutes. */
export interface RevealGrantsTable {
  /** SHA-256 of the cookie token; the token itself is never stored. */
  token_hash: string;
  gift_id: string;
  created_at: string;
  expires_at: string;
}
export type RevealGrant = Selectable<RevealGrantsTable>;
