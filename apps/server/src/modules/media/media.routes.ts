import { servedContentType } from '@giftlens/contract/media';
import { texts } from '@giftlens/contract/texts';
import type { FastifyInstance } from 'fastify';
import path from 'node:path';
import type { Clock } from '../../adapters/clock.ts';
import type { MediaStorage } from '../../adapters/media-storage.ts';
import { AppError } from '../../lib/errors.ts';

/** Parses a single `bytes=start-end` range; null when absent or unsatisfiable (multi-range is not offered). */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'invalid' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'invalid';
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}

/** Serves stored media behind HMAC-signed, expiring URLs, with Range support so video seeking works. */
export function mediaRoutes(app: FastifyInstance, opts: { media: MediaStorage; clock: Clock }) {
  const { media, clock } = opts;
  const forbidden = () => new AppError(403, 'media_url_invalid', texts.sender.mediaLinkExpired);

  app.get('/media/*', async (request, reply) => {
    const key = (request.params as { '*': string })['*'];
    const { exp = '', sig = '', download } = request.query as { exp?: string; sig?: string; download?: string };
    if (!media.verifySignedUrl(key, exp, sig, clock.now())) throw forbidden();
    const stat = await media.stat(key);
    if (!stat) throw new AppError(404, 'not_found', texts.sender.notFound);

    reply.header('accept-ranges', 'bytes');
    reply.header('content-type', servedContentType(key));
    reply.header('cache-control', 'private, max-age=300');
    reply.header('x-content-type-options', 'nosniff');
    // A download link (plans with downloads): the same signed file, saved instead of shown.
    if (download === '1') reply.header('content-disposition', `attachment; filename="giftlens-${path.basename(key)}"`);
    const range = parseRange(request.headers.range, stat.size);
    if (range === 'invalid') {
      reply.header('content-range', `bytes */${stat.size}`);
      return reply.code(416).send();
    }
    if (range) {
      reply.code(206);
      reply.header('content-range', `bytes ${range.start}-${range.end}/${stat.size}`);
      reply.header('content-length', range.end - range.start + 1);
      return reply.send(media.createReadStream(key, range));
    }
    reply.header('content-length', stat.size);
    return reply.send(media.createReadStream(key));
  });
}
