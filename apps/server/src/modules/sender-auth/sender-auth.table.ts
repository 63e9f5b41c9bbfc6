import type { Insertable, Selectable, Updateable } from 'kysely';

export interface SendersTable {
  id: string;
  email: string;
  phone_number: string | null;
  first_name: string | null;
  created_at: string;
  updated_at: string;
}
export type Sender = Selectable<SendersTable>;
export type NewSender = Insertable<SendersTable>;
export type SenderUpdate = Updateable<SendersTable>;
