import { staffMerchantApi, type StaffMerchant } from '@giftlens/contract/merchants';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { type KeyAction, useCreateMerchant, useMerchantKeyAction, useStaffMerchants } from '../api/staff-merchants.ts';
import { formatStamp } from '../lib/staff-format.ts';
import { DoneStatus } from './done-status.tsx';
import { MerchantBrandForm } from './merchant-brand-form.tsx';
import { ReasonForm } from './reason-form.tsx';

const ACTIONS: Record<KeyAction, { label: string; title: (name: string) => string; description: string; danger: boolean }> = {
  rotate: { label: 'Rotate key', title: (n) => `A new API key for ${n}`, description: 'The new key is shown once; every earlier key stops working now.', danger: true },
  revoke: { label: 'Revoke keys', title: (n) => `Revoke every key of ${n}`, description: 'The shop’s calls are refused (401) until a key is rotated.', danger: true },
  secret: { label: 'Rotate webhook secret', title: (n) => `A new webhook secret for ${n}`, description: 'The new secret is shown once; webhooks are signed with it from now on.', danger: false },
};

/** Shown once: a new key or secret, with what it is for (it cannot be shown again). */
function ShownOnce({ items }: { items: { label: string; value: string }[] }) {
  return (
    <div className="flex flex-col gap-2 rounded-2xl border border-amber-300 bg-amber-50 p-3" role="status">
      <p className="text-sm font-semibold text-amber-900">Shown once: copy it to the shop now. Only its prefix is kept.</p>
      {items.map((i) => (
        <p key={i.label} className="text-sm text-stone-900">
          {i.label}: <code className="font-mono break-all" data-testid={`shown-${i.label}`}>{i.value}</code>
        </p>
      ))}
    </div>
  );
}

/**
 * The shops of the merchant API (decision 058): each with its active key's prefix and webhook URL; a new shop (its
 * key and webhook secret shown once), keys rotated or revoked and the webhook secret rotated, each with a reason
 * (audited); the monthly counts as CSV for the invoice.
 */
export function StaffMerchants() {
  const merchants = useStaffMerchants();
  const create = useCreateMerchant();
  const keyAction = useMerchantKeyAction();
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const [webhookUrl, setWebhookUrl] = useState('');
  const [acting, setActing] = useState<{ action: KeyAction; merchant: StaffMerchant } | null>(null);
  const [branding, setBranding] = useState<string | null>(null);
  const [shown, setShown] = useState<{ merchantId: string; items: { label: string; value: string }[] } | null>(null);
  const [done, setDone] = useState<string | null>(null);

  return (
    <section className="flex flex-col gap-4" aria-labelledby="staff-merchants-heading">
      <title>Merchants · Staff · GiftLens</title>
      <h1 tabIndex={-1} id="staff-merchants-heading" className="text-xl font-bold tracking-tight text-stone-900 sm:text-2xl">
        Merchants
      </h1>
      <p className="text-sm text-stone-600">Shops that create gifts through the merchant API. Keys are kept hashed: a new key is shown once.</p>
      <DoneStatus text={done} />
      {shown && !shown.merchantId ? <ShownOnce items={shown.items} /> : null}
      {creating ? (
        <ReasonForm
          title="A new merchant"
          submitLabel="Create merchant"
          pendingLabel="Creating…"
          pending={create.isPending}
          error={create.error?.message ?? null}
          validate={() => (!name.trim() ? 'Please give the shop’s name.' : !webhookUrl.trim() ? 'Please give the shop’s webhook URL (https://…).' : null)}
          onCancel={() => setCreating(false)}
          onSubmit={(reason) =>
            create.mutate(
              { name: name.trim(), webhookUrl: webhookUrl.trim(), reason },
              {
                onSuccess: (made) => {
                  setCreating(false);
                  setName('');
                  setWebhookUrl('');
                  setDone(`${made.merchant.name} created.`);
                  setShown({ merchantId: '', items: [{ label: 'API key', value: made.apiKey }, { label: 'Webhook secret', value: made.webhookSecret }] });
                },
              },
            )
          }
        >
          <TextField label="Shop name" value={name} onChange={(e) => setName(e.target.value)} autoFocus />
          <TextField label="Webhook URL" type="url" value={webhookUrl} onChange={(e) => setWebhookUrl(e.target.value)} hint="https:// on a public host" />
        </ReasonForm>
      ) : (
        <div>
          <Button
            onClick={() => {
              create.reset();
              setShown(null);
              setDone(null);
              setCreating(true);
            }}
          >
            New merchant
          </Button>
        </div>
      )}
      {merchants.isPending ? <PageSpinner label="Loading the merchants…" /> : null}
      {merchants.isError ? <Alert>{merchants.error.message}</Alert> : null}
      {merchants.data ? (
        merchants.data.merchants.length === 0 ? (
          <p className="text-stone-600">No merchant yet.</p>
        ) : (
          <ul aria-label="Merchants" className="flex flex-col gap-3">
            {merchants.data.merchants.map((m) => (
              <li key={m.id} className="flex flex-col gap-2 rounded-2xl border border-stone-200 bg-white p-3">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h2 className="font-semibold break-all text-stone-900">
                    {m.displayName ?? m.name}
                    {m.displayName ? <span className="ml-2 text-sm font-normal text-stone-500">({m.name})</span> : null}
                  </h2>
                  <a className="text-sm font-medium text-brand-700 underline" href={staffMerchantApi.usageCsv(m.id)} download>
                    Monthly counts (CSV)
                  </a>
                </div>
                <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  <dt className="text-stone-500">Key</dt>
                  <dd className="font-mono break-all text-stone-900">{m.keyPrefix ? `${m.keyPrefix}…` : 'none (revoked)'}</dd>
                  <dt className="text-stone-500">Webhook</dt>
                  <dd className="break-all text-stone-900">{m.webhookUrl}</dd>
                  <dt className="text-stone-500">Brand</dt>
                  <dd className="flex flex-wrap items-center gap-2 text-stone-900">
                    {m.logoUrl ? <img src={m.logoUrl} alt={`Logo of ${m.name}`} className="h-8 w-auto max-w-24 object-contain" /> : null}
                    {m.brandColour ? <span aria-hidden="true" className="inline-block size-4 rounded border border-stone-300" style={{ backgroundColor: m.brandColour }} /> : null}
                    <span>{m.brandColour ?? (m.logoUrl ? '' : 'not set')}</span>
                  </dd>
                  <dt className="text-stone-500">Since</dt>
                  <dd className="text-stone-900">{formatStamp(m.createdAt)}</dd>
                </dl>
                {shown?.merchantId === m.id ? <ShownOnce items={shown.items} /> : null}
                {branding === m.id ? (
                  <MerchantBrandForm
                    merchant={m}
                    onCancel={() => setBranding(null)}
                    onDone={(text) => {
                      setBranding(null);
                      setDone(text);
                    }}
                  />
                ) : acting?.merchant.id === m.id ? (
                  <ReasonForm
                    title={ACTIONS[acting.action].title(m.displayName ?? m.name)}
                    description={ACTIONS[acting.action].description}
                    submitLabel={ACTIONS[acting.action].label}
                    pendingLabel="Working…"
                    pending={keyAction.isPending}
                    error={keyAction.error?.message ?? null}
                    danger={ACTIONS[acting.action].danger}
                    onCancel={() => setActing(null)}
                    onSubmit={(reason) =>
                      keyAction.mutate(
                        { action: acting.action, merchantId: m.id, reason },
                        {
                          onSuccess: (r) => {
                            const action = acting.action;
                            setActing(null);
                            setDone(action === 'revoke' ? `${r.revoked} key(s) of ${m.name} revoked.` : `${ACTIONS[action].label}: done for ${m.name}.`);
                            setShown(r.shown ? { merchantId: m.id, items: [{ label: action === 'secret' ? 'Webhook secret' : 'API key', value: r.shown }] } : null);
                          },
                        },
                      )
                    }
                  />
                ) : (
                  <div className="flex flex-wrap gap-2">
                    <Button
                      variant="secondary"
                      size="sm"
                      aria-label={`Brand of ${m.name}`}
                      onClick={() => {
                        setActing(null);
                        setDone(null);
                        setShown(null);
                        setBranding(m.id);
                      }}
                    >
                      Brand
                    </Button>
                    {(Object.keys(ACTIONS) as KeyAction[]).map((action) => (
                      <Button
                        key={action}
                        variant="secondary"
                        size="sm"
                        aria-label={`${ACTIONS[action].label} of ${m.name}`}
                        onClick={() => {
                          keyAction.reset();
                          setDone(null);
                          setShown(null);
                          setBranding(null);
                          setActing({ action, merchant: m });
                        }}
                      >
                        {ACTIONS[action].label}
                      </Button>
                    ))}
                  </div>
                )}
              </li>
            ))}
          </ul>
        )
      ) : null}
    </section>
  );
}
