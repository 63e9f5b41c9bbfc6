import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test as base, expect, request, type APIRequestContext, type Cookie } from '@playwright/test';
import type { PlanId } from '@giftlens/contract/plans';
import { AXE_BINDING, AXE_CHECK_NOW, axeInitScript, describeViolations, type AxeReport } from './axe.ts';
import { fakeCameraArgs } from './camera.ts';
import { GIFT_PHOTOS_DIR, RUNTIME_FILE, type E2ERuntime } from './paths.ts';
import {
  addMessage,
  pay,
  setFirstName,
  signIn,
  submitGift,
  waitForMessageReady,
  type Message,
} from './sender-api.ts';

function runtime(): E2ERuntime {
  return JSON.parse(readFileSync(RUNTIME_FILE, 'utf8')) as E2ERuntime;
}

/** A unique e-mail address per call, so tests never share a sender or recipient. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** DVD cover 001 as its sender photographed it: the gift of most tests (phone photos of it are in covers/photos). */
export const COVER_001 = resolve(GIFT_PHOTOS_DIR, 'covers/reference/001.jpg');

export interface GiftOptions {
  /** The sender's photo of the gift (default: cover 001). */
  photo?: string;
  /** Default: Premium (US). */
  planId?: PlanId;
  /** Default: Ravi. */
  recipientName?: string;
  /** Default: a unique address. */
  recipientEmail?: string;
  /** Default: Asha. */
  senderName?: string;
}

export interface PaidGiftOptions extends GiftOptions {
  message: Message;
}

/** A gift made through the API by a new sender of its own. */
export interface SenderGift {
  giftId: string;
  senderEmail: string;
  recipientEmail: string;
  /** The sender's session cookie, to continue as that sender in a browser (`context.addCookies`). */
  senderCookies: Cookie[];
  /** An API context holding the sender's session (disposed after the test): My Gifts' calls as that sender. */
  sender: APIRequestContext;
}

/** A sender who verified their e-mail and gave a first name moments ago, on another device. */
export interface ReturningSender {
  email: string;
  firstName: string;
}

interface TestFixtures {
  /** Where the real SMTP server the global setup started writes what it receives (read with mailbox.ts). */
  mailDir: string;
  failOnConsoleError: void;
  /**
   * axe-core's WCAG 2.2 A/AA rules on every screen the test's pages show (support/axe.ts) and on the one it ends
   * on; any violation fails the test. A spec that means to show a screen axe must not judge can turn it off with
   * `test.use({ axe: false })`, saying why.
   */
  failOnAxeViolation: void;
  axe: boolean;
  /**
   * Makes a gift the way the wizard does, through the server's API only: a new sender signs in with the e-mail
   * code, gives a first name, sends the gift's details and photo and the message (an uploaded file is converted
   * before the payment), and pays with the test checkout.
   */
  paidGift: (options: PaidGiftOptions) => Promise<SenderGift>;
  /** The same up to the photo: the wizard's state just before the message step. */
  draftGift: (options?: GiftOptions) => Promise<SenderGift>;
  returningSender: ReturningSender;
}

interface WorkerFixtures {
  /**
   * The photo Chromium's fake camera sees (front and rear: one device), set per spec file with
   * `test.use({ camera: PHOTO })`; none by default. It is a launch option, so such a file gets a browser (and a
   * worker) of its own.
   */
  camera: string | undefined;
}

/** The binding through which every document of a test's context reports its CSP violations. */
const CSP_VIOLATION_BINDING = '__giftlensCspViolation';

/** What a page reports of a `securitypolicyviolation` event. */
interface CspViolation {
  disposition: string;
  violatedDirective: string;
  blockedURI: string;
  sourceFile: string;
  lineNumber: number;
  columnNumber: number;
  sample: string;
}

/**
 * Runs in every document before its own scripts (an init script): hands each `securitypolicyviolation` to the
 * binding. It is serialized into the page, so it uses nothing from this module.
 */
function reportCspViolations(binding: string): void {
  document.addEventListener(
    'securitypolicyviolation',
    (e) => {
      const report = (window as unknown as Record<string, (v: CspViolation) => Promise<void>>)[binding];
      void report?.({
        disposition: e.disposition,
        violatedDirective: e.violatedDirective,
        blockedURI: e.blockedURI,
        sourceFile: e.sourceFile,
        lineNumber: e.lineNumber,
        columnNumber: e.columnNumber,
        sample: e.sample,
      });
    },
    true,
  );
}

/**
 * The project's test: baseURL points at the server the global setup started, data is made through its API, and a
 * console error, an uncaught page error or a Content-Security-Policy violation fails the test. A violation is caught
 * from the `securitypolicyviolation` event, in every page and frame of the test's context: Chromium prints nothing
 * to the console for some (a blocked `new Function` whose EvalError the page catches, as Zod's eval probe does).
 */
export const test = base.extend<TestFixtures, WorkerFixtures>({
  camera: [undefined, { scope: 'worker', option: true }],
  launchOptions: [
    async ({ launchOptions, camera }, use) => {
      await use(camera ? { ...launchOptions, args: [...(launchOptions.args ?? []), ...fakeCameraArgs(camera)] } : launchOptions);
    },
    { scope: 'worker' },
  ],
  baseURL: async ({}, use) => {
    await use(runtime().baseURL);
  },
  mailDir: async ({}, use) => {
    await use(runtime().mailDir);
  },
  failOnConsoleError: [
    async ({ page, context }, use) => {
      const errors: string[] = [];
      const violations: string[] = [];
      await context.exposeBinding(CSP_VIOLATION_BINDING, ({ frame }, v: CspViolation) => {
        violations.push(
          `${v.disposition} ${v.violatedDirective} blocked ${v.blockedURI || '(none)'} at ` +
            `${v.sourceFile || '(no source)'}:${v.lineNumber}:${v.columnNumber} on ${frame.url()}` +
            (v.sample ? ` (sample: ${v.sample})` : ''),
        );
      });
      await context.addInitScript(reportCspViolations, CSP_VIOLATION_BINDING);
      page.on('console', (msg) => {
        // A 4xx answer is an expected outcome the page handles (wrong code, 429...); Chromium still logs it. So is a
        // live frame's 503: the server turns live frames away whenever its matcher has a queue (decision 029).
        const expected =
          /status of 4\d\d/.test(msg.text()) ||
          (/status of 503/.test(msg.text()) && msg.location().url.includes('/live-frame'));
        if (msg.type() === 'error' && !expected) errors.push(msg.text());
      });
      page.on('pageerror', (err) => errors.push(err.message));
      await use();
      expect(errors, 'console errors during the test').toEqual([]);
      expect(violations, 'CSP violations (securitypolicyviolation events) during the test').toEqual([]);
    },
    { auto: true },
  ],
  axe: [true, { option: true }],
  failOnAxeViolation: [
    async ({ page, context, axe }, use, testInfo) => {
      if (!axe) return use();
      const reports: AxeReport[] = [];
      await context.exposeBinding(AXE_BINDING, (_source, report: AxeReport) => {
        reports.push(report);
      });
      await context.addInitScript({ content: axeInitScript() });
      await use();
      // The screen the test ends on, as it is now (its last state may never have been quiet for long).
      if (!page.isClosed()) {
        await page
          .evaluate(async (name) => {
            await (window as unknown as Record<string, (() => Promise<void>) | undefined>)[name]?.();
          }, AXE_CHECK_NOW)
          .catch((err: unknown) => {
            // Only a page that went away meanwhile (closed, or navigating) has no last screen to check.
            if (!/closed|Execution context was destroyed|navigat/i.test(String(err))) throw err;
          });
      }
      const ms = reports.map((r) => r.ms);
      // E2E_AXE_LOG=1 prints what the checks cost, one line per test.
      if (process.env.E2E_AXE_LOG) console.log(`axe: ${testInfo.title}: ${reports.length} screens, ms ${ms.join(' ')}`);
      await testInfo.attach('axe', {
        contentType: 'application/json',
        body: JSON.stringify({ screens: reports.map((r) => ({ screen: r.screen, ms: r.ms, violations: r.violations.length })), ms }),
      });
      expect(describeViolations(reports), `axe-core (WCAG 2.2 AA) violations on the ${reports.length} screens checked`).toEqual([]);
    },
    { auto: true },
  ],
  draftGift: async ({ baseURL, mailDir }, use) => {
    const senders: APIRequestContext[] = [];
    await use(async (options = {}) => {
      const sender = await request.newContext({ baseURL });
      senders.push(sender);
      return makeGift(sender, mailDir, options, null);
    });
    for (const sender of senders) await sender.dispose();
  },
  paidGift: async ({ baseURL, mailDir }, use) => {
    const senders: APIRequestContext[] = [];
    await use(async ({ message, ...options }) => {
      const sender = await request.newContext({ baseURL });
      senders.push(sender);
      return makeGift(sender, mailDir, options, message);
    });
    for (const sender of senders) await sender.dispose();
  },
  returningSender: async ({ baseURL, mailDir }, use) => {
    const sender = await request.newContext({ baseURL });
    const returning = { email: uniqueEmail('returning'), firstName: 'Meera' };
    try {
      await signIn(sender, mailDir, returning.email);
      await setFirstName(sender, returning.email, returning.firstName);
    } finally {
      await sender.dispose();
    }
    await use(returning);
  },
});

/** A new sender's gift on `sender`, with its message and payment when a message is given. */
async function makeGift(
  sender: APIRequestContext,
  mailDir: string,
  options: GiftOptions,
  message: Message | null,
): Promise<SenderGift> {
  const senderEmail = uniqueEmail('giver');
  const recipientEmail = options.recipientEmail ?? uniqueEmail('recipient');
  await signIn(sender, mailDir, senderEmail);
  await setFirstName(sender, senderEmail, options.senderName ?? 'Asha');
  const giftId = await submitGift(sender, {
    photo: options.photo ?? COVER_001,
    planId: options.planId ?? 'premium_us',
    recipientName: options.recipientName ?? 'Ravi',
    recipientEmail,
  });
  if (message) {
    await addMessage(sender, giftId, message);
    if (message.kind !== 'text') await waitForMessageReady(sender, giftId);
    await pay(sender, giftId);
  }
  return { giftId, senderEmail, recipientEmail, senderCookies: (await sender.storageState()).cookies, sender };
}

export { expect };
