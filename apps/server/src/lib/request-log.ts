import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import pino, { type DestinationStream } from 'pino';

/** Where the server logs: a level, and a stream (stdout when none is given). */
export interface LogOptions {
  level: string;
  stream?: DestinationStream;
}

/** Signed upload and media URLs are bearer capabilities: their signatures stay out of the logs. */
export const redactSignature = (url: string) => url.replace(/([?&]sig=)[^&]*/g, '$1[redacted]');

/**
 * Fastify's own lines per request, "incoming request" and "request completed", become one line written when the
 * answer is sent: its id, method, URL (signature redacted), client address, status and time; at error level with
 * the error when the answer failed. Fastify's other lines (stream errors, writeHead failures) are unchanged.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = {
      method: request.method,
      url: redactSignature(request.url),
      remoteAddress: request.ip,
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) request.log.error({ ...line, err: error }, 'request errored');
    else request.log.info(line, 'request');
  }
}

/**
 * Fastify's logger options: one line per request (`OneLinePerRequest`), and stdout written asynchronously (pino's
 * sonic-boom with sync: false): lines written while a write is under way go out together in the next one, and
 * what is still buffered is flushed when the process exits. Decision 027.
 */
export function loggerOptions(options: LogOptions | false): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  if (!options) return { logger: false };
  return {
    logger: {
      level: options.level,
      stream: options.stream ?? pino.destination({ dest: 1, sync: false }),
      serializers: {
        req: (req: { method?: string; url?: string; ip?: string }) => ({
          method: req.method,
          url: req.url === undefined ? undefined : redactSignature(req.url),
          remoteAddress: req.ip,
        }),
      },
    },
    logController: new OneLinePerRequest(),
  };
}
