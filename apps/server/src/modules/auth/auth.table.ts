import type { Selectable } from 'kysely';

/** One-time codes and sessions, shared by senders and recipients. */
export type CodePurpose = 'sender' | 'recipient' | 'contributor' | 'staff';

export interface VerificationCodesTable {
  id: string;
  purpose: CodePurpose;
  /** The lowercased e-mail the code was sent to. */
  destination: string;
  /** HMAC of the code: a leaked table does not reveal live codes. */
  code_hash: string;
  expires_at: string;
  attempts: number;
  consumed_at: string | null;
  created_at: string;
}
export type VerificationCode = Selectable<VerificationCodesTable>;

/** When a code was last sent to this address for this purpose: the resend cooldown. */
export interface CodeResendsTable {
  purpose: CodePurpose;
  destination: string;
  sent_at: string;
}

export type SessionKind = 'sender' | 'recipient' | 'staff' | 'staff_enrol';

export interface SessionsTable {
  /** SHA-256 of the cookie token; the token itself is never stored. */
  token_hash: string;
  kind: SessionKind;
  /** Sender id for sender sessions; the verified e-mail for recipient sessions. */
  subject: string;
  created_at: string;
  expires_at: string;
}
export type Session = Selectable<SessionsTable>;
