import { useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { useResetTotp, useStaffMembers } from '../api/staff-gifts.ts';
import { formatStamp } from '../lib/staff-format.ts';
import { ReasonForm } from './reason-form.tsx';
import { DoneStatus } from './done-status.tsx';

/**
 * The team: everyone in STAFF_EMAILS and whether their authenticator is set up. A colleague who lost their phone
 * has their second factor reset here (with a reason, audited); nobody resets their own.
 */
export function StaffTeam() {
  const team = useStaffMembers();
  const reset = useResetTotp();
  const [resetting, setResetting] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // The form and the button pressed are gone after a reset: focus goes to the view's heading, not to <body>.
  const heading = useRef<HTMLHeadingElement>(null);

  return (
    <section className="flex flex-col gap-4" aria-labelledby="staff-team-heading">
      <title>Team · Staff · GiftLens</title>
      <h1
        ref={heading}
        tabIndex={-1}
        id="staff-team-heading"
        className="text-xl font-bold tracking-tight text-stone-900 sm:text-2xl"
      >
        Team
      </h1>
      <p className="text-sm text-stone-600">
        Staff are the addresses in <code className="font-mono text-xs">STAFF_EMAILS</code>. Someone who lost
        their phone gets their second factor reset here: their sessions end, they are told by e-mail, and
        their next sign-in sets up a new authenticator.
      </p>
      <DoneStatus text={done} />
      {team.isPending ? <PageSpinner label="Loading the team…" /> : null}
      {team.isError ? <Alert>{team.error.message}</Alert> : null}
      {team.data ? (
        <ul aria-label="Staff members" className="flex flex-col gap-3">
          {team.data.members.map((m) => (
            <li
              key={m.email}
              className="flex flex-col gap-2 rounded-2xl border border-stone-200 bg-white p-3"
            >
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="font-semibold break-all text-stone-900">
                  {m.email}
                  {m.you ? <span className="ml-2 text-sm font-normal text-stone-500">(you)</span> : null}
                </p>
                {!m.you && m.enrolled && resetting !== m.email ? (
                  <Button
                    variant="secondary"
                    size="sm"
                    aria-label={`Reset the second factor of ${m.email}`}
                    onClick={() => {
                      reset.reset();
                      setDone(null);
                      setResetting(m.email);
                    }}
                  >
                    Reset second factor
                  </Button>
                ) : null}
              </div>
              <p className={`text-sm ${m.enrolled ? 'text-stone-700' : 'text-amber-800'}`}>
                {m.enrolled
                  ? `Authenticator set up ${formatStamp(m.enrolledAt)}`
                  : 'No authenticator yet: set up at the next sign-in'}
              </p>
              {resetting === m.email ? (
                <ReasonForm
                  title={`Reset the second factor of ${m.email}`}
                  description="Their authenticator stops working and their staff sessions end now."
                  submitLabel="Reset second factor"
                  pendingLabel="Resetting…"
                  pending={reset.isPending}
                  error={reset.error?.message ?? null}
                  danger
                  confirm={{
                    title: 'Reset this second factor?',
                    body: (
                      <p>
                        {m.email} is signed out everywhere and sets up a new authenticator at their next
                        sign-in.
                      </p>
                    ),
                    confirmLabel: 'Reset',
                  }}
                  onSubmit={(reason) =>
                    reset.mutate(
                      { email: m.email, reason },
                      {
                        onSuccess: () => {
                          setResetting(null);
                          setDone(`The second factor of ${m.email} was reset. They were told by e-mail.`);
                          requestAnimationFrame(() => heading.current?.focus());
                        },
                      },
                    )
                  }
                  onCancel={() => setResetting(null)}
                />
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
