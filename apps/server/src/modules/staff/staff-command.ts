import { StaffResetTotpRequest, staffTexts } from '@giftlens/contract/staff';
import { parseArgs } from 'node:util';
import type { Db } from '../../db/database.ts';
import { resetSecondFactor } from './staff.service.ts';

export const STAFF_COMMAND_USAGE = `Usage: npm run staff -- reset-totp EMAIL --reason "why"

  reset-totp   Forgets a staff member's authenticator and ends their staff sessions, as a colleague's reset in the
               console does (audited as the operator, and the member is e-mailed). For a team of one, or when
               nobody else can sign in. Reads the server's settings (DATABASE_URL or DATA_DIR, STAFF_EMAILS) from the
               environment, as npm start does.`;

export interface StaffCommandDeps {
  db: Db;
  now: () => Date;
  /** STAFF_EMAILS, lowercased. */
  staffEmails: readonly string[];
  /** Who the audit trail and the member's e-mail name: "operator NAME (command line)". */
  operator: string;
  out: (line: string) => void;
  err: (line: string) => void;
}

/**
 * The operator's staff command (`npm run staff -- reset-totp EMAIL --reason "…"`): the console's second-factor
 * reset for the one case the console cannot do, a team whose only member lost their authenticator. It refuses what
 * the console refuses (an address not in STAFF_EMAILS, no reason) and answers the process's exit code: 0 done, 2
 * refused or misused.
 */
export async function runStaffCommand(argv: readonly string[], deps: StaffCommandDeps): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: { reason: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (e) {
    deps.err(`${e instanceof Error ? e.message : String(e)}\n\n${STAFF_COMMAND_USAGE}`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.help) {
    deps.out(STAFF_COMMAND_USAGE);
    return 0;
  }
  if (command !== 'reset-totp' || rest.length !== 1) {
    deps.err(command === 'reset-totp' ? `Give one e-mail address.\n\n${STAFF_COMMAND_USAGE}` : STAFF_COMMAND_USAGE);
    return 2;
  }
  const request = StaffResetTotpRequest.safeParse({ email: rest[0], reason: parsed.values.reason ?? '' });
  if (!request.success) {
    deps.err(request.error.issues.map((i) => i.message).join('\n'));
    return 2;
  }
  const { email, reason } = request.data;
  if (!deps.staffEmails.includes(email)) {
    deps.err(`${staffTexts.memberNotFound} (STAFF_EMAILS here: ${deps.staffEmails.join(', ') || 'nobody'})`);
    return 2;
  }
  const done = await resetSecondFactor(deps.db, deps.now(), { by: deps.operator, member: email, reason });
  if (!done.secretForgotten && done.sessionsEnded === 0) {
    deps.out(`${email} had no authenticator and no staff session: nothing to reset (the audit trail says so; no e-mail).`);
    return 0;
  }
  const sessions = `${done.sessionsEnded} staff session${done.sessionsEnded === 1 ? '' : 's'} ended`;
  deps.out(
    `Reset the second factor of ${email}: ${done.secretForgotten ? 'their authenticator is forgotten' : 'they had no authenticator'}, ${sessions}. ` +
      'Their next sign-in sets one up again, after the e-mailed code. They are e-mailed by the job runner (npm start or npm run worker).',
  );
  return 0;
}
