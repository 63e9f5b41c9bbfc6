import { resolve } from 'node:path';
import { expect, test } from '../../support/fixtures.ts';
import { API, atRoute, paths, REPO_DIR } from '../../support/paths.ts';

// The visitor holds the phone over the demo gift shown on another screen: the fake camera sees that picture.
test.use({ camera: resolve(REPO_DIR, 'apps/web/public/demo-media/birthday-gift.jpg') });

const DEMO = 'birthday';

test('the demo: show the gift, the camera recognises it and Maya’s message plays', async ({ page }) => {
  await page.goto(paths.demo.href());
  await expect(page.getByRole('heading', { level: 1, name: 'Try the magic in one minute' })).toBeVisible();
  await expect(page.getByRole('img', { name: /The demo gift/ })).toBeVisible();
  await page.getByRole('link', { name: 'Open the demo camera' }).click();

  // Full-screen camera: no navigation bar; the photo is taken by itself once the camera has warmed up.
  await expect(page).toHaveURL(paths.demoScan.href(DEMO));
  await expect(page.getByRole('heading', { name: 'Scan the demo gift' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  // The hint over the picture is the real scanner's: on a dark pill, readable on any gift.
  const hint = page.getByRole('status').filter({ hasText: /Starting the camera|Looking for the gift|Fill the frame/ });
  await expect(hint).toBeVisible();
  const backdrop = await hint.evaluate((el) => getComputedStyle(el).backgroundColor);
  // rgba(0, 0, 0, 0.6), or a modern colour syntax with "/ alpha"; a colour without alpha is opaque.
  const alphaText = /\/\s*([\d.]+)\)$/.exec(backdrop)?.[1] ?? /^rgba\((?:[\d.]+,\s*){3}([\d.]+)\)$/.exec(backdrop)?.[1];
  const alpha = alphaText === undefined ? (backdrop === 'transparent' ? 0 : 1) : Number(alphaText);
  expect(alpha, `the hint's backdrop ${backdrop}`).toBeGreaterThanOrEqual(0.5);
  const scan = page.waitForRequest((r) => new URL(r.url()).pathname === API.demoScan(DEMO) && r.method() === 'POST');
  const request = await scan;
  expect(request.headers()['content-type']).toMatch(/^multipart\/form-data/);

  await expect(page).toHaveURL(paths.demoMessage.href(DEMO), { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'A Special Message For You' })).toBeVisible();
  await expect(page.getByText('From Maya', { exact: true })).toBeVisible();
  const video = page.locator('video');
  await expect(video).toHaveAttribute('controlslist', /nodownload/);
  await page.getByRole('button', { name: 'Play the message from Maya' }).click();
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.2);
});

test('an unknown demo scanner answer (404) leads to the message instead of an error', async ({ page }) => {
  await page.route(atRoute({ pattern: API.demoScan(':demoId') }), (route) =>
    route.fulfill({ status: 404, contentType: 'application/json', body: '{"success":false,"error":"Not found","code":"not_found"}' }),
  );
  await page.goto(paths.demoScan.href(DEMO));
  await expect(page.getByRole('heading', { name: 'The demo scanner is resting' })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('link', { name: 'Watch the message instead' }).click();
  await expect(page).toHaveURL(paths.demoMessage.href(DEMO));
});
