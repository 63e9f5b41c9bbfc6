import type { Selectable } from 'kysely';

export interface RecipientsTable {
  /** Opaque, stable id for one e-mail address: the spec's recipientId. */
  id: string;
  /** Lowercased e-mail. */
  email: string;
  created_at: string;
}
export type Recipient = Selectable<RecipientsTable>;
