import type { Generated, Selectable } from 'kysely';

/** A staff member (an address in STAFF_EMAILS) who has started enrolling a TOTP second factor. */
export interface StaffMembersTable {
  email: string;
  /** Sealed (lib/sealed.ts), bound to the address. */
  totp_secret: string;
  totp_confirmed_at: string | null;
  last_totp_step: Generated<number>;
  created_at: string;
  updated_at: string;
}
export type StaffMember = Selectable<StaffMembersTable>;

/** Who did what to which gift, when and why. Never updated or deleted by the product. */
export interface StaffAuditTable {
  id: string;
  staff_email: string;
  action: string;
  gift_id: string | null;
  reason: string;
  details: string | null;
  created_at: string;
}
export type StaffAuditRow = Selectable<StaffAuditTable>;
