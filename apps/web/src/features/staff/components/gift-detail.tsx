import {
  STAFF_EXTEND_DAYS_MAX,
  STAFF_EXTEND_SCANS_MAX,
  staffTexts,
  type StaffGiftResponse,
} from '@giftlens/contract/staff';
import { ArrowLeft, RotateCw } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useStaffGift } from '../api/staff-gifts.ts';
import { useGiftActions } from '../hooks/use-gift-actions.ts';
import { formatAmount, formatStamp, words } from '../lib/staff-format.ts';
import { MessageContent } from './message-content.tsx';
import { ReasonForm, type ReasonFormProps } from './reason-form.tsx';
import { StateBadge } from './state-badge.tsx';
import { Timeline } from './timeline.tsx';
import { DoneStatus } from './done-status.tsx';

type Gift = StaffGiftResponse['gift'];

/** Deliveries staff may send again now. */
const RESENDABLE = new Set(['failed', 'sent']);

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className="flex flex-col gap-3 rounded-2xl border border-stone-200 bg-white p-4 sm:p-5"
    >
      <h2 id={id} className="text-lg font-semibold text-stone-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** An instant as people read it, with the instant itself for machines. */
function Stamp({ at }: { at: string | null }) {
  return at ? <time dateTime={at}>{formatStamp(at)}</time> : <>—</>;
}

function Details({ gift }: { gift: Gift }) {
  const rows: [string, ReactNode][] = [
    ['Sender', `${gift.senderName ? `${gift.senderName} · ` : ''}${gift.senderEmail}`],
    ['Recipient', `${gift.recipientName}${gift.recipientEmail ? ` · ${gift.recipientEmail}` : ''}`],
    ['Occasion', gift.occasion],
    ['Plan', gift.planName],
    [
      'Message',
      gift.messageType ? `${gift.messageType}, ${words(gift.messageState)}` : words(gift.messageState),
    ],
    ['Created', <Stamp at={gift.createdAt} />],
    ['Paid', <Stamp at={gift.paidAt} />],
    ['Valid until', gift.validUntil ? <Stamp at={gift.validUntil} /> : gift.paidAt ? 'never expires' : '—'],
    ['Scans', `${gift.scansUsed} of ${gift.scansAllowed ?? 'unlimited'}`],
    ['First opened', <Stamp at={gift.firstOpenedAt} />],
  ];
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="font-medium text-stone-500">{term}</dt>
          <dd className="mb-1 break-words text-stone-900 sm:mb-0">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function ExtendFields({
  days,
  scans,
  onDays,
  onScans,
  gift,
}: {
  days: string;
  scans: string;
  onDays: (v: string) => void;
  onScans: (v: string) => void;
  gift: Gift;
}) {
  const neverExpires = gift.validUntil === null && gift.paidAt !== null;
  const unlimited = gift.scansAllowed === null;
  const fields = [
    {
      label: 'Days to add',
      max: STAFF_EXTEND_DAYS_MAX,
      value: days,
      onChange: onDays,
      off: neverExpires,
      offHint: 'Never expires',
    },
    {
      label: 'Scans to add',
      max: STAFF_EXTEND_SCANS_MAX,
      value: scans,
      onChange: onScans,
      off: unlimited,
      offHint: 'Unlimited',
    },
  ];
  // The first field that can be used takes focus when the form opens.
  const first = fields.findIndex((f) => !f.off);
  return (
    <div className="grid grid-cols-2 gap-3">
      {fields.map((f, i) => (
        <TextField
          key={f.label}
          label={f.label}
          type="number"
          inputMode="numeric"
          min={1}
          max={f.max}
          value={f.value}
          onChange={(e) => f.onChange(e.target.value)}
          disabled={f.off}
          hint={f.off ? f.offHint : undefined}
          compact
          autoFocus={i === first}
        />
      ))}
    </div>
  );
}

/** The actions that end a gift (their form's words and the confirmation they ask for), and lifting a take-down. */
const CLOSING = {
  refund: (recipient: string) => ({
    title: 'Refund in full',
    description: 'The payment is refunded, the gift no longer opens, and the sender is told by e-mail.',
    submitLabel: 'Refund',
    pendingLabel: 'Refunding…',
    confirm: {
      title: 'Refund this gift in full?',
      body: <p>{`${recipient}’s gift will no longer open. This cannot be undone.`}</p>,
      confirmLabel: 'Refund in full',
    },
  }),
  takedown: () => ({
    title: 'Take down for abuse',
    description: 'The gift no longer opens, its media is no longer served, and its sender can no longer change, send or delete it.',
    submitLabel: 'Take down',
    pendingLabel: 'Taking down…',
    confirm: {
      title: 'Take this gift down?',
      body: <p>Nobody will be able to open it, and its sender cannot change or delete it, until staff lift the take-down.</p>,
      confirmLabel: 'Take down',
    },
  }),
  lift: () => ({
    title: 'Lift the take-down',
    description: 'The gift opens again and its sender may change, send or delete it again.',
    submitLabel: 'Lift take-down',
    pendingLabel: 'Lifting…',
  }),
} satisfies Record<string, (recipient: string) => Partial<ReasonFormProps>>;

/** A whole number in 1…max, or undefined when empty; NaN when it is neither. */
function count(value: string, max: number): number | undefined {
  if (value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= max ? n : Number.NaN;
}

/** One gift's whole story and the actions on it (each with a reason, audited). */
export function GiftDetail({ giftId, onBack }: { giftId: string; onBack: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const actions = useGiftActions(giftId, heading);
  const gift = useStaffGift(giftId, actions.resent);
  const [days, setDays] = useState('');
  const [scans, setScans] = useState('');

  // A gift opened from the results: its heading takes focus once it is in.
  const loaded = gift.data !== undefined;
  useEffect(() => {
    if (loaded) heading.current?.focus();
  }, [loaded]);

  if (gift.isPending) return <PageSpinner label="Loading the gift…" />;
  if (gift.isError) {
    return (
      <div className="flex flex-col gap-3">
        <Alert>{gift.error.message}</Alert>
        <div className="flex gap-2">
          <Button variant="secondary" onClick={onBack}>
            <ArrowLeft className="size-4" aria-hidden /> Back to search
          </Button>
          <Button variant="secondary" onClick={() => void gift.refetch()}>
            Try again
          </Button>
        </div>
      </div>
    );
  }

  const g = gift.data.gift;
  const error = actions.action.error?.message ?? null;
  const pending = actions.action.isPending;
  const closed = g.state === 'refunded' || g.state === 'taken_down';

  const extend = () => {
    const d = count(days, STAFF_EXTEND_DAYS_MAX);
    const s = count(scans, STAFF_EXTEND_SCANS_MAX);
    return { d, s };
  };

  return (
    <article className="flex flex-col gap-4" aria-labelledby="staff-gift-heading">
      <title>{`Gift ${g.id} · Staff · GiftLens`}</title>
      <div>
        <Button variant="ghost" size="sm" onClick={onBack} className="-ml-3">
          <ArrowLeft className="size-4" aria-hidden /> Back to search
        </Button>
      </div>
      <header className="flex flex-col gap-2">
        <h1
          id="staff-gift-heading"
          ref={heading}
          tabIndex={-1}
          className="text-xl font-bold tracking-tight text-stone-900 focus:outline-none sm:text-2xl"
        >
          Gift for {g.recipientName}
        </h1>
        <div className="flex flex-wrap items-center gap-2 text-sm text-stone-600">
          <StateBadge state={g.state} />
          <span className="font-mono break-all">{g.id}</span>
        </div>
      </header>

      <DoneStatus text={actions.done} />

      <Section title="Details">
        <Details gift={g} />
      </Section>

      <Section title="Actions">
        <div className="flex flex-wrap gap-2">
          {(
            [
              ['extend', 'Extend', closed],
              ['message', 'Show message', !g.messageType],
              ['refund', 'Refund', closed || !g.paidAt],
              ['takedown', 'Take down', g.state === 'taken_down'],
              ['lift', 'Lift take-down', g.state !== 'taken_down'],
            ] as const
          ).map(([key, label, disabled]) => (
            <Button
              key={key}
              variant="secondary"
              size="sm"
              ref={actions.opener(key)}
              aria-expanded={actions.open === key}
              onClick={() => actions.toggle(key)}
              disabled={disabled}
            >
              {label}
            </Button>
          ))}
        </div>

        {actions.open === 'extend' ? (
          <ReasonForm
            title="Extend the plan"
            description="Add days to its validity, scans to its allowance, or both."
            submitLabel="Extend"
            pendingLabel="Extending…"
            pending={pending}
            error={error}
            validate={() => {
              const { d, s } = extend();
              if (Number.isNaN(d)) return `Days: a whole number from 1 to ${STAFF_EXTEND_DAYS_MAX}.`;
              if (Number.isNaN(s)) return `Scans: a whole number from 1 to ${STAFF_EXTEND_SCANS_MAX}.`;
              return d === undefined && s === undefined ? staffTexts.extendNothing : null;
            }}
            onSubmit={(reason) => {
              const { d, s } = extend();
              actions.run({ kind: 'extend', reason, ...(d ? { days: d } : {}), ...(s ? { scans: s } : {}) });
            }}
            onCancel={() => actions.close()}
          >
            <ExtendFields gift={g} days={days} scans={scans} onDays={setDays} onScans={setScans} />
          </ReasonForm>
        ) : null}
        {actions.open === 'refund' || actions.open === 'takedown' || actions.open === 'lift' ? (
          <ReasonForm
            key={actions.open}
            {...CLOSING[actions.open](g.recipientName)}
            danger={actions.open !== 'lift'}
            pending={pending}
            error={error}
            onSubmit={(reason) => actions.run({ kind: actions.open as 'refund' | 'takedown' | 'lift', reason })}
            onCancel={() => actions.close()}
          />
        ) : null}
        {actions.open === 'message' ? (
          <ReasonForm
            title="Show the message"
            description="The message is private: opening it is recorded with your reason."
            submitLabel="Show message"
            pendingLabel="Opening…"
            pending={actions.message.isPending}
            error={actions.message.error?.message ?? null}
            onSubmit={actions.showMessage}
            onCancel={() => actions.close()}
          />
        ) : null}
        {actions.message.data ? <MessageContent message={actions.message.data} /> : null}
      </Section>

      <Section title="Deliveries">
        {g.deliveries.length === 0 ? (
          <p className="text-sm text-stone-600">No deliveries.</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {g.deliveries.map((d) => {
              const key = `resend:${d.id}` as const;
              return (
                <li key={d.id} className="flex flex-col gap-2 rounded-xl border border-stone-200 p-3">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <p className="min-w-0 text-sm break-words text-stone-900">
                      <span className="font-semibold capitalize">{d.channel}</span> to {d.contact}
                    </p>
                    <span
                      className={`rounded-full px-2 py-0.5 text-xs font-semibold ${d.status === 'failed' ? 'bg-red-100 text-red-800' : 'bg-stone-100 text-stone-700'}`}
                    >
                      {words(d.status)}
                    </span>
                  </div>
                  <p className="text-xs text-stone-600">
                    Scheduled {formatStamp(d.scheduledAt)}
                    {d.sentAt ? ` · sent ${formatStamp(d.sentAt)}` : ''}
                  </p>
                  {d.error ? <p className="text-sm break-words text-red-700">Error: {d.error}</p> : null}
                  {RESENDABLE.has(d.status) ? (
                    <div>
                      <Button
                        variant="secondary"
                        size="sm"
                        ref={actions.opener(key)}
                        aria-expanded={actions.open === key}
                        aria-label={`Send again to ${d.contact}`}
                        onClick={() => actions.toggle(key)}
                        disabled={closed}
                      >
                        <RotateCw className="size-4" aria-hidden /> Send again
                      </Button>
                    </div>
                  ) : null}
                  {actions.open === key ? (
                    <ReasonForm
                      title="Send this delivery again now"
                      submitLabel="Send again"
                      pendingLabel="Sending…"
                      pending={pending}
                      error={error}
                      onSubmit={(reason) => actions.run({ kind: 'resend', deliveryId: d.id, reason })}
                      onCancel={() => actions.close()}
                    />
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
      </Section>

      <Section title="Orders">
        {g.orders.length === 0 ? (
          <p className="text-sm text-stone-600">No orders.</p>
        ) : (
          <ul className="flex flex-col gap-2 text-sm">
            {g.orders.map((o) => (
              <li key={o.id} className="flex flex-col gap-0.5 rounded-xl border border-stone-200 p-3">
                <p className="text-stone-900">
                  <span className="font-semibold">{formatAmount(o.amountMinor, o.currency)}</span> ·{' '}
                  {o.provider} · {words(o.status)}
                </p>
                <p className="font-mono text-xs break-all text-stone-600">order {o.id}</p>
                {o.paymentId ? (
                  <p className="font-mono text-xs break-all text-stone-600">payment {o.paymentId}</p>
                ) : null}
                {o.paidAt ? <p className="text-xs text-stone-600">paid {formatStamp(o.paidAt)}</p> : null}
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title="Timeline">
        <Timeline events={gift.data.timeline} />
      </Section>
    </article>
  );
}
