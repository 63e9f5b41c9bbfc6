import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { useStaffAudit } from '../api/staff-gifts.ts';
import { detailsLine, formatStamp, words } from '../lib/staff-format.ts';

/** The newest audit entries: who did what, when, to which gift, and why. */
export function AuditList({ giftHref }: { giftHref: (id: string) => string }) {
  const audit = useStaffAudit();
  return (
    <section className="flex flex-col gap-4" aria-labelledby="staff-audit-heading">
      <title>Audit trail · Staff · GiftLens</title>
      <h1 id="staff-audit-heading" className="text-xl font-bold tracking-tight text-stone-900 sm:text-2xl">
        Recent staff actions
      </h1>
      {audit.isPending ? <PageSpinner label="Loading the audit trail…" /> : null}
      {audit.isError ? <Alert>{audit.error.message}</Alert> : null}
      {audit.data && audit.data.entries.length === 0 ? (
        <p className="text-sm text-stone-600">No staff actions yet.</p>
      ) : null}
      {audit.data && audit.data.entries.length > 0 ? (
        <ul aria-label="Audit entries, newest first" className="flex flex-col gap-2">
          {audit.data.entries.map((a) => (
            <li
              key={a.id}
              className="flex flex-col gap-1 rounded-2xl border border-stone-200 bg-white p-3 text-sm"
            >
              <p className="text-xs text-stone-500">
                <time dateTime={a.at}>{formatStamp(a.at)}</time> · {a.staffEmail}
              </p>
              <p className="font-semibold text-stone-900">{words(a.action)}</p>
              {a.details ? (
                <p className="text-xs text-stone-600 [overflow-wrap:anywhere]">{detailsLine(a.details)}</p>
              ) : null}
              <p className="text-stone-700 [overflow-wrap:anywhere]">Reason: “{a.reason}”</p>
              {a.giftId ? (
                <Link
                  to={giftHref(a.giftId)}
                  className="font-mono text-xs break-all text-brand-700 underline underline-offset-2"
                >
                  {a.giftId}
                </Link>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
