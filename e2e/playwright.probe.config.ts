import { defineConfig } from '@playwright/test';

// The probe's own reproductions of issue 37 (npm run probe:edges): each starts the built server itself, with
// TRUST_PROXY=1 on a loopback port and its own DATA_DIR, and prints figures. Not part of `npm test`: a run takes
// minutes of ffmpeg on purpose.
process.env.E2E_RUN_ID ??= String(process.pid);

export default defineConfig({
  testDir: './probe',
  testMatch: '*.probe.ts',
  outputDir: `./.artifacts/test-results/probe-${process.env.E2E_RUN_ID}`,
  timeout: 15 * 60_000,
  expect: { timeout: 30_000 },
  workers: 1,
  reporter: [['list']],
});
