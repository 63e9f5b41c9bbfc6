import { texts } from '@giftlens/contract/texts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, holdsNul, nulRefused } from '../lib/errors.ts';
import type { ResponseHeaders } from './response-headers.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The cookies that authenticate a call: a sender or recipient session, a reveal grant. */
const CREDENTIAL_COOKIE = /(?:^|;\s*)gl_(?:sender|recipient|staff|staff_enrol|reveal_[0-9a-f]+)=/;

export interface SecurityOptions {
  headers: ResponseHeaders;
  /** PUBLIC_ORIGIN: state-changing calls carrying our cookies must come from here (or the request's own host). */
  publicOrigin: string;
}

/**
 * One synchronous onRequest hook for what every call needs: each hook, and an async one more so, costs every call
 * (decision 032). Wrapped with fastify-plugin: the hook is the root's, so every route, the static files and the 404
 * run it first.
 * - Browser security headers on every answer: a strict CSP, no framing, nosniff, a referrer policy, HSTS on https;
 *   on the API's JSON answers the smaller set of those a JSON answer needs (decision 036).
 * - API answers hold personal data (a sender's gifts, a recipient's name, signed media links): never stored by a
 *   browser or a proxy unless the route says otherwise (its own cache-control replaces this one). The web app's
 *   files answer brotli, gzip or raw bytes at one URL, depending on the request.
 * - CSRF: SameSite=Lax alone lets a cross-site form or a top-level navigation carry the cookies. A state-changing
 *   call that carries one must come from our own origin (Origin, or Sec-Fetch-Site when Origin is absent:
 *   same-origin or none); calls without our cookies (the provider's webhook, the signed upload PUT) are not affected.
 */
function security(app: FastifyInstance, { headers, publicOrigin }: SecurityOptions, loaded: (err?: Error) => void) {
  app.addHook('onRequest', (request, reply, done) => {
    headers.put(request.url, reply);
    if (SAFE_METHODS.has(request.method) || !CREDENTIAL_COOKIE.test(request.headers.cookie ?? '')) return done();
    const origin = request.headers.origin;
    const own = origin === publicOrigin || origin === `${request.protocol}://${request.host}`;
    const site = request.headers['sec-fetch-site'];
    // A sibling subdomain (same-site) is not our origin either; no header at all is a client that is no browser.
    const crossSite = origin !== undefined ? !own : site === 'cross-site' || site === 'same-site';
    done(crossSite ? new AppError(403, 'cross_site_refused', texts.sender.crossSiteRefused) : undefined);
  });
  // NUL in what was parsed (JSON body, query, path): refused on every route once its session check and schema have
  // run (a call without its session stays a 401), before its handler, so neither database ever sees one (PostgreSQL
  // refuses it in text: a 500, possibly after another system acted). Multipart fields are checked where they are
  // read (lib/multipart.ts).
  app.addHook('preHandler', (request, _reply, done) => {
    done(holdsNul(request.body) || holdsNul(request.query) || holdsNul(request.params) ? nulRefused() : undefined);
  });
  loaded();
}

export const securityPlugin = fp(security, { name: 'security' });
