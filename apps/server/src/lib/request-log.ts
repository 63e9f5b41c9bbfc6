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
 * Log lines gathered into blocks: each line is kept as it is (no copy), and a block of at least `blockSize`
 * characters, or whatever is gathered every `flushMs`, goes to `sink` in one write; what is left is written when
 * the process exits. sonic-boom's own `minLength` buffering measured 3–4× the CPU per line: it appends each line to
 * one growing string and measures its byte length on every write, copying the whole block each time (decision 032).
 */
export class LineBlocks implements DestinationStream {
  #lines: string[] = [];
  #length = 0;
  constructor(
    private readonly sink: { write(block: string): unknown },
    private readonly blockSize = 16 * 1024,
  ) {}

  write(line: string): void {
    this.#lines.push(line);
    this.#length += line.length;
    if (this.#length >= this.blockSize) this.flush();
  }

  flush(): void {
    if (this.#length === 0) return;
    const block = this.#lines.join('');
    this.#lines = [];
    this.#length = 0;
    this.sink.write(block);
  }
}

let stdoutBlocks: LineBlocks | undefined;

/**
 * Standard output in blocks (`LineBlocks`) through pino's sonic-boom, which writes each block at once and handles
 * short writes and a full pipe: a line reaches the log at most 250 ms late, and a `kill -9` can lose the last
 * 250 ms of lines. A write per line cost about a sixth of a request's CPU (decisions 027, 032). One per process,
 * shared by every app built in it: one timer, one exit listener, lines in the order written.
 */
export function bufferedStdout(): DestinationStream {
  if (!stdoutBlocks) {
    const blocks = (stdoutBlocks = new LineBlocks(pino.destination({ dest: 1, sync: true })));
    setInterval(() => blocks.flush(), 250).unref();
    process.once('exit', () => blocks.flush());
  }
  return stdoutBlocks;
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
