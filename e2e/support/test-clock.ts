import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, request } from '@playwright/test';
import { test } from './fixtures.ts';
import { startAppServer } from './global-setup.ts';
import { TEST_CLOCK } from './paths.ts';
import { stopProcess } from './processes.ts';
import { startSmtpServer } from './smtp.ts';

/** The server's clock, as a spec moves it. */
export interface ServerClock {
  /**
   * Moves the server's clock (and its job runner's) forward to `instant` (epoch ms); answers the server's time then
   * and how far ahead of this machine's clock it runs from now on.
   */
  advanceTo(instant: number): Promise<{ now: number; aheadMs: number }>;
}

interface ClockServer {
  baseURL: string;
  mailDir: string;
}

/**
 * The project's test against a server of the spec file's own, started with a test clock (TEST_CLOCK=1, which the
 * server accepts only with the test checkout on a loopback origin): a spec moves that clock forward instead of
 * waiting for an instant. A server of its own, like the Stripe spec's, because moving the shared server's clock
 * would age the codes, reveal grants and signed links of the tests running beside it. `baseURL`, `mailDir` and the
 * gift fixtures point at it.
 */
export const testWithClock = test.extend<
  { serverClock: ServerClock },
  { clockServer: ClockServer; clockServerEnv: Record<string, string>; refusedRecipients: Set<string> }
>({
  /** More of the server's configuration, for a spec file (`test.use({ clockServerEnv: { STAFF_EMAILS: … } })`). */
  clockServerEnv: [{}, { scope: 'worker', option: true }],
  /** Addresses (lowercased) its SMTP server refuses with a 550 while they are in the set: a delivery that fails. */
  refusedRecipients: [
    async ({}, use) => {
      await use(new Set<string>());
    },
    { scope: 'worker' },
  ],
  clockServer: [
    async ({ clockServerEnv, refusedRecipients }, use) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'giftlens-e2e-clock-'));
      const mailDir = join(dataDir, 'received-mail');
      const smtp = await startSmtpServer(mailDir, { refuse: (address) => refusedRecipients.has(address) });
      try {
        const { server, baseURL } = await startAppServer({
          dataDir,
          smtpPort: smtp.port,
          env: { ...clockServerEnv, TEST_CLOCK: '1' },
        });
        try {
          await use({ baseURL, mailDir });
        } finally {
          await stopProcess(server);
        }
      } finally {
        await smtp.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  baseURL: async ({ clockServer }, use) => {
    await use(clockServer.baseURL);
  },
  mailDir: async ({ clockServer }, use) => {
    await use(clockServer.mailDir);
  },
  serverClock: async ({ clockServer }, use) => {
    const api = await request.newContext({ baseURL: clockServer.baseURL });
    await use({
      async advanceTo(instant) {
        const asked = Date.now();
        const res = await api.post(TEST_CLOCK, { data: { to: new Date(instant).toISOString() } });
        const answered = Date.now();
        expect(res.ok(), `${TEST_CLOCK} → ${res.status()} ${await res.text()}`).toBe(true);
        const now = Date.parse(((await res.json()) as { now: string }).now);
        expect(now).toBeGreaterThanOrEqual(instant);
        // The server read its clock between the request and the answer: the middle is within a few ms.
        return { now, aheadMs: now - (asked + answered) / 2 };
      },
    });
    await api.dispose();
  },
});
