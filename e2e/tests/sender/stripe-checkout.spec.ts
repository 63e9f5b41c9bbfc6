import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, type BrowserContext } from '@playwright/test';
import { startStripeStandIn, type StripeStandIn } from '../../../apps/server/test/helpers/stripe-stand-in.ts';
import { COVER_001, expect, test, uniqueEmail } from '../../support/fixtures.ts';
import { startAppServer } from '../../support/global-setup.ts';
import { paths } from '../../support/paths.ts';
import { addMessage, setFirstName, signIn, submitGift } from '../../support/sender-api.ts';
import { stopProcess } from '../../support/processes.ts';
import { startSmtpServer } from '../../support/smtp.ts';

// USD checkout through Stripe Checkout, on a 360 px phone: a server of its own with STRIPE_* keys, its Stripe API
// pointed at a loopback stand-in whose hosted page pays, sends the signed webhook and redirects back, as Stripe does.
test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

let server: ChildProcess;
let standIn: StripeStandIn;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let dataDir: string;
let appURL: string;

test.beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'giftlens-e2e-stripe-'));
  smtp = await startSmtpServer(join(dataDir, 'received-mail'));
  standIn = await startStripeStandIn();
  // The stand-in's hosted page posts the signed webhook to the server once the server's address is known.
  ({ server, baseURL: appURL } = await startAppServer({
    dataDir,
    smtpPort: smtp.port,
    env: { STRIPE_SECRET_KEY: standIn.secretKey, STRIPE_WEBHOOK_SECRET: standIn.webhookSecret, STRIPE_API_URL: standIn.url },
  }));
  standIn.webhookUrl = `${appURL}/api/payment/stripe-webhook`;
});

test.afterAll(async () => {
  await stopProcess(server);
  await standIn.close();
  await smtp.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A new sender's USD gift with a text message, ready to pay, made through the API; the browser context signed in as that sender. */
async function readyUsdGift(context: BrowserContext, planId: 'premium_us' | 'lifetime_us') {
  const api = await request.newContext({ baseURL: appURL });
  try {
    const senderEmail = uniqueEmail('stripe-giver');
    await signIn(api, join(dataDir, 'received-mail'), senderEmail);
    await setFirstName(api, senderEmail, 'Asha');
    const giftId = await submitGift(api, {
      photo: COVER_001,
      planId,
      recipientName: 'Ravi',
      recipientEmail: uniqueEmail('stripe-recipient'),
    });
    await addMessage(api, giftId, { kind: 'text', text: 'Happy birthday!' });
    await context.addCookies((await api.storageState()).cookies);
    return { giftId };
  } finally {
    await api.dispose();
  }
}

test('a USD gift is paid on Stripe’s page and comes back verified to the share page', async ({ page, context }) => {
  const gift = await readyUsdGift(context, 'premium_us');

  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.goto(new URL(paths.checkout.href(gift.giftId), appURL).href);
  await expect(page.getByText('Secure payment by Stripe')).toBeVisible();
  const pay = page.getByRole('button', { name: 'Pay $1.99' });
  await expect(pay).toBeVisible();
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.screenshot({ path: test.info().outputPath('checkout-360.png'), fullPage: true });

  await pay.click();
  await expect(page).toHaveURL(new RegExp(`^${standIn.url}/pay/cs_test_`));
  await expect(page.getByTestId('amount')).toHaveText('1.99 USD');
  await page.getByRole('button', { name: 'Pay 1.99 USD' }).click();

  await expect(page).toHaveURL(new RegExp(`/payment-success/${gift.giftId}/stripe/cs_test_`));
  await expect(page.getByRole('heading', { name: 'Payment successful!' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('verified-360.png'), fullPage: true });
  await expect(page).toHaveURL(new URL(paths.share.href(gift.giftId), appURL).href);
  expect(violations).toEqual([]);
  // The stand-in's webhook reached the server too (a second, idempotent proof).
  expect([...standIn.sessions.values()].filter((s) => s.payment_status === 'paid')).toHaveLength(1);
});

test('cancelling on Stripe’s page comes back to the checkout, which offers the same session again', async ({ page, context }) => {
  const gift = await readyUsdGift(context, 'lifetime_us');
  await page.goto(new URL(paths.checkout.href(gift.giftId), appURL).href);
  await page.getByRole('button', { name: 'Pay $2.99' }).click();
  await expect(page).toHaveURL(new RegExp(`^${standIn.url}/pay/`));
  const first = page.url();
  await page.getByRole('link', { name: 'Cancel and go back' }).click();
  await expect(page).toHaveURL(new URL(paths.checkout.href(gift.giftId), appURL).href);
  await page.getByRole('button', { name: 'Pay $2.99' }).click();
  await expect(page).toHaveURL(first);
});
