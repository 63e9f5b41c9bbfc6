import { GiftId } from '@giftlens/contract/common';
import { texts } from '@giftlens/contract/texts';
import { useParams } from 'react-router';
import { Alert } from '../../components/ui/alert.tsx';
import { CheckoutPage } from '../../features/checkout/components/checkout-page.tsx';
import { useUploadStatus } from '../../features/message-upload/hooks/use-upload-status.ts';

/** /checkout/{giftId}: the checkout, told about a message upload still running in the background. */
export function CheckoutRoute() {
  const { giftId = '' } = useParams();
  const valid = GiftId.safeParse(giftId).success;
  const upload = useUploadStatus(valid ? giftId : undefined);
  if (!valid) {
    return (
      <div className="mx-auto max-w-lg px-4 py-10">
        <Alert>{texts.sender.giftIdMissing}</Alert>
      </div>
    );
  }
  return <CheckoutPage giftId={giftId} upload={upload} />;
}
