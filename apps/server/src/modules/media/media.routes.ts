import fastifyStatic from '@fastify/static';
import { texts } from '@giftlens/contract/texts';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../adapters/clock.ts';
import { attachmentDisposition, contentTypeOf, downloadName, type MediaStorage, signedUrlExpiry } from '../../adapters/media-storage.ts';
import { AppError } from '../../lib/errors.ts';
import { giftUnavailable } from '../scans/gift-rules.ts';

/**
 * Serves stored media behind HMAC-signed, expiring URLs. Local files go out through @fastify/static (Range,
 * conditional requests); media in a bucket is a redirect to a presigned GET that expires with our own URL.
 */
/** A stored file's gift: every message, photo, contribution and reaction lives under its gift's id. */
const GIFT_OF_KEY = /^(?:gifts|reactions)\/([0-9a-f]{32})\//;

export interface MediaRoutesOptions {
  media: MediaStorage;
  clock: Clock;
  /** Whether staff took the gift down: its files are served to nobody, from that moment (issue 37). */
  takenDown: (giftId: string) => Promise<boolean>;
}

export function mediaRoutes(app: FastifyInstance, opts: MediaRoutesOptions, done: (err?: Error) => void) {
  const { media, clock } = opts;
  const forbidden = () => new AppError(403, 'media_url_invalid', texts.sender.mediaLinkExpired);

  // Its own scope: reply.sendFile here serves media, whatever the web app's static files use.
  void app.register(async (scope) => {
    await scope.register(fastifyStatic, { serve: false });
    scope.get('/media/*', async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      const query = request.query as { exp?: unknown; sig?: unknown; download?: unknown; name?: unknown };
      const exp = typeof query.exp === 'string' ? query.exp : '';
      const sig = typeof query.sig === 'string' ? query.sig : '';
      // Signed with the URL: `download=1` is a download link's, absent a viewing link's; any other value is neither.
      if (query.download !== undefined && query.download !== '1') throw forbidden();
      // A download's file name, signed with it: one at most, and only on a download link.
      if (query.name !== undefined && typeof query.name !== 'string') throw forbidden();
      const download = query.download === '1';
      const name = typeof query.name === 'string' ? query.name : null;
      const now = clock.now();
      const expiresAt = signedUrlExpiry(exp);
      if (!expiresAt || !media.verifySignedUrl(key, exp, sig, now, download, name)) throw forbidden();
      const giftId = GIFT_OF_KEY.exec(key)?.[1];
      if (giftId && (await opts.takenDown(giftId))) throw giftUnavailable();
      const source = await media.source(key, { download, name, expiresAt, now });
      if (!source) throw new AppError(404, 'not_found', texts.sender.notFound);

      if (source.kind === 'url') {
        // The presigned URL is a bearer capability of its own: not kept by a browser or proxy.
        reply.header('cache-control', 'no-store');
        return reply.redirect(source.url, 302);
      }
      reply.header('content-type', contentTypeOf(key));
      reply.header('cache-control', 'private, max-age=300');
      reply.header('x-content-type-options', 'nosniff');
      // A download link (plans with downloads): the same signed file, saved instead of shown.
      if (download) reply.header('content-disposition', attachmentDisposition(downloadName(key, name)));
      return reply.sendFile(source.file, source.root, { contentType: false, cacheControl: false, acceptRanges: true });
    });
  });
  done();
}
