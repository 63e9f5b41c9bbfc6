import type { MyGift } from '@giftlens/contract/my-gifts';
import type { Delivery } from '@giftlens/contract/scheduling';
import { Gift, RefreshCw } from 'lucide-react';
import { paths } from '../../../config/paths.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import type { useMyGifts } from '../api/my-gifts.ts';
import { GiftCard } from './gift-card.tsx';

interface MyGiftsListProps {
  email: string;
  gifts: ReturnType<typeof useMyGifts>;
  sessionGone: boolean;
  now: Date;
  onDelete: (gift: MyGift) => void;
  onChangeDelivery: (gift: MyGift, delivery: Delivery) => void;
}

/** The gifts, or loading, the load error with Try again, or the empty state. */
export function MyGiftsList({ email, gifts, sessionGone, now, ...handlers }: MyGiftsListProps) {
  if (gifts.isPending || sessionGone) {
    return <PageSpinner label="Loading your gifts…" />;
  }
  if (gifts.isError) {
    return (
      <div className="flex flex-col items-start gap-3">
        <Alert className="w-full">We couldn’t load your gifts. {gifts.error.message}</Alert>
        <Button variant="secondary" onClick={() => void gifts.refetch()} disabled={gifts.isFetching}>
          <RefreshCw className={`size-4 ${gifts.isFetching ? 'animate-spin' : ''}`} aria-hidden /> Try again
        </Button>
      </div>
    );
  }
  if (gifts.data.gifts.length === 0) {
    return (
      <div className="flex flex-col items-center gap-4 rounded-3xl border border-dashed border-stone-300 bg-white px-6 py-12 text-center">
        <span className="flex size-14 items-center justify-center rounded-full bg-brand-100 text-brand-600">
          <Gift className="size-7" aria-hidden />
        </span>
        <div>
          <h2 className="text-lg font-bold text-stone-900">No gifts yet</h2>
          <p className="mt-1 text-stone-600">Gifts you send with {email} will show up here.</p>
        </div>
        <ButtonLink to={paths.send.href()}>Send a gift</ButtonLink>
      </div>
    );
  }
  return (
    <ul className="flex flex-col gap-5" aria-label="Your gifts">
      {gifts.data.gifts.map((gift) => (
        <li key={gift.id}>
          <GiftCard gift={gift} now={now} {...handlers} />
        </li>
      ))}
    </ul>
  );
}
