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
 * Standard output through pino's sonic-boom, asynchronous and buffered: lines are written in blocks of 4 KB, and
 * whatever is buffered at least every `flushMs` (pino flushes the rest when the process exits). A write per line
 * cost about a sixth of a request's CPU (decision 027); a line now waits at most `flushMs`.
 */
export function bufferedStdout(flushMs = 250): DestinationStream {
  const stdout = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  const timer = setInterval(() => {
    try {
      stdout.flush();
    } catch {
      clearInterval(timer); // the stream was closed
    }
  }, flushMs).unref();
  return stdout;
}

/** Fastify's logger options: one line per request (`OneLinePerRequest`) to `bufferedStdout` unless told. */
export function loggerOptions(options: LogOptions | false): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  if (!options) return { logger: false };
  return {
    logger: {
      level: options.level,
      stream: options.stream ?? bufferedStdout(),
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
