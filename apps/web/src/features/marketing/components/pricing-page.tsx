import { Check, Sparkles } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { ContentPage } from '../../../components/ui/content-page.tsx';
import type { PlanView } from '@giftlens/contract/plans-api';
import { usePlans } from '../../../api/plans.ts';
import { RegionSwitch } from '../../../components/ui/region-switch.tsx';
import type { Region } from '@giftlens/contract/plans';
import { texts } from '@giftlens/contract/texts';

export interface PricingPageProps {
  /** The price list shown (India, or everywhere else), undefined while the country is still being detected. */
  region: Region | undefined;
  onRegionChange: (region: Region) => void;
  /** The detected country (its code and name), shown so visitors know why they see these prices; null once they chose. */
  countryLabel: ReactNode;
}

function PlanCard({ plan }: { plan: PlanView }) {
  return (
    <li
      className={`relative flex flex-col rounded-3xl border bg-white p-7 ${
        plan.popular
          ? 'border-brand-500 shadow-xl shadow-brand-700/10 ring-1 ring-brand-500'
          : 'border-stone-200'
      }`}
    >
      {plan.popular ? (
        <p className="absolute -top-3.5 left-7 inline-flex items-center gap-1 rounded-full bg-brand-500 px-3 py-1 text-xs font-bold tracking-wide text-white uppercase">
          <Sparkles aria-hidden className="size-3.5" /> Most popular
        </p>
      ) : null}
      <h2 className="text-xl font-bold text-stone-900">{plan.name}</h2>
      <p className="mt-1 text-[15px] text-stone-600">{plan.subtitle}</p>
      <p className="mt-6 flex items-baseline gap-2">
        <span className="text-5xl font-extrabold tracking-tight text-stone-900">{plan.price}</span>
        <span className="text-[15px] text-stone-600">per gift</span>
      </p>
      <ul className="mt-6 flex-1 space-y-3">
        {plan.features.map((f) => (
          <li key={f} className="flex gap-3 text-[15px] text-stone-800">
            <Check aria-hidden className="mt-0.5 size-5 shrink-0 text-emerald-700" />
            {f}
          </li>
        ))}
      </ul>
      <Link
        to={paths.send.withPlan(plan.id)}
        className={`mt-8 inline-flex min-h-12 items-center justify-center rounded-xl px-6 font-semibold transition ${
          plan.popular
            ? 'bg-brand-500 text-white hover:brightness-90'
            : 'border border-stone-300 text-stone-900 hover:bg-stone-50'
        }`}
      >
        Choose {plan.name}
        <span className="sr-only"> plan</span>
      </Link>
    </li>
  );
}

/** The regional price list from GET /api/plans (India in rupees, everywhere else in US dollars). */
export function PricingPage({ region, onRegionChange, countryLabel }: PricingPageProps) {
  const plans = usePlans(region);
  return (
    <ContentPage
      wide
      title="Simple pricing, per gift"
      eyebrow="Pricing"
      description="GiftLens plans per gift: Basic, Premium and Lifetime, priced for your region. No subscription."
      intro="Pay once for each gift. No subscription, no account to keep. Choose how long your message should live."
      meta={
        region ? (
          <div className="flex flex-col gap-3">
            <p>{countryLabel ? <>Prices for {countryLabel}</> : texts.sender.pricesFor[region]}</p>
            <RegionSwitch region={region} onChange={onRegionChange} />
          </div>
        ) : (
          <>Finding the prices for your country…</>
        )
      }
    >
      {plans.isError ? (
        <Alert>
          {plans.error.message}{' '}
          <button type="button" className="font-semibold underline" onClick={() => void plans.refetch()}>
            Try again
          </button>
        </Alert>
      ) : plans.data ? (
        <ul
          className={`mx-auto grid max-w-5xl gap-6 pt-4 ${plans.data.plans.length === 3 ? 'md:grid-cols-3' : 'md:max-w-3xl md:grid-cols-2'}`}
        >
          {plans.data.plans.map((p) => (
            <PlanCard key={p.id} plan={p} />
          ))}
        </ul>
      ) : (
        <div role="status" className="mx-auto grid max-w-5xl gap-6 md:grid-cols-3">
          <span className="sr-only">Loading plans…</span>
          {[0, 1, 2].map((i) => (
            <div key={i} className="h-96 animate-pulse rounded-3xl bg-stone-100" />
          ))}
        </div>
      )}

      <section aria-labelledby="pricing-notes" className="mx-auto mt-16 max-w-3xl">
        <h2 id="pricing-notes" className="text-2xl font-bold tracking-tight text-stone-900">
          Good to know
        </h2>
        <dl className="mt-6 space-y-6 text-[15px] leading-relaxed">
          <div>
            <dt className="font-semibold text-stone-900">When does the validity start?</dt>
            <dd className="mt-1 text-stone-700">
              When your payment succeeds. A Premium gift paid on 1 March can be played until 31 March.
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-stone-900">What counts as a scan?</dt>
            <dd className="mt-1 text-stone-700">
              Each time the message is successfully revealed. Failed attempts do not count.
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-stone-900">What if the scans run out?</dt>
            <dd className="mt-1 text-stone-700" data-testid="scan-top-up-price">
              While the plan is valid you can add {plans.data?.scanTopUp.scans ?? 5} more scans
              {plans.data ? ` for ${plans.data.scanTopUp.price}` : ''}, as often as needed, from My Gifts. We tell you
              when your recipient finds the scans used up, and the gift opens again as soon as you have added more.
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-stone-900">What is reaction recording?</dt>
            <dd className="mt-1 text-stone-700">
              On Lifetime gifts your recipient can choose to record their reaction while the message plays,
              and you get to watch it. It is always their choice, and only you see it.
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-stone-900">What is a group gift?</dt>
            <dd className="mt-1 text-stone-700">
              Friends and family add their own video, voice or text messages to your gift, and your recipient sees
              them all after yours with one scan. Premium takes up to 10 contributors, Lifetime up to 50; India Basic
              has no group gifts. Contributors never pay and need no account.
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-stone-900">Can I get my money back?</dt>
            <dd className="mt-1 text-stone-700">
              Within 24 hours if the message has not been played. See the{' '}
              <Link to={paths.cancellationRefund.href()} className="font-semibold text-brand-600 underline">
                refund policy
              </Link>
              .
            </dd>
          </div>
        </dl>
      </section>
    </ContentPage>
  );
}
