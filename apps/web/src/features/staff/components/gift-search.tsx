import { staffTexts } from '@giftlens/contract/staff';
import { Search } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { STAFF_QUERY_MIN, useStaffSearch } from '../api/staff-gifts.ts';
import { formatStamp } from '../lib/staff-format.ts';
import { StateBadge } from './state-badge.tsx';

/** One box for an e-mail (sender or recipient), a gift id, an order id or a provider payment id; the results. */
export function GiftSearch({
  query,
  onSearch,
  giftHref,
}: {
  query: string;
  onSearch: (q: string) => void;
  giftHref: (id: string) => string;
}) {
  const [text, setText] = useState(query);
  const [tooShort, setTooShort] = useState(false);
  const search = useStaffSearch(query);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const q = text.trim();
    setTooShort(q.length < STAFF_QUERY_MIN);
    if (q.length >= STAFF_QUERY_MIN) onSearch(q);
  };

  const found = search.data?.gifts;
  const announcement = search.isFetching
    ? 'Searching…'
    : search.isError
      ? ''
      : found
        ? found.length === 0
          ? `No gift matches “${query}”.`
          : `${found.length} ${found.length === 1 ? 'gift' : 'gifts'} found for “${query}”.`
        : '';

  return (
    <section className="flex flex-col gap-4" aria-labelledby="staff-search-heading">
      <title>Find a gift · Staff · GiftLens</title>
      <h1 id="staff-search-heading" className="text-xl font-bold tracking-tight text-stone-900 sm:text-2xl">
        Find a gift
      </h1>
      <form
        role="search"
        onSubmit={submit}
        noValidate
        className="flex flex-col gap-3 sm:flex-row sm:items-end"
      >
        <div className="grow">
          <TextField
            label="E-mail, gift id, order id or payment id"
            type="search"
            name="q"
            value={text}
            onChange={(e) => setText(e.target.value)}
            error={tooShort ? staffTexts.queryTooShort : undefined}
            autoComplete="off"
            spellCheck={false}
          />
        </div>
        <Button type="submit" disabled={search.isFetching} className={tooShort ? 'sm:mb-7' : ''}>
          <Search className="size-4" aria-hidden /> {search.isFetching ? 'Searching…' : 'Search'}
        </Button>
      </form>

      <p role="status" aria-live="polite" className="text-sm text-stone-600">
        {announcement}
      </p>
      {search.isError ? <Alert>{search.error.message}</Alert> : null}

      {found && found.length > 0 ? (
        <ul aria-label="Gifts found" className="flex flex-col gap-2">
          {found.map((g) => (
            <li key={g.id}>
              <Link
                to={giftHref(g.id)}
                className="flex flex-col gap-1 rounded-2xl border border-stone-200 bg-white p-3 hover:border-brand-300 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 sm:flex-row sm:items-center sm:justify-between sm:gap-4"
              >
                <span className="flex min-w-0 flex-col">
                  <span className="text-sm break-words text-stone-900">
                    <span className="font-semibold">{g.recipientEmail ?? 'no recipient e-mail'}</span> from{' '}
                    {g.senderEmail}
                  </span>
                  <span className="font-mono text-xs break-all text-stone-500">{g.id}</span>
                </span>
                <span className="flex shrink-0 items-center gap-2 text-xs text-stone-600">
                  <StateBadge state={g.state} /> {g.plan} · {formatStamp(g.createdAt)}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
