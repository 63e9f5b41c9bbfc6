import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import {
  CreateMerchantGiftResponse,
  merchantApi,
  MerchantGiftStatusResponse,
  staffMerchantApi,
  StaffCreateMerchantResponse,
} from '@giftlens/contract/merchants';
import { staffApi, StaffVerifyResponse } from '@giftlens/contract/staff';
import { expectOk } from '../../support/api.ts';
import { COVER_001, expect, uniqueEmail } from '../../support/fixtures.ts';
import { waitForCode, waitForMail } from '../../support/mailbox.ts';
import { GIFT_PHOTOS_DIR, paths } from '../../support/paths.ts';
import { testWithClock as test } from '../../support/test-clock.ts';
import { totp } from '../../support/totp.ts';

/**
 * The merchant API's journey in a browser (issue 39): a shop makes a gift through the API with its catalogue photo,
 * the buyer records a video through the e-mailed record link with the (fake) camera, and the recipient photographs
 * the product and watches the message with the shop's name around it, at 360 and 1280 px. A server of its own
 * (STAFF_EMAILS, to make the shop's key).
 */
const STAFF = 'merchant-staff@giftlens.test';
const VIEWPORTS = [
  { name: 'phone', width: 360, height: 740 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

test.use({ clockServerEnv: { STAFF_EMAILS: STAFF, WEBHOOK_ALLOW_HTTP_HOSTS: '127.0.0.1' }, camera: resolve(GIFT_PHOTOS_DIR, 'covers/photos/001-canon.jpg') });

let shop: StaffCreateMerchantResponse | null = null;

/** The shop's webhook endpoint (loopback http): each call's type and gift, and whether its signature checks out. */
const received: { type: string; giftId: string; signed: boolean }[] = [];
let webhookUrl = '';
let receiver: ReturnType<typeof createServer> | null = null;
test.afterAll(() => new Promise<void>((done) => (receiver ? receiver.close(() => done()) : done())));
test.beforeAll(async () => {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(req.headers['giftlens-signature'])) ?? [];
      const body = JSON.parse(raw) as { type: string; giftId: string };
      const signed = Boolean(shop && t && createHmac('sha256', shop.webhookSecret).update(`${t}.${raw}`).digest('hex') === v1);
      received.push({ type: body.type, giftId: body.giftId, signed });
      res.writeHead(200).end('ok');
    });
  });
  receiver = server;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/giftlens`;
});

/** Staff sign in through the API (e-mail code, authenticator enrolment) and make the shop, once per worker. */
async function theShop(api: APIRequestContext, mailDir: string): Promise<StaffCreateMerchantResponse> {
  if (shop) return shop;
  const since = Date.now();
  await api.post(staffApi.sendCode, { data: { email: STAFF } });
  const verified = await expectOk(await api.post(staffApi.verify, { data: { email: STAFF, code: await waitForCode(mailDir, STAFF, since) } }), StaffVerifyResponse);
  const secret = verified.totpEnrolment!.secret;
  expect((await api.post(staffApi.totpConfirm, { data: { totp: totp(secret, Date.now()) } })).ok()).toBe(true);
  shop = await expectOk(
    await api.post(staffMerchantApi.merchants, { data: { name: 'Shop', webhookUrl, reason: 'browser walk' } }),
    StaffCreateMerchantResponse,
  );
  return shop;
}

async function noSidewaysScroll(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${what}: wider than the screen`).toBeLessThanOrEqual(0);
}

for (const viewport of VIEWPORTS) {
  test.describe(`${viewport.width} px`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test(`a shop’s gift: made through the API, recorded through the record link, opened by photographing the product, the brand shown (${viewport.width} px)`, async ({
      page,
      playwright,
      baseURL,
      mailDir,
    }) => {
      // A video's conversion on a shared 2-core machine.
      test.setTimeout(240_000);
      const staff = await playwright.request.newContext({ baseURL });
      const { apiKey } = await theShop(staff, mailDir);
      const shopApi = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${apiKey}` } });

      const buyer = uniqueEmail('priya');
      const gift = await expectOk(
        await shopApi.post(merchantApi.gifts, {
          headers: { 'idempotency-key': `walk-${viewport.name}-${Date.now()}` },
          multipart: {
            orderId: `WALK-${viewport.name}`,
            buyerEmail: buyer,
            buyerName: 'Priya',
            recipientName: 'Ravi',
            occasion: 'birthday',
            planId: 'premium_us',
            productImage: { name: 'product.jpg', mimeType: 'image/jpeg', buffer: readFileSync(COVER_001) },
          },
        }),
        CreateMerchantGiftResponse,
      );
      expect(gift.status).toBe('awaiting_message');

      // The buyer's e-mail carries the record link.
      const mail = await waitForMail(mailDir, buyer, { timeoutMs: 30_000 });
      expect(mail.subject).toBe('Record your message for Ravi');
      expect(mail.text).toContain(gift.recordUrl);

      await page.goto(gift.recordUrl);
      await expect(page.getByRole('heading', { name: 'Your message for Ravi' })).toBeVisible();
      await expect(page.getByText('Shop', { exact: true })).toBeVisible();
      await noSidewaysScroll(page, 'record link');
      await page.getByRole('button', { name: 'Start recording' }).click();
      await expect(page.getByRole('button', { name: 'Stop recording' })).toBeEnabled();
      // Two seconds on the recorder's own clock (it ticks only while recording).
      await expect(page.getByRole('timer', { name: 'Recording time' })).toHaveText('00:02', { timeout: 20_000 });
      await page.getByRole('button', { name: 'Stop recording' }).click();
      await expect(page.getByLabel('Message preview')).toBeVisible();
      await page.getByRole('button', { name: 'Save my message' }).click();
      await expect(page.getByRole('heading', { name: 'Your message is saved' })).toBeVisible({ timeout: 60_000 });

      // Converted to MP4 by the job runner: the shop's status says ready.
      await expect
        .poll(async () => (await expectOk(await shopApi.get(merchantApi.gift(gift.giftId)), MerchantGiftStatusResponse)).status, {
          message: 'the message to be converted',
          timeout: 180_000,
          intervals: [1_000],
        })
        .toBe('ready');

      // The recipient opens the gift link, sees the shop, photographs the product and watches the message.
      await page.goto(paths.shareLink.href(gift.giftId));
      await expect(page.getByRole('heading', { name: 'Hi Ravi!' })).toBeVisible();
      const brand = page.getByTestId('gift-brand');
      await expect(brand).toHaveText('A message from Priya, with your order from Shop');
      await noSidewaysScroll(page, 'greeting');
      await page.getByRole('button', { name: 'Start the Magic' }).click();
      await expect(page).toHaveURL(paths.giftMessage.href(gift.giftId), { timeout: 30_000 });
      await expect(page.getByRole('heading', { name: 'A Special Message For You' })).toBeVisible();
      await expect(page.getByTestId('gift-brand')).toHaveText('A message from Priya, with your order from Shop');
      await page.getByRole('button', { name: 'Play message' }).click();
      await expect
        .poll(() => page.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 })
        .toBeGreaterThan(0.2);
      await noSidewaysScroll(page, 'message');
      await expect
        .poll(async () => (await expectOk(await shopApi.get(merchantApi.gift(gift.giftId)), MerchantGiftStatusResponse)).status, { timeout: 15_000 })
        .toBe('opened');
      // The shop heard of each step, signed with its secret.
      await expect
        .poll(() => received.filter((r) => r.giftId === gift.giftId && r.signed).map((r) => r.type).sort(), { timeout: 15_000 })
        .toEqual(['gift.message_ready', 'gift.opened']);
    });
  });
}
