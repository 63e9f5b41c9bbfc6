import type { Delivery } from '@giftlens/contract/scheduling';
import { Alert } from '../../../components/ui/alert.tsx';
import { useRefreshDeliveries } from '../../../deliveries/api/deliveries.ts';
import { DeliveryItem } from '../../../deliveries/components/delivery-item.tsx';

/** Every delivery of the gift that was not cancelled, newest first, with its status. */
export function DeliveriesList({
  giftId,
  deliveries,
  error,
  onChange,
}: {
  giftId: string;
  deliveries: Delivery[];
  /** Why the list could not be loaded, if it could not. */
  error: string | null;
  onChange: (delivery: Delivery) => void;
}) {
  const refreshDeliveries = useRefreshDeliveries(giftId);
  const shown = deliveries.filter((d) => d.status !== 'cancelled');
  if (!error && shown.length === 0) return null;
  return (
    <section
      aria-labelledby="deliveries-heading"
      className="mt-5 flex flex-col gap-3 border-t border-stone-200 pt-4"
    >
      <h2 id="deliveries-heading" className="font-semibold text-stone-900">
        Deliveries
      </h2>
      {error ? <Alert>{error}</Alert> : null}
      {shown.length > 0 ? (
        <ul className="flex flex-col gap-2">
          {shown.map((d) => (
            <DeliveryItem key={d.id} delivery={d} onChange={onChange} onCancelled={refreshDeliveries} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
