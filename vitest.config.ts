import { defineConfig } from 'vitest/config';

// Unit, service and HTTP tests (browser tests live in e2e/ and run under Playwright).
export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/server/test/**/*.test.ts', 'apps/web/src/**/*.test.{ts,tsx}'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
