import type { CombinedState, ContributionMessageType, ContributionState } from '@giftlens/contract/group-gifts';
import type { Generated, Selectable } from 'kysely';

/** A gift's group: its deadline, its shared link and its combined MP4 (one row per group gift). */
export interface GroupGiftsTable {
  gift_id: string;
  deadline: string;
  /** When contributions closed (the deadline, the organizer, or the gift's first opening); null while open. */
  closed_at: string | null;
  /** The shared link's token is derived from it (HMAC); a new nonce would make a new link. */
  invite_nonce: string;
  invite_token_hash: string;
  empty_warned_at: string | null;
  summary_sent_at: string | null;
  combined_state: Generated<CombinedState>;
  combined_path: string | null;
  combined_error: string | null;
  combined_version: Generated<number>;
  created_at: string;
  updated_at: string;
}
export type GroupGift = Selectable<GroupGiftsTable>;

/** One person asked to contribute: by the organizer's e-mail, or themselves through the shared link and a code. */
export interface GroupInvitationsTable {
  id: string;
  gift_id: string;
  email: string;
  /** SHA-256 of the per-person token in their /contribute link. */
  token_hash: string;
  via_shared_link: Generated<number>;
  invite_sent_at: string | null;
  reminded_48_at: string | null;
  reminded_24_at: string | null;
  /** 1: tell them when the recipient first opens the gift. */
  notify_opened: Generated<number>;
  created_at: string;
}
export type GroupInvitation = Selectable<GroupInvitationsTable>;

/** One contributor's message (at most one per invitation). */
export interface ContributionsTable {
  id: string;
  gift_id: string;
  invitation_id: string;
  name: string;
  message_type: ContributionMessageType;
  file_path: string | null;
  poster_path: string | null;
  mime: string | null;
  size: number | null;
  text: string | null;
  state: ContributionState;
  error: string | null;
  /** 1-based order on the recipient's page, after the organizer's own message. */
  position: number;
  created_at: string;
  updated_at: string;
}
export type ContributionRow = Selectable<ContributionsTable>;
