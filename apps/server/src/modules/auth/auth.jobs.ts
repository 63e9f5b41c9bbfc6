import type { Clock } from '../../adapters/clock.ts';
import type { Mailer } from '../../adapters/mail.ts';
import type { Db } from '../../db/database.ts';
import { jobMessageId } from '../../jobs/message-id.ts';
import type { JobHandler } from '../../jobs/runner.ts';
import * as repo from './auth.repository.ts';
import { codeSealer, verificationEmail } from './one-time-codes.ts';

/**
 * Mails a sign-in code the request stored and queued (issue 37): every send-code answers without waiting for a mail.
 * A code used, replaced by a newer one or expired meanwhile is not mailed (it could not sign in).
 */
export function codeMailJob({ db, clock, mailer, sessionSecret, publicOrigin }: { db: Db; clock: Clock; mailer: Mailer; sessionSecret: string; publicOrigin: string }): JobHandler<'auth.code_mail'> {
  const sealer = codeSealer(sessionSecret);
  return {
    async run({ codeId, sealed, deliver }, ctx) {
      if (!deliver) return;
      const row = await repo.findCode(db, codeId);
      if (!row || row.consumed_at !== null || Date.parse(row.expires_at) <= clock.now().getTime()) return;
      const code = sealer.open(codeId, sealed);
      if (!code) return;
      await mailer.send({ to: row.destination, ...verificationEmail(code), messageId: jobMessageId('code', ctx.id, publicOrigin) });
    },
  };
}
