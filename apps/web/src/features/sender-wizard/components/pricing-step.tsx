import { texts } from '@giftlens/contract/texts';
import type { PlanId, Region } from '@giftlens/contract/plans';
import { Check, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { toast } from '../../../lib/toast.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { RegionSwitch } from '../../../components/ui/region-switch.tsx';
import type { PlanView } from '@giftlens/contract/plans-api';
import { usePlans } from '../../../api/plans.ts';

interface PricingStepProps {
  /** The price list: the detected country's or the buyer's choice; undefined while the country is being detected. */
  region: Region | undefined;
  /** The buyer switched between India (₹) and everywhere else ($). */
  onRegionChange: (region: Region) => void;
  selectedPlanId: PlanId | null;
  /** A plan was picked (not yet confirmed): the wizard keeps the choice if the sender goes Back. */
  onPicked: (plan: PlanView) => void;
  onChosen: (plan: PlanView) => void;
}

export function PricingStep({ region, onRegionChange, selectedPlanId, onPicked, onChosen }: PricingStepProps) {
  const plans = usePlans(region);
  const [picked, setPicked] = useState<PlanId | null>(selectedPlanId);
  const [error, setError] = useState<string | null>(null);

  const list = plans.data?.plans ?? [];
  // The popular plan is preselected until the sender picks another.
  const current =
    picked && list.some((p) => p.id === picked) ? picked : (list.find((p) => p.popular)?.id ?? null);

  const submit = () => {
    const plan = list.find((p) => p.id === current);
    if (!plan) {
      setError(texts.sender.planRequired);
      return;
    }
    toast.success(`${plan.name} plan selected!`);
    onChosen(plan);
  };

  if (plans.isPending) return <PageSpinner label="Loading plans…" />;
  if (plans.isError) {
    return (
      <div className="flex flex-col gap-4">
        <Alert>{plans.error.message}</Alert>
        <Button variant="secondary" onClick={() => void plans.refetch()}>
          Try again
        </Button>
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-6">
      <div className="text-center">
        <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">Choose Your Plan</h1>
        <p className="mt-2 text-stone-600">Pay once per gift. No subscription.</p>
        {/* The list on screen, and the other one a tap away: a buyer abroad or on a foreign network is not stuck. */}
        <RegionSwitch
          region={region}
          onChange={(r) => {
            setError(null);
            onRegionChange(r);
          }}
          className="mt-4 justify-center"
        />
      </div>

      <div
        role="radiogroup"
        aria-label="Plans"
        className={`grid gap-4 ${list.length > 2 ? 'md:grid-cols-3' : 'md:grid-cols-2'}`}
      >
        {list.map((plan) => {
          const selected = plan.id === current;
          return (
            <label
              key={plan.id}
              className={`relative flex cursor-pointer flex-col gap-3 rounded-2xl border-2 bg-white p-5 transition-shadow has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-600 ${selected ? 'border-brand-500 shadow-md' : 'border-stone-200 hover:border-stone-300'}`}
            >
              <input
                type="radio"
                name="plan"
                value={plan.id}
                checked={selected}
                onChange={() => {
                  setPicked(plan.id);
                  setError(null);
                  onPicked(plan);
                }}
                className="sr-only"
                aria-label={`${plan.name} plan, ${plan.price}`}
              />
              {plan.popular ? (
                <span className="absolute -top-3 left-5 inline-flex items-center gap-1 rounded-full bg-brand-500 px-3 py-0.5 text-xs font-semibold text-white">
                  <Sparkles className="size-3" aria-hidden /> Most popular
                </span>
              ) : null}
              <div className="flex items-start justify-between gap-3">
                <div>
                  <p className="text-lg font-bold text-stone-900">{plan.name}</p>
                  <p className="text-sm text-stone-500">{plan.subtitle}</p>
                </div>
                <span
                  aria-hidden
                  className={`mt-1 flex size-6 shrink-0 items-center justify-center rounded-full border-2 ${selected ? 'border-brand-500 bg-brand-500 text-white' : 'border-stone-300'}`}
                >
                  {selected ? <Check className="size-4" /> : null}
                </span>
              </div>
              <p className="text-3xl font-extrabold text-stone-900">
                {plan.price}
                <span className="ml-1 text-sm font-medium text-stone-500">/ gift</span>
              </p>
              <ul className="flex flex-col gap-1.5 text-sm text-stone-700">
                {plan.features.map((f) => (
                  <li key={f} className="flex items-start gap-2">
                    <Check className="mt-0.5 size-4 shrink-0 text-brand-500" aria-hidden />
                    {f}
                  </li>
                ))}
              </ul>
            </label>
          );
        })}
      </div>

      {error ? <Alert>{error}</Alert> : null}

      <Button block onClick={submit}>
        Continue
      </Button>
    </div>
  );
}
