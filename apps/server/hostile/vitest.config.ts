import path from 'node:path';
import { defineConfig } from 'vitest/config';

// The hostile-input and fault runs (`npm run test:fuzz`, `npm run test:faults`): long, so apart from `vitest run`.
export default defineConfig({
  root: path.resolve(import.meta.dirname, '../../..'),
  test: {
    include: ['apps/server/hostile/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One file at a time: each drives a whole app (or server processes) flat out on a shared machine.
    fileParallelism: false,
  },
});
