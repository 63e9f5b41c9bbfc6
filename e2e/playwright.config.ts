import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from './support/chromium.ts';

// Browser tests against the built app served by the real server (started in global-setup.ts with a fresh
// SQLite data folder and a real local SMTP server). Run through `npm test` or `npm run test:e2e`.
// One id per `playwright test` run, inherited by its workers: two runs at once (two terminals, an editor and a
// script) keep their own server, runtime file and artifacts instead of wiping each other's.
process.env.E2E_RUN_ID ??= String(process.pid);

export default defineConfig({
  testDir: './tests',
  outputDir: `./.artifacts/test-results/${process.env.E2E_RUN_ID}`,
  globalSetup: './support/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: process.env.E2E_WORKERS ? Number(process.env.E2E_WORKERS) : 2,
  // In CI a browser test gets one more try, and the report names it "flaky": a real browser on a shared 2-core
  // machine has timing noise, and one slow tick must not sink a landing. Locally a failure is a failure.
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  projects: [
    // tests/scaled-out needs the scaled-out topology: it runs under playwright.scaled.config.ts.
    { name: 'journeys', testIgnore: ['scaled-out/**', '**/*.timing.spec.ts'] },
    // Specs that assert a time (camera ready to message in under 1.5 s) run after every other spec, alone
    // on the machine's two cores: beside another browser test their figure measures the neighbour, not the page.
    { name: 'timing', testMatch: '**/*.timing.spec.ts', dependencies: ['journeys'] },
  ],
  use: {
    browserName: 'chromium',
    // A spec whose camera must see a photo adds the fake camera's flags with `test.use({ camera: PHOTO })`
    // (support/fixtures.ts).
    launchOptions: {
      executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
