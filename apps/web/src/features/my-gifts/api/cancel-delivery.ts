import { useMutation } from '@tanstack/react-query';
import { cancelDelivery } from '../../../lib/cancel-delivery.ts';
import { useRefreshMyGifts } from './my-gifts.ts';

/** Cancels one of a gift's deliveries from My Gifts; resolves once the list shows it gone. */
export function useCancelDelivery() {
  const refresh = useRefreshMyGifts();
  return useMutation({
    mutationFn: async (id: string) => {
      const res = await cancelDelivery(id);
      await refresh();
      return res;
    },
  });
}
