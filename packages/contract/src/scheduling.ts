import { z } from 'zod';
import { GiftId } from './common.ts';
import { M } from './messages.ts';

// POST /api/scheduled-messages
export const ScheduleRequest = z.object({
  giftId: GiftId,
  recipientContact: z.string({ error: M.scheduleContactRequired }).trim().min(1, { error: M.scheduleContactRequired }),
  contactType: z.enum(['whatsapp', 'email']),
  scheduledDatetime: z.iso.datetime({ offset: true, error: M.scheduleDateTimeRequired }),
  timezone: z.string().min(1).max(64),
});
export type ScheduleRequest = z.infer<typeof ScheduleRequest>;
export const ScheduleResponse = z.object({
  success: z.literal(true),
  id: z.string(),
  scheduledDatetime: z.string(),
});
export type ScheduleResponse = z.infer<typeof ScheduleResponse>;
