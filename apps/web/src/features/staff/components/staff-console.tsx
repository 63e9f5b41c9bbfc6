import { CircleAlert, ShieldCheck } from 'lucide-react';
import { useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { StatusPanel } from '../../../components/ui/status-panel.tsx';
import { isSignedOut } from '../api/request.ts';
import { useStaffLogout, useStaffMe } from '../api/staff-auth.ts';
import { useSessionWatch } from '../hooks/use-session-watch.ts';
import { useFocusHeading } from '../../../lib/use-focus.ts';
import { formatStamp } from '../lib/staff-format.ts';
import { AuditList } from './audit-list.tsx';
import { GiftDetail } from './gift-detail.tsx';
import { GiftSearch } from './gift-search.tsx';
import { JobQueue } from './job-queue.tsx';
import { StaffSignIn } from './staff-sign-in.tsx';
import { StaffMerchants } from './staff-merchants.tsx';
import { StaffTeam } from './staff-team.tsx';

type View = 'search' | 'queue' | 'audit' | 'team' | 'merchants';
const VIEWS: { view: View; label: string }[] = [
  { view: 'search', label: 'Find a gift' },
  { view: 'queue', label: 'Job queue' },
  { view: 'audit', label: 'Audit trail' },
  { view: 'team', label: 'Team' },
  { view: 'merchants', label: 'Merchants' },
];

/** /staff: the sign-in without a staff session, the console with one. Never indexed, never linked from the site. */
export function StaffConsole() {
  const me = useStaffMe();
  useSessionWatch();

  let body;
  if (me.isPending || (me.isError && me.isFetching)) body = <PageSpinner label="Loading…" />;
  else if (me.isError && isSignedOut(me.error)) body = <StaffSignIn />;
  else if (me.isError)
    body = (
      <StatusPanel
        tone="error"
        icon={<CircleAlert className="size-8" aria-hidden />}
        title="The console could not load"
        actions={<Button onClick={() => void me.refetch()}>Try again</Button>}
      >
        <p role="alert">{me.error.message}</p>
      </StatusPanel>
    );
  else body = <Console email={me.data.email} expiresAt={me.data.expiresAt} />;

  return (
    <div className="min-h-dvh bg-stone-100">
      <meta name="robots" content="noindex, nofollow" />
      {body}
    </div>
  );
}

function Console({ email, expiresAt }: { email: string; expiresAt: string }) {
  const [params, setParams] = useSearchParams();
  const logout = useStaffLogout();
  const giftId = params.get('gift');
  const q = params.get('q') ?? '';
  const view: View = VIEWS.find((v) => v.view === params.get('view'))?.view ?? 'search';

  const viewHref = (v: View) => (v === 'search' ? (q ? `?q=${encodeURIComponent(q)}` : '?') : `?view=${v}`);
  // A new view: its heading takes focus (when the control pressed has gone), so a reader starts at its top. So does
  // the console itself when it replaces the sign-in (the code's form has gone with it).
  const content = useRef<HTMLDivElement>(null);
  useFocusHeading(content, giftId ?? view, { onMount: true });
  const giftHref = (id: string) =>
    `?${new URLSearchParams({ ...(q && view === 'search' ? { q } : {}), gift: id }).toString()}`;

  return (
    <div className="flex min-h-dvh flex-col">
      <header className="border-b border-stone-200 bg-white">
        <div className="mx-auto flex max-w-5xl flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex items-center justify-between gap-3">
            <p className="flex items-center gap-2 font-bold text-stone-900">
              <ShieldCheck className="size-5 text-brand-600" aria-hidden /> GiftLens staff
            </p>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => logout.mutate()}
              disabled={logout.isPending}
              className="sm:hidden"
            >
              Sign out
            </Button>
          </div>
          <nav aria-label="Staff console" className="-mx-1 flex gap-1 overflow-x-auto">
            {VIEWS.map(({ view: v, label }) => (
              <Link
                key={v}
                to={viewHref(v)}
                aria-current={v === view && !giftId ? 'page' : undefined}
                className={`shrink-0 rounded-lg px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-500 ${v === view ? 'bg-brand-50 text-brand-700' : 'text-stone-700 hover:bg-stone-100'}`}
              >
                {label}
              </Link>
            ))}
          </nav>
          <div className="hidden items-center gap-3 sm:flex">
            <p className="text-right text-xs text-stone-600">
              {email}
              <br />
              until {formatStamp(expiresAt)}
            </p>
            <Button variant="secondary" size="sm" onClick={() => logout.mutate()} disabled={logout.isPending}>
              {logout.isPending ? 'Signing out…' : 'Sign out'}
            </Button>
          </div>
        </div>
      </header>
      <div ref={content} className="mx-auto w-full max-w-5xl px-4 py-5 sm:py-8">
        {giftId ? (
          <GiftDetail key={giftId} giftId={giftId} onBack={() => setParams(q ? { q } : {})} />
        ) : view === 'queue' ? (
          <JobQueue giftHref={giftHref} />
        ) : view === 'audit' ? (
          <AuditList giftHref={giftHref} />
        ) : view === 'team' ? (
          <StaffTeam />
        ) : view === 'merchants' ? (
          <StaffMerchants />
        ) : (
          <GiftSearch query={q} onSearch={(next) => setParams({ q: next })} giftHref={giftHref} />
        )}
      </div>
    </div>
  );
}
