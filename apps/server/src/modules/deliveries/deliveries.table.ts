import type { ContactType, DeliveryStatus } from '@giftlens/contract/scheduling';
import type { Selectable } from 'kysely';

export type ScheduledMessageStatus = DeliveryStatus;
export type { ContactType };

export interface ScheduledMessagesTable {
  id: string;
  gift_id: string;
  sender_id: string;
  contact_type: ContactType;
  recipient_contact: string;
  /** The instant to send, as a UTC ISO string. */
  scheduled_at: string;
  /** The sender's IANA time zone, kept to render the time as they chose it. */
  timezone: string;
  status: ScheduledMessageStatus;
  attempts: number;
  last_error: string | null;
  sent_at: string | null;
  created_at: string;
  updated_at: string;
}
export type ScheduledMessage = Selectable<ScheduledMessagesTable>;
