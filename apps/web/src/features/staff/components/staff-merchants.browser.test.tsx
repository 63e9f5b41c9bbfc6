import { merchantTexts, staffMerchantApi, type StaffMerchantsResponse } from '@giftlens/contract/merchants';
import { staffApi } from '@giftlens/contract/staff';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { sentBody, serveJson } from '../../../test/serve-json.ts';
import { StaffConsole } from './staff-console.tsx';

const ME = { success: true, email: 'staff@giftlens.test', expiresAt: '2026-11-27T01:00:00.000Z' };
const SHOP = '0123456789abcdef0123456789abcdef';
const LIST: StaffMerchantsResponse = {
  merchants: [
    { id: SHOP, name: 'Shop', displayName: null, brandColour: null, logoUrl: null, webhookUrl: 'https://shop.example/hook', keyPrefix: 'gl_live_AbCd', createdAt: '2026-11-20T10:00:00.000Z' },
  ],
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Staff console, merchants (Chromium)', () => {
  test('lists shops by key prefix; a new shop’s key and secret are shown once; the server’s refusal stays in the form', async () => {
    let refuse = true;
    const fetch = serveJson({
      [`GET ${staffApi.me}`]: () => jsonResponse(ME),
      [`GET ${staffMerchantApi.merchants}`]: () => jsonResponse(LIST),
      [`POST ${staffMerchantApi.merchants}`]: () =>
        refuse
          ? jsonResponse({ success: false, error: merchantTexts.webhookUrlInvalid, code: 'webhook_url_invalid' }, 400)
          : jsonResponse({ merchant: { id: 'f'.repeat(32), name: 'Kite' }, apiKey: `gl_live_${'K'.repeat(32)}`, webhookSecret: `whsec_${'S'.repeat(32)}` }),
    });
    const { screen } = await renderRoute({ path: '/staff', Component: StaffConsole }, '/staff?view=merchants');
    await expect.element(screen.getByRole('heading', { name: 'Merchants', level: 1 })).toBeVisible();
    await expect.element(screen.getByText('gl_live_AbCd…')).toBeVisible();
    await expect.element(screen.getByRole('link', { name: 'Monthly counts (CSV)' })).toHaveAttribute('href', staffMerchantApi.usageCsv(SHOP));

    await userEvent.click(screen.getByRole('button', { name: 'New merchant' }));
    await userEvent.fill(screen.getByLabelText('Shop name'), 'Kite');
    await userEvent.fill(screen.getByLabelText('Webhook URL'), 'http://kite.example/hook');
    await userEvent.fill(screen.getByLabelText('Reason (kept in the audit trail)'), 'Signed the pilot');
    await userEvent.click(screen.getByRole('button', { name: 'Create merchant' }));
    await expect.element(screen.getByText(merchantTexts.webhookUrlInvalid)).toBeVisible();

    refuse = false;
    await userEvent.fill(screen.getByLabelText('Webhook URL'), 'https://kite.example/hook');
    await userEvent.click(screen.getByRole('button', { name: 'Create merchant' }));
    await expect.element(screen.getByTestId('shown-API key')).toHaveTextContent(`gl_live_${'K'.repeat(32)}`);
    await expect.element(screen.getByTestId('shown-Webhook secret')).toHaveTextContent(`whsec_${'S'.repeat(32)}`);
    const posts = fetch.mock.calls.filter(([input, init]) => init?.method === 'POST' && input === staffMerchantApi.merchants).map(([, init]) => JSON.parse(typeof init?.body === 'string' ? init.body : 'null') as unknown);
    expect(posts).toEqual([
      { name: 'Kite', webhookUrl: 'http://kite.example/hook', reason: 'Signed the pilot' },
      { name: 'Kite', webhookUrl: 'https://kite.example/hook', reason: 'Signed the pilot' },
    ]);
  });

  test('rotating a key asks for a reason and shows the new key once', async () => {
    const fetch = serveJson({
      [`GET ${staffApi.me}`]: () => jsonResponse(ME),
      [`GET ${staffMerchantApi.merchants}`]: () => jsonResponse(LIST),
      [`POST ${staffMerchantApi.rotateKey(SHOP)}`]: () => jsonResponse({ apiKey: `gl_live_${'N'.repeat(32)}`, revoked: 1 }),
    });
    const { screen } = await renderRoute({ path: '/staff', Component: StaffConsole }, '/staff?view=merchants');
    await userEvent.click(screen.getByRole('button', { name: 'Rotate key of Shop' }));
    await userEvent.fill(screen.getByLabelText('Reason (kept in the audit trail)'), 'Key leaked in a log');
    await userEvent.click(screen.getByRole('button', { name: 'Rotate key', exact: true }));
    await expect.element(screen.getByTestId('shown-API key')).toHaveTextContent(`gl_live_${'N'.repeat(32)}`);
    expect(sentBody(fetch, 'POST', staffMerchantApi.rotateKey(SHOP))).toEqual({ reason: 'Key leaked in a log' });
  });

  test('the brand: display name, colour and logo, each with the reason; a colour not #rrggbb is refused before sending', async () => {
    const fetch = serveJson({
      [`GET ${staffApi.me}`]: () => jsonResponse(ME),
      [`GET ${staffMerchantApi.merchants}`]: () => jsonResponse(LIST),
      [`PATCH ${staffMerchantApi.merchant(SHOP)}`]: () => jsonResponse(LIST),
      [`PUT ${staffMerchantApi.logo(SHOP)}`]: () => jsonResponse(LIST),
    });
    const { screen } = await renderRoute({ path: '/staff', Component: StaffConsole }, '/staff?view=merchants');
    await userEvent.click(screen.getByRole('button', { name: 'Brand of Shop' }));
    await userEvent.fill(screen.getByLabelText('Display name'), 'Kite & Co');
    await userEvent.fill(screen.getByLabelText('Brand colour'), 'teal');
    await userEvent.fill(screen.getByLabelText('Reason (kept in the audit trail)'), 'The shop sent its brand');
    await userEvent.click(screen.getByRole('button', { name: 'Save the brand' }));
    await expect.element(screen.getByText('Please give the colour as #rrggbb (for example #0f766e), or leave it empty.')).toBeVisible();
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(false);

    await userEvent.fill(screen.getByLabelText('Brand colour'), '#0f766e');
    const logo = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' });
    await userEvent.upload(screen.getByLabelText('Logo (PNG, JPEG or WebP; optional)'), logo);
    await userEvent.click(screen.getByRole('button', { name: 'Save the brand' }));
    await expect.element(screen.getByText('The brand of Shop is saved.')).toBeVisible();
    expect(sentBody(fetch, 'PATCH', staffMerchantApi.merchant(SHOP))).toEqual({ displayName: 'Kite & Co', brandColour: '#0f766e', reason: 'The shop sent its brand' });
    const put = fetch.mock.calls.find(([input, init]) => init?.method === 'PUT' && input === staffMerchantApi.logo(SHOP));
    const form = put?.[1]?.body;
    expect(form).toBeInstanceOf(FormData);
    expect([...(form as FormData).keys()]).toEqual(['reason', 'logo']);
    expect((form as FormData).get('reason')).toBe('The shop sent its brand');
    expect(((form as FormData).get('logo') as File).name).toBe('logo.png');
  });
});
