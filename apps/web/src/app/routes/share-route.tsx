import { GiftId } from '@giftlens/contract/common';
import { M } from '@giftlens/contract/messages';
import { useEffect } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { prepareNextGift } from '../../features/sender-wizard/hooks/use-wizard-state.ts';
import { SharePage } from '../../features/share/components/share-page.tsx';
import { CHANGE_DELIVERY_PARAM, paths } from '../paths.ts';

/**
 * /share/{giftId}: without a usable gift id there is nothing to share, so say so and go home.
 * /share/{giftId}?change={deliveryId} opens that delivery's Change form (My Gifts' Change).
 */
export function ShareRoute() {
  const { giftId = '' } = useParams();
  const [search] = useSearchParams();
  const changeDeliveryId = search.get(CHANGE_DELIVERY_PARAM) ?? undefined;
  const valid = GiftId.safeParse(giftId).success;
  useEffect(() => {
    if (!valid) toast.error(M.giftIdMissing);
    // This gift is done: the next visit to /send begins a new one.
    else prepareNextGift();
  }, [valid]);
  if (!valid) return <Navigate to={paths.home.href()} replace />;
  return <SharePage giftId={giftId} changeDeliveryId={changeDeliveryId} />;
}
