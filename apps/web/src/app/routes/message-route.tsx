import { GiftId } from '@giftlens/contract/common';
import { texts } from '@giftlens/contract/texts';
import { Link, useNavigate, useParams } from 'react-router';
import { Alert } from '../../components/ui/alert.tsx';
import { PageSpinner } from '../../components/ui/page-spinner.tsx';
import { useSenderGift } from '../../api/sender-gift.ts';
import { MessageStep } from '../../features/message-upload/components/message-step.tsx';
import { paths } from '../../config/paths.ts';

/** /message/{giftId}: the wizard's message step for an existing gift (its plan sets the size limit). */
export function MessageRoute() {
  const { giftId = '' } = useParams();
  const navigate = useNavigate();
  const valid = GiftId.safeParse(giftId).success;
  const gift = useSenderGift(valid ? giftId : undefined);

  let body;
  if (!valid) body = <Alert>{texts.sender.giftIdMissing}</Alert>;
  else if (gift.isPending) body = <PageSpinner label="Loading your gift…" />;
  else if (gift.isError)
    body = (
      <div className="flex flex-col gap-4">
        <Alert>{gift.error.message}</Alert>
        <Link to={paths.send.href()} className="font-semibold text-brand-600 underline">
          Start a new gift
        </Link>
      </div>
    );
  else if (gift.data.status === 'active')
    body = (
      <div className="flex flex-col gap-4">
        <Alert tone="success">{texts.sender.giftAlreadyPaid}</Alert>
        <Link to={paths.share.href(giftId)} className="font-semibold text-brand-600 underline">
          Share your gift link
        </Link>
      </div>
    );
  else
    body = (
      <MessageStep
        giftId={giftId}
        planId={gift.data.plan.id}
        planName={gift.data.plan.name}
        existingMessage={gift.data.status === 'draft' ? null : gift.data.messageType}
        onContinue={(id) => void navigate(paths.checkout.href(id))}
      />
    );

  return (
    <div className="px-4 py-6 sm:py-10">
      <section className="mx-auto max-w-3xl rounded-3xl border border-stone-200 bg-white p-5 shadow-sm sm:p-8">{body}</section>
    </div>
  );
}
