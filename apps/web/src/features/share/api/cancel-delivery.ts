import { useMutation } from '@tanstack/react-query';
import { cancelDelivery } from '../../../lib/cancel-delivery.ts';
import { useRefreshDeliveries } from './deliveries.ts';

/** Cancels a delivery, then asks for the gift's deliveries again. */
export function useCancelDelivery(giftId: string) {
  const refresh = useRefreshDeliveries(giftId);
  return useMutation({ mutationFn: cancelDelivery, onSuccess: refresh });
}
