import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import helmet, { type HelmetOptions } from 'helmet';

export interface SecurityHeadersOptions {
  webDistDir: string | null;
  razorpay: boolean;
  /** PUBLIC_ORIGIN is https: HSTS, and insecure requests upgraded. */
  https: boolean;
  /** The bucket's origin when media is on S3 (uploads go there, media loads from there). */
  mediaOrigin?: string | null;
}

/**
 * The Content-Security-Policy the whole app runs under: only our own origin, the inline scripts of the built
 * shell by their hashes (the pre-rendered landing page's boot script), and the payment provider's origins only
 * when it is configured. Style attributes stay allowed ('unsafe-inline' for styles only: React's style props).
 */
export function contentSecurityPolicy(opts: SecurityHeadersOptions & { shellScripts: string[] }) {
  const bucket = opts.mediaOrigin ? [opts.mediaOrigin] : [];
  const razorpay = opts.razorpay ? ['https://checkout.razorpay.com', 'https://api.razorpay.com', 'https://*.razorpay.com'] : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...opts.shellScripts, ...(opts.razorpay ? ['https://checkout.razorpay.com'] : [])],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:', ...bucket],
    mediaSrc: ["'self'", 'blob:', ...bucket],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", ...razorpay, ...bucket],
    frameSrc: ["'self'", ...razorpay],
    workerSrc: ["'self'", 'blob:'],
    // No manifest-src: WebKit does not know it and logs an error on every page; default-src 'self' covers the manifest.
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    // On plain http (a developer's machine) upgrading would break every request.
    upgradeInsecureRequests: opts.https ? [] : null,
  };
}

/** HSTS on https: 180 days, subdomains too. */
const HSTS = { maxAge: 180 * 24 * 3600, includeSubDomains: true };

/** Helmet's options for the app: the CSP above, no framing, nosniff, a referrer policy, HSTS on https. */
export function helmetOptions(opts: SecurityHeadersOptions & { shellScripts: string[] }): HelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(opts) },
    hsts: opts.https ? HSTS : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Older browsers' framing guard says what frame-ancestors 'none' says: framed nowhere, not even by ourselves.
    xFrameOptions: { action: 'deny' },
    // Media and images are served to our own pages only; the service worker and the app are same-origin.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    // The payment provider's checkout may open a window (bank pages) that must be able to report back.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  };
}

/**
 * Helmet's options for the API's JSON answers (OWASP's REST set): a policy that lets a JSON answer opened as a page
 * load nothing and be framed nowhere, nosniff, the referrer policy, same-origin resources and HSTS on https. The
 * headers that only a document reads (opener policy, origin-agent cluster, DNS prefetch, the IE and Flash
 * headers, X-Frame-Options, which frame-ancestors supersedes) stay on the pages' answers: each header costs every
 * call (decision 036).
 */
export function apiHelmetOptions(opts: Pick<SecurityHeadersOptions, 'https'>): HelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    hsts: opts.https ? HSTS : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  };
}

export type HeaderSet = Readonly<Record<string, string>>;

/** The headers helmet sets for these options, found by running its middleware once on a recording response. */
export function helmetHeaders(options: HelmetOptions): HeaderSet {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error('helmet refused the security header options');
  });
  return Object.freeze(headers);
}

/**
 * The browser security headers of every answer, computed once (helmet's own header values) and again only when
 * the built shell's inline scripts change (a rebuild while the server runs): per request this is a cache look-up,
 * where @fastify/helmet rebuilt and revalidated the whole policy for every request (decision 027).
 */
export function securityHeaders(opts: SecurityHeadersOptions): () => HeaderSet {
  const shellScripts = inlineScriptHashes(opts.webDistDir);
  let key: string | null = null;
  let headers: HeaderSet = {};
  return () => {
    const scripts = shellScripts();
    const current = scripts.join(' ');
    if (current !== key) {
      headers = helmetHeaders(helmetOptions({ ...opts, shellScripts: scripts }));
      key = current;
    }
    return headers;
  };
}

/**
 * 'sha256-…' of every inline <script> in the built index.html (none when the app is not built), read again only
 * when the file changes (a rebuild while the server runs), checked at most once a second.
 */
export function inlineScriptHashes(webDistDir: string | null): () => string[] {
  const file = webDistDir ? path.join(webDistDir, 'index.html') : null;
  let seen = -1;
  let checkedAt = 0;
  let hashes: string[] = [];
  return () => {
    if (!file) return [];
    // Every answer carries the header: the file is looked at no more than once a second.
    const now = Date.now();
    if (now - checkedAt < 1000) return hashes;
    checkedAt = now;
    if (!existsSync(file)) return (hashes = []);
    const mtime = statSync(file).mtimeMs;
    if (mtime !== seen) {
      const html = readFileSync(file, 'utf8');
      hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
        (m) => `'sha256-${createHash('sha256').update(m[1] ?? '').digest('base64')}'`,
      );
      seen = mtime;
    }
    return hashes;
  };
}
