import { Hourglass } from 'lucide-react';
import { ButtonLink } from './button-link.tsx';
import { StatusPanel } from './status-panel.tsx';

/** The things a giver may still be doing, so the wait reads as care rather than a fault. */
const GIVER_STEPS = [
  'Recording a personal video or voice message',
  'Writing the perfect words for you',
  'Finishing the checkout',
  'Waiting for the right moment to share it',
] as const;

/**
 * "Gift Not Ready Yet": the gift is still being prepared, what the giver might be doing, the reason the
 * server gave, and Back to Home. Shown at /gift-not-ready and in place on a gift link that is not active yet.
 */
export function GiftNotReadyPanel({ reason, retry }: { reason: string; retry?: { to: string; label: string } }) {
  return (
    <StatusPanel
      icon={<Hourglass className="size-8" aria-hidden />}
      title="Gift Not Ready Yet"
      actions={
        <>
          {retry ? (
            <ButtonLink to={retry.to} block className="sm:w-auto sm:flex-1">
              {retry.label}
            </ButtonLink>
          ) : null}
          <ButtonLink to="/" block variant={retry ? 'secondary' : 'primary'} className={retry ? 'sm:w-auto sm:flex-1' : undefined}>
            Back to Home
          </ButtonLink>
        </>
      }
    >
      <p className="text-lg text-stone-700">Your gift is still being prepared. Good things take a little time!</p>
      <div className="rounded-2xl bg-brand-50 p-4 text-left">
        <p className="text-sm font-semibold text-stone-900">The giver might be:</p>
        <ul className="mt-2 flex list-disc flex-col gap-1 pl-5 text-sm text-stone-700">
          {GIVER_STEPS.map((s) => (
            <li key={s}>{s}</li>
          ))}
        </ul>
      </div>
      <p role="status" className="rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
        {reason}
      </p>
    </StatusPanel>
  );
}
