import { GiftId } from '@giftlens/contract/common';
import { texts } from '@giftlens/contract/texts';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { Alert } from '../../components/ui/alert.tsx';
import { PageSpinner } from '../../components/ui/page-spinner.tsx';
import { MessageStep } from '../../features/message-upload/components/message-step.tsx';
import { myGiftsQueryKey, useMyGifts } from '../../features/my-gifts/api/my-gifts.ts';
import { isSignedOutError } from '../../api/sender-me.ts';
import { paths } from '../../config/paths.ts';

/**
 * /my-gifts/{giftId}/message: a paid gift's message recorded or uploaded again, with the plan's limits, until the
 * gift is first opened (the server enforces it too). Afterwards the sender goes back to My Gifts, not to checkout.
 */
export function ReplaceMessageRoute() {
  const { giftId = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const valid = GiftId.safeParse(giftId).success;
  const gifts = useMyGifts();
  const gift = gifts.data?.gifts.find((g) => g.id === giftId);

  const back = (
    <Link to={paths.myGifts.href()} className="font-semibold text-brand-600 underline">
      Back to My Gifts
    </Link>
  );

  let body;
  if (!valid) body = <Alert>{texts.sender.giftIdMissing}</Alert>;
  else if (gifts.isPending) body = <PageSpinner label="Loading your gift…" />;
  else if (gifts.isError)
    body = <Alert>{isSignedOutError(gifts.error) ? texts.sender.unauthorized : gifts.error.message}</Alert>;
  else if (!gift)
    body = <Alert>{texts.sender.giftNotFound}</Alert>;
  else if (gift.status !== 'active')
    // Before payment the wizard's own message step applies (it goes on to checkout).
    body = (
      <div className="flex flex-col gap-4">
        <Alert tone="info">This gift is not paid yet.</Alert>
        <Link to={paths.message.href(giftId)} className="font-semibold text-brand-600 underline">
          Add your message and pay
        </Link>
      </div>
    );
  else if (!gift.canReplaceMessage)
    body = (
      <Alert tone="info">
        {gift.recipientName} has already opened this gift, so its message can no longer be replaced.
      </Alert>
    );
  else
    body = (
      <MessageStep
        giftId={giftId}
        planId={gift.planId}
        planName={gift.planName}
        existingMessage={gift.messageType}
        purpose="replace"
        onContinue={() => {
          void queryClient.invalidateQueries({ queryKey: myGiftsQueryKey });
          void navigate(paths.myGifts.href());
        }}
      />
    );

  return (
    <div className="px-4 py-6 sm:py-10">
      <div className="mx-auto mb-4 max-w-3xl">{back}</div>
      <section className="mx-auto max-w-3xl rounded-3xl border border-stone-200 bg-white p-5 shadow-sm sm:p-8">
        {body}
      </section>
    </div>
  );
}
