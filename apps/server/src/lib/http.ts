import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Sender } from '../modules/sender-auth/sender-auth.table.ts';
import { unauthorized } from './errors.ts';

/** The one way to validate input: a contract schema; a ZodError becomes a 400 in the error handler. */
export const parse = <S extends z.ZodType>(schema: S, data: unknown): z.output<S> => schema.parse(data);

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
