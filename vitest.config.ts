import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { CHROMIUM_ARGS } from './e2e/support/chromium.ts';

/**
 * Two Vitest projects; `npx vitest run` (and `npm test`) runs both.
 *
 * - `node`: unit, service and HTTP tests (`*.test.ts`), in Node; also the repository's scripts' own (`scripts/**`).
 * - `web-browser`: component and hook tests of the web app (`apps/web/src/**\/*.browser.test.{ts,tsx}`), in a
 *   real headless Chromium driven by Playwright, with the web app's own Vite config (React, Tailwind).
 *   Write them with `vitest-browser-react` (`render`, `renderHook`) and `page` / `userEvent` from
 *   `vitest/browser` (`expect.element(...)` retries until the page shows what it asserts). Run one file with
 *   `npx vitest run --project web-browser <file>`.
 *
 * The browser is the system Chromium (CHROME_PATH, else /usr/bin/chromium), never a downloaded one; it gets a
 * fake camera (a generated test pattern) that answers getUserMedia without a prompt.
 * End-to-end tests of the built app live in e2e/ and run under Playwright itself.
 */
const chromium = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        test: {
          name: 'node',
          include: [
            'packages/*/test/**/*.test.ts',
            'apps/server/test/**/*.test.ts',
            'apps/web/src/**/*.test.{ts,tsx}',
            'scripts/**/*.test.ts',
            'lint/**/*.test.ts',
            'e2e/support/**/*.test.ts',
          ],
          exclude: ['**/node_modules/**', 'apps/web/src/**/*.browser.test.{ts,tsx}'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        extends: './apps/web/vite.config.ts',
        test: {
          name: 'web-browser',
          include: ['apps/web/src/**/*.browser.test.{ts,tsx}'],
          testTimeout: 30_000,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: {
                executablePath: chromium,
                // The sandbox's flags (shared with e2e/), plus Chromium's generated fake camera, granted without a prompt.
                args: [...CHROMIUM_ARGS, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
              },
              contextOptions: { permissions: ['camera'] },
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
