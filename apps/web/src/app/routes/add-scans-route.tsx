import { GiftId } from '@giftlens/contract/common';
import { texts } from '@giftlens/contract/texts';
import { useParams } from 'react-router';
import { Alert } from '../../components/ui/alert.tsx';
import { AddScansPage } from '../../features/checkout/components/add-scans-page.tsx';

/** /add-scans/{giftId}: more scans for a paid gift (issue 40). */
export function AddScansRoute() {
  const { giftId = '' } = useParams();
  if (!GiftId.safeParse(giftId).success) {
    return (
      <div className="mx-auto max-w-lg px-4 py-10">
        <Alert>{texts.sender.giftIdMissing}</Alert>
      </div>
    );
  }
  return <AddScansPage giftId={giftId} />;
}
