import type { FastifyReply } from 'fastify';
import { apiHelmetOptions, helmetHeaders, securityHeaders, type SecurityHeadersOptions } from '../lib/security-headers.ts';

/** The server's own paths; everything else is the web app. */
export const BACKEND_PATH = /^\/(api|media)(\/|$)/;

/** The browsable API reference; its OpenAPI 3 document is at `${API_DOCS_PATH}/json`. */
export const API_DOCS_PATH = '/api/docs';
/** A call of the JSON API: under /api/ but not the browsable reference (a page of its own). */
export const isApiCall = (url: string) => url.startsWith('/api/') && !url.startsWith(API_DOCS_PATH);

/**
 * The path as the router reads it: %-escapes decoded, so `/%61pi/gift-sender/me` is the API call it reaches (and
 * gets the API's headers, no-store among them); the URL as it came when an escape is malformed.
 */
export const routedPath = (url: string) => {
  if (!url.includes('%')) return url;
  try {
    return decodeURIComponent(url.split('?')[0] ?? url);
  } catch {
    return url;
  }
};

/** The security headers and caching of every answer, computed once (decisions 027 and 036). */
export interface ResponseHeaders {
  /** The API's JSON set (helmet's smaller set a JSON answer needs, and no-store). */
  readonly api: Readonly<Record<string, string>>;
  /** Puts an answer's headers: the JSON set on API calls, helmet's whole set elsewhere. */
  put(rawUrl: string, reply: FastifyReply): void;
}

/**
 * The browser security headers of the pages and files (helmet's, computed once: lib/security-headers.ts) and the
 * API's JSON answers' smaller set with no-store (decision 036). `webDistDir` is the built web app, or null.
 */
export function responseHeaders(opts: SecurityHeadersOptions): ResponseHeaders {
  const pages = securityHeaders(opts);
  const api: Record<string, string> = {
    ...helmetHeaders(apiHelmetOptions({ https: opts.https })),
    'cache-control': 'no-store',
  };
  return {
    api,
    put(rawUrl, reply) {
      const url = routedPath(rawUrl);
      if (isApiCall(url)) reply.headers(api);
      else {
        reply.headers(pages());
        if (url.startsWith('/api/')) reply.header('cache-control', 'no-store');
        else if (opts.webDistDir && !BACKEND_PATH.test(url)) reply.header('vary', 'Accept-Encoding');
      }
    },
  };
}
