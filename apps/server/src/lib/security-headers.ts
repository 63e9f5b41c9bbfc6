import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The Content-Security-Policy the whole app runs under: only our own origin, the one inline script of the built
 * shell by its hash (the pre-rendered landing page's boot script), and the payment provider's origins only when
 * it is configured. Style attributes stay allowed ('unsafe-inline' for styles only: React's style props).
 * `mediaOrigin`: the bucket's origin when media is on S3 (uploads go there, media loads from there).
 */
export function contentSecurityPolicy(opts: {
  webDistDir: string | null;
  razorpay: boolean;
  https: boolean;
  mediaOrigin?: string | null;
}) {
  const shellScripts = inlineScriptHashes(opts.webDistDir);
  const bucket = opts.mediaOrigin ? [opts.mediaOrigin] : [];
  const razorpay = opts.razorpay ? ['https://checkout.razorpay.com', 'https://api.razorpay.com', 'https://*.razorpay.com'] : [];
  return {
    defaultSrc: ["'self'"],
    // A function: the hash follows a rebuilt shell without a restart.
    scriptSrc: ["'self'", () => shellScripts().join(' '), ...(opts.razorpay ? ['https://checkout.razorpay.com'] : [])],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:', ...bucket],
    mediaSrc: ["'self'", 'blob:', ...bucket],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", ...razorpay, ...bucket],
    frameSrc: ["'self'", ...razorpay],
    workerSrc: ["'self'", 'blob:'],
    manifestSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    // On plain http (a developer's machine) upgrading would break every request.
    upgradeInsecureRequests: opts.https ? [] : null,
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
