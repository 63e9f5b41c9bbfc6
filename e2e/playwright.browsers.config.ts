import { defineConfig } from '@playwright/test';

// The smoke suites in Firefox ESR (puppeteer-core, WebDriver BiDi) and WebKitGTK (selenium-webdriver, WebKitWebDriver)
// against the built app and the real server (global-setup.ts, as the Chromium tests): `npm run test:browsers`.
process.env.E2E_RUN_ID ??= String(process.pid);

export default defineConfig({
  testDir: './browsers',
  testMatch: '**/*.smoke.spec.ts',
  outputDir: `./.artifacts/test-results/${process.env.E2E_RUN_ID}`,
  globalSetup: './support/global-setup.ts',
  timeout: 90_000,
  // One browser per worker at a time: Firefox's suite and WebKit's run side by side.
  workers: 2,
  fullyParallel: false,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
});
