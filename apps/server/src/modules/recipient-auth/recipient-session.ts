import { sessionGuard, type SessionGuard } from '../../lib/http.ts';
import type { Recipient } from './recipient-auth.table.ts';

/** Separate from the sender cookie: one browser may be both a sender and a recipient. */
export const RECIPIENT_COOKIE = 'gl_recipient';

/** Recipient-flow calls go through this: no valid recipient session cookie, no access. */
export const recipientGuard = (resolve: (token: string | undefined) => Promise<Recipient | null>) =>
  sessionGuard(RECIPIENT_COOKIE, resolve);

export type RequireRecipient = SessionGuard<Recipient>;
