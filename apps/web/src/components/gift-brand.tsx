import { giftBrandApi, GiftBrandResponse } from '@giftlens/contract/brand';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client.ts';

/** The brand of a merchant's gift (decision 058), or null for a sender's own; asked once per gift. */
function useGiftBrand(giftId: string | undefined) {
  return useQuery({
    queryKey: ['gift-brand', giftId],
    queryFn: ({ signal }) => apiRequest('GET', giftBrandApi(giftId ?? ''), undefined, { fallbackError: '', schema: GiftBrandResponse, signal }),
    enabled: Boolean(giftId && /^[0-9a-f]{32}$/.test(giftId)),
    staleTime: Infinity,
    retry: false,
  });
}

/**
 * "A message from Priya, with your order from Shop" and the shop's logo, on the recipient's greeting, instructions
 * and message pages of a gift a shop sent. Nothing for a sender's own gift, or while it is asked.
 */
export function GiftBrandLine({ giftId }: { giftId: string | undefined }) {
  const { data } = useGiftBrand(giftId);
  const brand = data?.brand;
  if (!brand) return null;
  return (
    <div data-testid="gift-brand" className="flex max-w-md flex-col items-center gap-2 rounded-2xl bg-white px-4 py-3 shadow-sm sm:flex-row sm:text-left" style={brand.colour ? { borderTop: `4px solid ${brand.colour}` } : undefined}>
      {brand.logoUrl ? <img src={brand.logoUrl} alt={`${brand.name} logo`} className="h-10 w-auto max-w-[8rem] object-contain" /> : null}
      <p className="text-stone-700">
        A message from <span className="font-semibold text-stone-900">{data.senderName ?? 'someone special'}</span>, with your order from{' '}
        <span className="font-semibold text-stone-900">{brand.name}</span>
      </p>
    </div>
  );
}
