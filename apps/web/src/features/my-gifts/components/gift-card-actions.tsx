import type { MyGift } from '@giftlens/contract/my-gifts';
import { RotateCcw, Send, Trash2 } from 'lucide-react';
import { paths } from '../../../config/paths.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import type { GiftNextStep, GiftStatusWords } from '../lib/gift-status.ts';

function StepLink({ gift, step, failed }: { gift: MyGift; step: GiftNextStep; failed: boolean }) {
  switch (step) {
    case 'resume':
      return <ButtonLink to={paths.send.href(gift.id)}>Continue</ButtonLink>;
    case 'checkout':
      return <ButtonLink to={paths.checkout.href(gift.id)}>Continue</ButtonLink>;
    case 'upload-again':
      return (
        <ButtonLink to={paths.message.href(gift.id)}>
          <RotateCcw className="size-4" aria-hidden /> Upload again
        </ButtonLink>
      );
    case 'replace':
      return (
        <ButtonLink to={paths.replaceMessage.href(gift.id)} variant={failed ? 'primary' : 'secondary'}>
          <RotateCcw className="size-4" aria-hidden /> {failed ? 'Upload again' : 'Replace message'}
        </ButtonLink>
      );
    case null:
      return null;
  }
}

interface GiftCardActionsProps {
  gift: MyGift;
  status: GiftStatusWords;
  step: GiftNextStep;
  paid: boolean;
  onDelete: (gift: MyGift) => void;
}

/** The card's footer: Share, Group gift, the next step (continue, upload again, replace) and Delete. */
export function GiftCardActions({ gift, status, step, paid: active, onDelete }: GiftCardActionsProps) {
  const failed = status.kind === 'failed';
  // Refunded or taken down: nothing to share; a taken-down gift cannot be deleted either (the server refuses it).
  const paid = active && !gift.withdrawn;
  return (
    <div className="flex flex-wrap gap-2 border-t border-stone-100 pt-4">
      {paid && !failed ? (
        <ButtonLink to={paths.share.href(gift.id)}>
          <Send className="size-4" aria-hidden /> Share
        </ButtonLink>
      ) : null}
      {paid && !failed ? (
        // The share page's group section (features/group-gift) opens at #group; it says so where the plan has no group.
        <ButtonLink to={`${paths.share.href(gift.id)}#group`} variant="secondary">
          Group gift
        </ButtonLink>
      ) : null}
      <StepLink gift={gift} step={step} failed={failed} />
      {paid && failed ? (
        <ButtonLink to={paths.share.href(gift.id)} variant="secondary">
          <Send className="size-4" aria-hidden /> Share
        </ButtonLink>
      ) : null}
      {gift.withdrawn === 'taken_down' ? null : (
        <Button variant="ghost" className="ml-auto text-red-700! hover:bg-red-50!" onClick={() => onDelete(gift)}>
          <Trash2 className="size-4" aria-hidden /> Delete
        </Button>
      )}
    </div>
  );
}
