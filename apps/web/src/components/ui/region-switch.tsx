import type { Region } from '@giftlens/contract/plans';
import { texts } from '@giftlens/contract/texts';
import { useId, useState } from 'react';

const REGIONS: Region[] = ['IN', 'US'];

/**
 * The two price lists as a segmented control (a radio group): India (₹) and everywhere else ($). The checked one
 * is the list on screen. The visually hidden radios show their keyboard focus on their label (WCAG 2.4.7), and a
 * switch says which prices are now shown (every price changes at once: WCAG 4.1.3).
 */
export function RegionSwitch({ region, onChange, className = '' }: { region: Region | undefined; onChange: (region: Region) => void; className?: string }) {
  const labelId = useId();
  // Empty until the visitor switches: the list shown on arrival is no news.
  const [announced, setAnnounced] = useState('');
  return (
    <>
      <div role="radiogroup" aria-labelledby={labelId} className={`flex flex-wrap items-center gap-x-3 gap-y-2 ${className}`}>
        <span id={labelId} className="text-sm font-medium text-stone-700">
          {texts.sender.priceRegionLabel}
        </span>
        <span className="inline-flex rounded-xl border border-stone-300 bg-white p-1">
          {REGIONS.map((r) => {
            const checked = r === region;
            return (
              <label
                key={r}
                className={`relative inline-flex min-h-10 cursor-pointer items-center rounded-lg px-3 text-sm font-semibold whitespace-nowrap transition has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-600 ${
                  checked ? 'bg-brand-600 text-white' : 'text-stone-700 hover:bg-stone-100'
                }`}
              >
                <input
                  type="radio"
                  name={labelId}
                  value={r}
                  checked={checked}
                  onChange={() => {
                    setAnnounced(texts.sender.pricesFor[r]);
                    onChange(r);
                  }}
                  className="sr-only"
                />
                {texts.sender.priceRegions[r]}
              </label>
            );
          })}
        </span>
      </div>
      <p role="status" className="sr-only">
        {announced}
      </p>
    </>
  );
}
