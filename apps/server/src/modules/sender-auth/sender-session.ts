import { SENDER_COOKIE, sessionGuard, type SessionGuard } from '../../lib/http.ts';
import type { Sender } from './sender-auth.table.ts';

/** Every sender call after verification goes through this: no valid session cookie, no access. */
export const senderGuard = (resolve: (token: string | undefined) => Promise<Sender | null>) =>
  sessionGuard(SENDER_COOKIE, resolve);

export type RequireSender = SessionGuard<Sender>;
