import { texts } from '@giftlens/contract/texts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, unauthorized } from './errors.ts';
import { groupTexts } from '@giftlens/contract/group-gifts';
import { staffTexts } from '@giftlens/contract/staff';
import { merchantSchemaTexts, merchantTexts } from '@giftlens/contract/merchants';
import { topUpTexts } from '@giftlens/contract/extras-texts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The 400 text of this route when its input fails a check that has no user text of its own. */
    validationFallback?: string;
  }
}

const USER_TEXTS: ReadonlySet<unknown> = new Set([
  ...Object.values(texts.sender),
  ...Object.values(texts.recipient),
  ...Object.values(texts.media),
  ...Object.values(texts.backupCode),
  ...Object.values(groupTexts),
  ...Object.values(staffTexts),
  ...Object.values(merchantTexts),
  ...merchantSchemaTexts,
  ...Object.values(topUpTexts),
]);

/**
 * The 400 for a failed validation: the contract's own text for the first problem when it has one; zod's
 * developer wording ("Invalid input: expected string, received undefined") is not a text for the user, so the
 * call's fallback (or the generic text) is shown instead. The body keeps decision 001's shape.
 */
export function validationError(err: z.core.$ZodError | string | undefined, fallback: string = texts.sender.generic): AppError {
  const first = typeof err === 'object' ? err.issues[0]?.message : err;
  const message = first !== undefined && USER_TEXTS.has(first) ? first : fallback;
  return new AppError(400, 'validation_failed', message);
}

/**
 * The one way to validate input: a contract schema; a failure is a 400 with a user text (see validationError).
 * Any zod schema: the contract's are written with zod/mini (decision 046), the server's own with zod.
 */
export function parse<S extends z.core.$ZodType>(schema: S, data: unknown, fallback?: string): z.output<S> {
  const result = z.safeParse(schema, data);
  if (!result.success) throw validationError(result.error, fallback);
  return result.data;
}

export const SENDER_COOKIE = 'gl_sender';

/**
 * A cookie of the request, the Cookie header parsed on first use: @fastify/cookie runs without its parsing hook
 * (`hook: false`), so the calls that never read a cookie do not pay for it (decision 032). Until then
 * `request.cookies` is null: read cookies only through this.
 */
export function requestCookie(request: FastifyRequest, name: string): string | undefined {
  const parsed = request.cookies as FastifyRequest['cookies'] | null;
  if (parsed) return parsed[name];
  const header = request.headers.cookie;
  request.cookies = header ? request.server.parseCookie(header) : {};
  return request.cookies[name];
}

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

/**
 * A session cookie's subject (a sender, a recipient): no valid session, a 401. Call it in a handler to get the
 * subject; use `.hook` as the route's preValidation so a call without a session is a 401 before its input is
 * checked. The subject is looked up once per request.
 */
export function sessionGuard<T extends object>(cookie: string, resolve: (token: string | undefined) => Promise<T | null>) {
  const seen = new WeakMap<FastifyRequest, T>();
  const require = async (request: FastifyRequest): Promise<T> => {
    const known = seen.get(request);
    if (known) return known;
    const subject = await resolve(requestCookie(request, cookie));
    if (!subject) throw unauthorized();
    seen.set(request, subject);
    return subject;
  };
  const hook = async (request: FastifyRequest): Promise<void> => {
    await require(request);
  };
  return Object.assign(require, { hook });
}

export type SessionGuard<T extends object> = ReturnType<typeof sessionGuard<T>>;
