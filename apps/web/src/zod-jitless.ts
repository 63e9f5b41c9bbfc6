// The server's Content-Security-Policy has no 'unsafe-eval'. Zod 4 compiles a fast object parser with
// `new Function`, and first probes whether eval is allowed: the probe's EvalError is caught, so parsing works, but
// Chromium still fires a `securitypolicyviolation` (and CSP reports) on every page. Jitless mode skips both the probe
// and the compiled parser. Zod reads the flag when an object schema is built, and @giftlens/contract builds its
// schemas at module load, so main.tsx imports this module first: every module that builds a schema evaluates after
// it (the lazily loaded routes' chunks too, which only load once the entry has run).
//
// Zod keeps its settings in `globalThis.__zod_globalConfig` (shared by every copy of zod on the page; `z.config()`
// writes there), so the flag is set there without importing zod: the first bundle of every page stays without it
// (decision 046). zod-jitless.test.ts checks that zod reads it.
declare global {
  var __zod_globalConfig: { jitless?: boolean } | undefined;
}

globalThis.__zod_globalConfig ??= {};
globalThis.__zod_globalConfig.jitless = true;

export {};
