import type { FastifyError, FastifyInstance, FastifyReply, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { Duplex } from 'node:stream';
import type { z } from 'zod';
import { AppError, errorBody } from '../lib/errors.ts';
import { validationError } from '../lib/http.ts';
import { isUnreachable } from '../lib/unreachable.ts';
import type { ResponseHeaders } from './response-headers.ts';

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a body framed twice, a control byte in a header,
 * headers over 16 kB, which large cookies can make) are answered on the socket: decision 001's JSON body and the
 * API's headers, instead of Fastify's default body without any security header. The connection is closed.
 */
export function socketRefusal(headers: ResponseHeaders): NonNullable<FastifyServerOptions['clientErrorHandler']> {
  const rawApiHeaders = Object.entries(headers.api)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return (err: Error & { code?: string }, socket: Duplex) => {
    // Nothing to answer on a dead socket, or in the middle of an answer already under way on it (a pipelined bad
    // request): the connection is only cut. Node's own server makes the same check on its current message.
    const current = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || current?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, reason, code] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'headers_too_large']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'request_timeout']
          : [400, 'Bad Request', 'bad_request'];
    const body = JSON.stringify(errorBody(code));
    // Written, then the socket is destroyed: a half-open client (or a slow-loris one, timed out here too) must not
    // keep it.
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\n${rawApiHeaders}` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      () => socket.destroy(),
    );
  };
}

/**
 * The router's own refusals (a malformed %-escape in the path, a path parameter over 100 characters) skip the error
 * handler: they get decision 001's body too. They come before the hooks too: the answer's security headers are put
 * here.
 */
export function routerRefusal(headers: ResponseHeaders): NonNullable<FastifyServerOptions['frameworkErrors']> {
  return (err, request, reply) => {
    const status = typeof err.statusCode === 'number' && err.statusCode < 500 ? err.statusCode : 400;
    headers.put(request.url, reply);
    void (reply as FastifyReply).code(status).send(errorBody(err.code));
  };
}

/**
 * One error handler, the root's (fastify-plugin: every route's context falls back to it): validation → 400 with
 * the contract's text, domain errors → their status, the rest → logged 500 (503 when a store does not answer).
 */
function errors(app: FastifyInstance, _opts: object, done: (err?: Error) => void) {
  app.setErrorHandler((err: FastifyError | Error, request, reply) => {
    // By name, not instanceof: the contract package may bring its own copy of zod. Its schemas are zod/mini's
    // (decision 046), whose parse errors are named "$ZodError"; the server's own are classic zod's "ZodError".
    if (err.name === 'ZodError' || err.name === '$ZodError') err = validationError(err as z.core.$ZodError);
    // A route's declared schema refused the input: the contract's text, else the route's fallback.
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0]?.message;
      err = validationError(first, request.routeOptions.config.validationFallback);
    }
    if (err instanceof AppError) {
      if (err.statusCode >= 500) request.log.warn({ err, url: request.url }, err.message);
      const retryAfter = err.extra.retryAfter;
      if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
      return reply.code(err.statusCode).send(errorBody(err.code, err.message, err.extra));
    }
    const status = 'statusCode' in err && typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status < 500) {
      // Framework-level client errors: malformed JSON, wrong content type, body too large.
      const code = 'code' in err && typeof err.code === 'string' ? err.code : 'bad_request';
      return reply.code(status).send(errorBody(code));
    }
    request.log.error({ err, method: request.method, url: request.url, reqId: request.id }, 'request failed');
    // The database or the media store could not be reached or did not answer: not a bug, and worth a retry.
    if (isUnreachable(err)) return reply.code(503).header('retry-after', '30').send(errorBody('service_unavailable'));
    return reply.code(500).send(errorBody('internal'));
  });
  done();
}

export const errorsPlugin = fp(errors, { name: 'errors' });
