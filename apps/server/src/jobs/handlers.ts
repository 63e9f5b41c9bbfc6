import type { Clock } from '../adapters/clock.ts';
import type { Mailer } from '../adapters/mail.ts';
import type { MediaProcessor } from '../adapters/media-processor.ts';
import type { MediaStorage } from '../adapters/media-storage.ts';
import type { PushSender } from '../adapters/push.ts';
import type { Scratch } from '../adapters/scratch.ts';
import type { WhatsAppSender } from '../adapters/whatsapp.ts';
import type { Db } from '../db/database.ts';
import { codeMailJob } from '../modules/auth/auth.jobs.ts';
import { deliveryJob } from '../modules/deliveries/deliveries.jobs.ts';
import { groupGiftJobs } from '../modules/group-gifts/group-gifts.jobs.ts';
import { staffMemberNoticeJob, staffNoticeJob } from '../modules/staff/staff.jobs.ts';
import { merchantJobs } from '../modules/merchants/merchants.jobs.ts';
import { housekeepingJob } from '../modules/housekeeping/housekeeping.jobs.ts';
import type { HousekeepingService } from '../modules/housekeeping/housekeeping.service.ts';
import { renditionJobs } from '../modules/renditions/renditions.jobs.ts';
import { mediaDeleteJob } from '../modules/my-gifts/my-gifts.jobs.ts';
import { noticeJobs } from '../modules/notices/notices.jobs.ts';
import { paymentConfirmationJob } from '../modules/payments/payments.jobs.ts';
import { reminderJobs } from '../modules/reminders/reminders.jobs.ts';
import type { BackupCodes } from '../lib/backup-codes.ts';
import type { JobHandlers, JobLog } from './runner.ts';

export interface JobHandlerDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  media: MediaStorage;
  /** ffmpeg; null when it is not installed (messages are then kept as uploaded). */
  processor: MediaProcessor | null;
  /** This process's scratch folder (render copies; housekeeping sweeps what dead processes left). */
  scratch: Scratch;
  push: PushSender;
  whatsapp: WhatsAppSender | null;
  publicOrigin: string;
  log: JobLog;
  /** Opens the sealed backup codes the payment confirmation e-mail carries (decision 039). */
  backupCodes: BackupCodes;
  /** What the recurring housekeeping job runs. */
  housekeeping: HousekeepingService;
  /** Group gifts' mails write each invitee's link again from it (an HMAC, never stored). */
  sessionSecret: string;
  /** WEBHOOK_ALLOW_HTTP_HOSTS: hosts merchant webhooks may reach over http, at any address (tests). */
  webhookAllowHttpHosts?: readonly string[];
  /** Wakes this process's runner (a merchant gift's release made a delivery due now). */
  wakeJobs?: () => void;
}

/**
 * Every job kind's handler, wired to the adapters and the services the composition root built (composition.ts): the
 * same table in the server and in `npm run worker`.
 */
export function createJobHandlers(deps: JobHandlerDeps): JobHandlers {
  const { clock, log } = deps;
  return {
    'auth.code_mail': codeMailJob(deps),
    'delivery.send': deliveryJob(deps),
    ...noticeJobs(deps),
    'payment.confirmation': paymentConfirmationJob(deps),
    ...reminderJobs(deps),
    'media.delete': mediaDeleteJob(deps),
    ...renditionJobs(deps),
    ...groupGiftJobs(deps),
    'staff.notice': staffNoticeJob(deps),
    'staff.member_notice': staffMemberNoticeJob(deps),
    ...merchantJobs(deps),
    housekeeping: housekeepingJob({ service: deps.housekeeping, clock, log }),
  };
}
