import { test as base, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { RUNTIME_FILE, type E2ERuntime } from './paths.ts';

function runtime(): E2ERuntime {
  return JSON.parse(readFileSync(RUNTIME_FILE, 'utf8')) as E2ERuntime;
}

/**
 * The project's test: baseURL points at the server the global setup started, `mailDir` holds what the real
 * SMTP server received, and a console error or an uncaught page error fails the test.
 */
export const test = base.extend<{ mailDir: string; failOnConsoleError: void }>({
  baseURL: async ({}, use) => {
    await use(runtime().baseURL);
  },
  mailDir: async ({}, use) => {
    await use(runtime().mailDir);
  },
  failOnConsoleError: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (msg) => {
        // A 4xx answer is an expected outcome the page handles (wrong code, 429...); Chromium still logs it.
        if (msg.type() === 'error' && !/status of 4\d\d/.test(msg.text())) errors.push(msg.text());
      });
      page.on('pageerror', (err) => errors.push(err.message));
      await use();
      expect(errors, 'console errors during the test').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** A unique e-mail address per test run, so tests never share a sender or recipient. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}
