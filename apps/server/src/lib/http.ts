import { M } from '@giftlens/contract/messages';
import { RM } from '@giftlens/contract/recipient';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Sender } from '../modules/sender-auth/sender-auth.table.ts';
import { AppError, unauthorized } from './errors.ts';

const USER_TEXTS: ReadonlySet<unknown> = new Set([...Object.values(M), ...Object.values(RM)]);

/**
 * The 400 for a failed validation: the contract's own text for the first problem when it has one; zod's
 * developer wording ("Invalid input: expected string, received undefined") is not a text for the user, so the
 * call's fallback (or the generic text) is shown instead. The body keeps decision 001's shape.
 */
export function validationError(err: z.ZodError, fallback: string = M.generic): AppError {
  const issue = err.issues[0];
  const message = issue && USER_TEXTS.has(issue.message) ? issue.message : fallback;
  return new AppError(400, 'validation_failed', message);
}

/** The one way to validate input: a contract schema; a failure is a 400 with a user text (see validationError). */
export function parse<S extends z.ZodType>(schema: S, data: unknown, fallback?: string): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw validationError(result.error, fallback);
  return result.data;
}

export const SENDER_COOKIE = 'gl_sender';

export interface SessionCookieOptions {
  secure: boolean;
  maxAgeMs: number;
}

/** Every credential cookie: HttpOnly, SameSite=Lax, Secure behind https. */
export function setSessionCookie(
  reply: FastifyReply,
  name: string,
  token: string,
  opts: SessionCookieOptions & { path?: string },
): void {
  reply.setCookie(name, token, {
    path: opts.path ?? '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: opts.secure,
    maxAge: Math.floor(opts.maxAgeMs / 1000),
  });
}

export function setSenderCookie(reply: FastifyReply, token: string, opts: SessionCookieOptions): void {
  setSessionCookie(reply, SENDER_COOKIE, token, opts);
}

export function clearSenderCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SENDER_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
}

export type SenderResolver = (token: string | undefined) => Promise<Sender | null>;

/** Every sender call after verification goes through this: no valid session cookie, no access. */
export function senderGuard(resolve: SenderResolver) {
  return async (request: FastifyRequest): Promise<Sender> => {
    const sender = await resolve(request.cookies[SENDER_COOKIE]);
    if (!sender) throw unauthorized();
    return sender;
  };
}

export type RequireSender = ReturnType<typeof senderGuard>;
