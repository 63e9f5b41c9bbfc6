import fastifyStatic from '@fastify/static';
import { texts } from '@giftlens/contract/texts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { errorBody } from '../lib/errors.ts';
import { BACKEND_PATH, routedPath } from './response-headers.ts';

/** The built web app's folder when it holds a build (index.html), else null: the server then serves the API only. */
export const builtWebApp = (dir: string | null) => (dir && existsSync(path.join(dir, 'index.html')) ? dir : null);

/**
 * The built web app (when there is one): its files, the shell at `/` and for every other page path (an SPA
 * fallback), and the 404 of everything else in decision 001's body. fastify-plugin: the 404 handler and
 * `reply.sendFile` are the root's.
 */
async function webApp(app: FastifyInstance, { webDistDir }: { webDistDir: string | null }) {
  if (webDistDir) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      index: false,
      // The build writes .br and .gz next to every text asset; send those to browsers that accept them.
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, filePath) {
        // Hashed build assets never change; the service worker and the shell must always be revalidated.
        const rel = path.relative(webDistDir, filePath).split(path.sep).join('/');
        res.setHeader('cache-control', rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  const sendShell = (reply: FastifyReply) =>
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
  if (webDistDir) app.get('/', (_request, reply) => sendShell(reply));

  app.setNotFoundHandler({ preHandler: app.rateLimit({ max: 300, timeWindow: 60_000 }) }, (request, reply) => {
    const isBackend = BACKEND_PATH.test(routedPath(request.url.split('?')[0] ?? '/'));
    if (webDistDir && (request.method === 'GET' || request.method === 'HEAD') && !isBackend) return sendShell(reply);
    return reply.code(404).send(errorBody('not_found', texts.sender.notFound));
  });
}

export const webAppPlugin = fp(webApp, { name: 'web-app', dependencies: ['rate-limit'] });
