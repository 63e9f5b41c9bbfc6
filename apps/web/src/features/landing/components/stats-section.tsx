const STATS = [
  { value: '50K+', label: 'Messages sent' },
  { value: '40K+', label: 'Gifts scanned' },
] as const;

/** Share of gifts by category, in percent, as the landing page states it. */
const CATEGORIES = [
  { name: 'Jewelry', share: 35 },
  { name: 'Electronics', share: 25 },
  { name: 'Fashion', share: 20 },
  { name: 'Home', share: 12 },
  { name: 'Books', share: 8 },
] as const;

const MAX_SHARE = Math.max(...CATEGORIES.map((c) => c.share));

export function StatsSection() {
  return (
    <section aria-labelledby="stats-heading" className="bg-stone-50">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-16 sm:px-6 lg:grid-cols-2 lg:items-center lg:py-20">
        <div>
          <h2 id="stats-heading" className="text-3xl font-bold tracking-tight text-stone-900 sm:text-4xl">
            Gifts that people keep talking about
          </h2>
          <p className="mt-4 max-w-lg text-lg leading-relaxed text-stone-700">
            Birthdays, anniversaries, long-distance surprises: givers everywhere are turning ordinary boxes into
            moments their people replay.
          </p>
          <dl className="mt-8 grid grid-cols-2 gap-4">
            {STATS.map((s) => (
              <div key={s.label} className="rounded-2xl border border-stone-200 bg-white p-5">
                <dt className="text-sm font-medium text-stone-600">{s.label}</dt>
                <dd className="mt-1 text-4xl font-extrabold tracking-tight text-brand-600">{s.value}</dd>
              </div>
            ))}
          </dl>
        </div>

        <figure className="rounded-3xl border border-stone-200 bg-white p-6 sm:p-8">
          <figcaption className="text-lg font-semibold text-stone-900">Popular gift categories</figcaption>
          <p className="mt-1 text-sm text-stone-600">Share of gifts sent with a GiftLens message</p>
          {/* A real table underneath, so assistive technology reads names and numbers, not bars. */}
          <table className="mt-6 w-full border-separate border-spacing-y-3">
            <thead className="sr-only">
              <tr>
                <th scope="col">Category</th>
                <th scope="col">Share of gifts</th>
              </tr>
            </thead>
            <tbody>
              {CATEGORIES.map((c) => (
                <tr key={c.name}>
                  <th scope="row" className="w-28 pr-3 text-left text-[15px] font-medium text-stone-700">
                    {c.name}
                  </th>
                  <td className="p-0">
                    <div className="flex items-center gap-3">
                      <div className="h-7 flex-1 overflow-hidden rounded-lg bg-stone-100" aria-hidden="true">
                        <div
                          className="h-full rounded-lg bg-gradient-to-r from-[#f0532d] to-brand-500"
                          style={{ width: `${(c.share / MAX_SHARE) * 100}%` }}
                        />
                      </div>
                      <span className="w-11 text-right text-[15px] font-semibold text-stone-900 tabular-nums">
                        {c.share}%
                      </span>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </figure>
      </div>
    </section>
  );
}
