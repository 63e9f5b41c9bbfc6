import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../../lib/errors.ts';
import type { Recipient } from './recipient-auth.table.ts';

/** Separate from the sender cookie: one browser may be both a sender and a recipient. */
export const RECIPIENT_COOKIE = 'gl_recipient';

/** Recipient-flow calls go through this: no valid recipient session cookie, no access. */
export function recipientGuard(resolve: (token: string | undefined) => Promise<Recipient | null>) {
  return async (request: FastifyRequest): Promise<Recipient> => {
    const recipient = await resolve(request.cookies[RECIPIENT_COOKIE]);
    if (!recipient) throw unauthorized();
    return recipient;
  };
}

export type RequireRecipient = ReturnType<typeof recipientGuard>;
