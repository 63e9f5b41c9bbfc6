import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The production build (scripts/lib/server-build.mjs, decision 022) loads an optional feature's npm package only
 * when the feature is configured: no static import of stripe, ioredis, the AWS SDK or a database driver is reachable
 * from main.js or worker.js, so a start without them never reads their files.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const OPTIONAL = [
  'stripe',
  'ioredis',
  '@aws-sdk/client-s3',
  '@aws-sdk/s3-request-presigner',
  'pg',
  'better-sqlite3',
];

let parent: string;
let dist: string;
beforeAll(() => {
  parent = mkdtempSync(path.join(tmpdir(), 'giftlens-server-build-'));
  dist = path.join(parent, 'dist');
  // In a process of its own (the build script is plain JavaScript), into a folder of its own: apps/server/dist is
  // not touched.
  const build = `import { buildServer } from ${JSON.stringify(path.join(root, 'scripts/lib/server-build.mjs'))};
await buildServer({ outdir: ${JSON.stringify(dist)} });`;
  execFileSync(process.execPath, ['--input-type=module', '-e', build], { stdio: 'inherit' });
});
afterAll(() => rmSync(parent, { recursive: true, force: true }));

const read = (file: string) => readFileSync(path.join(dist, file), 'utf8');
/** `import … from "x"`, `import "x"` and `export … from "x"` at the start of a line: what loads with the module. */
const staticImports = (code: string) =>
  [...code.matchAll(/^(?:import\s*"([^"]+)"|(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)")/gm)].map(
    (m) => (m[1] ?? m[2])!,
  );
const dynamicImports = (code: string) => [...code.matchAll(/\bimport\("([^"]+)"\)/g)].map((m) => m[1]!);

/** Every module an entry loads before its first line runs: its own chunks (followed) and npm packages. */
function loadedWith(entry: string): { chunks: Set<string>; packages: Set<string> } {
  const chunks = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (chunks.has(file)) return;
    chunks.add(file);
    for (const spec of staticImports(read(file))) {
      if (spec.startsWith('./')) visit(spec.slice(2));
      else packages.add(spec);
    }
  };
  visit(entry);
  return { chunks, packages };
}

describe('the compiled server', () => {
  it.each(['main.js', 'worker.js'])('%s loads no optional package at start', (entry) => {
    const { packages } = loadedWith(entry);
    expect(packages.size).toBeGreaterThan(5); // the walk found the shared chunk's imports (fastify, kysely, …)
    for (const name of OPTIONAL) expect(packages, name).not.toContain(name);
  });

  it('keeps each optional package behind an import() of the code that needs it', () => {
    const { chunks } = loadedWith('main.js');
    const lazy = [...chunks].flatMap((file) => dynamicImports(read(file)));
    expect(lazy).toEqual(expect.arrayContaining(['ioredis', 'pg', 'better-sqlite3']));
    const stripeChunk = lazy.find((spec) => /^\.\/stripe-\w+\.js$/.test(spec));
    const s3Chunk = lazy.find((spec) => /^\.\/media-storage-s3-\w+\.js$/.test(spec));
    expect(stripeChunk, 'a chunk of its own for adapters/stripe.ts').toBeDefined();
    expect(s3Chunk, 'a chunk of its own for adapters/media-storage-s3.ts').toBeDefined();
    expect(loadedWith(stripeChunk!.slice(2)).packages).toContain('stripe');
    expect(loadedWith(s3Chunk!.slice(2)).packages).toContain('@aws-sdk/client-s3');
  });
});
