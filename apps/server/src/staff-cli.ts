import { userInfo } from 'node:os';
import { configOrExit } from './config.ts';
import { createDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrator.ts';
import { failStartup, startupProblem } from './lib/startup-failure.ts';
import { runStaffCommand } from './modules/staff/staff-command.ts';

/**
 * `npm run staff -- reset-totp EMAIL --reason "…"`: the operator's staff command, against the database the server's
 * settings name (modules/staff/staff-command.ts).
 */
const config = configOrExit({ takesPayments: false });
// A database that cannot be reached says so in one line, as the server's start does.
const db = await createDatabase(config.database).catch((err: unknown) => failStartup(err, startupProblem(err, config, 'database')));
let code = 1;
try {
  await migrateToLatest(db).catch((err: unknown) => failStartup(err, startupProblem(err, config, 'database')));
  code = await runStaffCommand(process.argv.slice(2), {
    db,
    now: () => new Date(),
    staffEmails: config.staffEmails,
    operator: `operator ${userInfo().username} (command line)`,
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
} finally {
  await db.destroy();
}
process.exit(code);
