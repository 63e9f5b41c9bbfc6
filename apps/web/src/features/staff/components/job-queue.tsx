import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { useRetryJob, useStaffJobs } from '../api/staff-gifts.ts';
import { formatLag, formatStamp } from '../lib/staff-format.ts';
import { ReasonForm } from './reason-form.tsx';
import { DoneStatus } from './done-status.tsx';

/** The job queue: counts by kind and state, how late the oldest due job is, and dead jobs to retry. */
export function JobQueue({ giftHref }: { giftHref: (id: string) => string }) {
  const jobs = useStaffJobs();
  const retry = useRetryJob();
  const [retrying, setRetrying] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // The form and the button pressed are gone after a retry: focus goes to the view's heading, not to <body>.
  const heading = useRef<HTMLHeadingElement>(null);

  return (
    <section className="flex flex-col gap-4" aria-labelledby="staff-queue-heading">
      <title>Job queue · Staff · GiftLens</title>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1
          ref={heading}
          tabIndex={-1}
          id="staff-queue-heading"
          className="text-xl font-bold tracking-tight text-stone-900 sm:text-2xl"
        >
          Job queue
        </h1>
        <Button variant="secondary" size="sm" onClick={() => void jobs.refetch()} disabled={jobs.isFetching}>
          {jobs.isFetching ? 'Refreshing…' : 'Refresh'}
        </Button>
      </div>
      <DoneStatus text={done} />
      {jobs.isPending ? <PageSpinner label="Loading the queue…" /> : null}
      {jobs.isError ? <Alert>{jobs.error.message}</Alert> : null}
      {jobs.data ? (
        <>
          <p className="rounded-2xl border border-stone-200 bg-white p-4 text-stone-900">
            Oldest due job waiting: <strong>{formatLag(jobs.data.oldestDueLagMs)}</strong>
          </p>
          <div className="overflow-x-auto rounded-2xl border border-stone-200 bg-white">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Jobs by kind and state</caption>
              <thead className="border-b border-stone-200 text-stone-600">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Kind
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    State
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    Jobs
                  </th>
                </tr>
              </thead>
              <tbody>
                {jobs.data.counts.length === 0 ? (
                  <tr>
                    <td colSpan={3} className="px-3 py-3 text-stone-600">
                      No jobs.
                    </td>
                  </tr>
                ) : (
                  jobs.data.counts.map((c) => (
                    <tr key={`${c.kind} ${c.status}`} className="border-b border-stone-100 last:border-0">
                      <td className="px-3 py-2 break-all text-stone-900">{c.kind}</td>
                      <td
                        className={`px-3 py-2 ${c.status === 'dead' ? 'font-semibold text-red-700' : 'text-stone-700'}`}
                      >
                        {c.status}
                      </td>
                      <td className="px-3 py-2 text-right tabular-nums">{c.count}</td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>

          <h2 className="text-lg font-semibold text-stone-900">Dead jobs</h2>
          {jobs.data.dead.length === 0 ? (
            <p className="text-sm text-stone-600">No dead jobs.</p>
          ) : (
            <ul className="flex flex-col gap-3">
              {jobs.data.dead.map((j) => (
                <li key={j.id} className="flex flex-col gap-2 rounded-2xl border border-red-200 bg-white p-3">
                  <p className="text-sm text-stone-900">
                    <span className="font-semibold">{j.kind}</span> · {j.attempts} attempts · died{' '}
                    {formatStamp(j.finishedAt)}
                  </p>
                  <p className="font-mono text-xs break-all text-stone-500">job {j.id}</p>
                  {j.giftId ? (
                    <Link
                      to={giftHref(j.giftId)}
                      className="text-sm font-semibold text-brand-700 underline underline-offset-2"
                    >
                      Gift {j.giftId}
                    </Link>
                  ) : null}
                  <p className="text-sm break-words text-red-700">
                    Last error: {j.lastError ?? 'none recorded'}
                  </p>
                  {retrying === j.id ? (
                    <ReasonForm
                      title="Retry this job"
                      submitLabel="Retry"
                      pendingLabel="Retrying…"
                      pending={retry.isPending}
                      error={retry.error?.message ?? null}
                      onSubmit={(reason) =>
                        retry.mutate(
                          { jobId: j.id, reason },
                          {
                            onSuccess: () => {
                              setRetrying(null);
                              setDone(`The ${j.kind} job will run again.`);
                              requestAnimationFrame(() => heading.current?.focus());
                            },
                          },
                        )
                      }
                      onCancel={() => setRetrying(null)}
                    />
                  ) : (
                    <div>
                      <Button
                        variant="secondary"
                        size="sm"
                        aria-label={`Retry ${j.kind} job ${j.id}`}
                        onClick={() => {
                          retry.reset();
                          setDone(null);
                          setRetrying(j.id);
                        }}
                      >
                        Retry
                      </Button>
                    </div>
                  )}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : null}
    </section>
  );
}
