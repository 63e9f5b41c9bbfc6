import { plansForRegion, type Region } from '@giftlens/contract/plans';
import { API } from '@giftlens/contract/routes';
import { scanTopUpForRegion } from '@giftlens/contract/scan-top-up';
import { texts } from '@giftlens/contract/texts';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { paths } from '../../config/paths.ts';
import { choosePriceRegion } from '../../features/country/chosen-region.ts';
import { jsonResponse, renderRoute } from '../../test/render-route.tsx';
import { serveJson } from '../../test/serve-json.ts';
import { LandingRoute } from './landing-route.tsx';
import { PricingRoute } from './pricing-route.tsx';
import { SendRoute } from './send-route.tsx';

// Issue 37 item 15, its last two parts: a plan chosen on /pricing was lost at the wizard's plan step (the popular
// one was preselected instead), and the home page's "From $1.99" stayed after India was chosen.

/** The server's answers: a signed-in sender with a name, a visitor from the US, each region's price list. */
function serve() {
  const list = (region: Region) => () => {
    const { scans, price } = scanTopUpForRegion(region);
    return jsonResponse({ region, plans: plansForRegion(region), scanTopUp: { scans, price } });
  };
  return serveJson({
    'GET /api/gift-sender/me': () => jsonResponse({ success: true, email: 'asha@example.com', firstName: 'Asha' }),
    [`GET ${API.geo}`]: () => jsonResponse({ countryCode: 'US', source: 'test' }),
    [`GET ${API.plans}?country=US`]: list('US'),
    [`GET ${API.plans}?country=IN`]: list('IN'),
  });
}

afterEach(() => {
  vi.restoreAllMocks();
  sessionStorage.clear();
  localStorage.clear();
});

describe('a plan chosen on /pricing', () => {
  test('Choose on /pricing carries the plan; the plan step has it selected, not the popular one', async () => {
    serve();
    const { router } = await renderRoute({ path: paths.pricing.pattern, element: <PricingRoute /> }, paths.pricing.href(), [
      { path: paths.send.pattern, element: <SendRoute /> },
    ]);
    await userEvent.click(page.getByRole('link', { name: 'Choose Lifetime plan' }));
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(paths.send.withPlan('lifetime_us'));
    await expect.element(page.getByRole('radio', { name: 'Lifetime plan, $2.99' })).toBeChecked();
    await expect.element(page.getByRole('radio', { name: 'Premium plan, $1.99' })).not.toBeChecked();
  });

  test('a plan of the other price list opens that list (India for a visitor from the US), with the plan selected', async () => {
    serve();
    await renderRoute({ path: paths.send.pattern, element: <SendRoute /> }, paths.send.withPlan('lifetime_in'));
    await expect.element(page.getByRole('radio', { name: 'Lifetime plan, ₹299' })).toBeChecked();
    expect(sessionStorage.getItem('priceRegion')).toBe('IN');
    // Another pick still wins.
    await userEvent.click(page.getByText('Basic', { exact: true }));
    await expect.element(page.getByRole('radio', { name: 'Basic plan, ₹29' })).toBeChecked();
  });
});

describe('the home page’s lowest price', () => {
  test('follows the chosen price list: $1.99, ₹29 once India was chosen (on /pricing), and $1.99 again', async () => {
    serve();
    const { router } = await renderRoute({ path: paths.home.pattern, element: <LandingRoute /> }, paths.home.href(), [
      { path: paths.pricing.pattern, element: <PricingRoute /> },
    ]);
    await expect.element(page.getByText('From $1.99 a gift', { exact: false })).toBeVisible();
    for (const [region, price] of [['IN', '₹29'], ['US', '$1.99']] as const) {
      await router.navigate(paths.pricing.href());
      const choice = page.getByRole('radio', { name: texts.sender.priceRegions[region] });
      await userEvent.click(choice);
      await expect.element(choice).toBeChecked();
      await router.navigate(paths.home.href());
      await expect.element(page.getByText(`From ${price} a gift`, { exact: false })).toBeVisible();
    }
  });

  test('a choice made earlier this session shows at once', async () => {
    choosePriceRegion('IN');
    await renderRoute({ path: paths.home.pattern, element: <LandingRoute /> }, paths.home.href());
    await expect.element(page.getByText('From ₹29 a gift', { exact: false })).toBeVisible();
  });
});
