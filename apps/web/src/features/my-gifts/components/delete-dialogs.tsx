import type { MyGift } from '@giftlens/contract/my-gifts';
import { Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { ORDER_RECORD_YEARS } from '@giftlens/contract/constants';

/** What a paid order leaves behind (the privacy page says the same, in more detail). */
export const ORDER_RECORD_STAYS = `the order’s amount, date and payment provider ids — no names, e-mails or messages. Tax and accounting law requires us to keep them for ${ORDER_RECORD_YEARS} years from the payment; then we delete them.`;

const MESSAGE_WORDS: Record<NonNullable<MyGift['messageType']>, string> = {
  video: 'your video message',
  audio: 'your voice message',
  text: 'your text message',
};

function ConfirmBody({
  goes,
  stays,
  error,
  children,
}: {
  goes: ReactNode[];
  stays: ReactNode;
  error: string | null;
  children: ReactNode;
}) {
  return (
    <div className="flex w-full flex-col gap-4 text-left text-[15px] text-stone-700">
      <div>
        <p className="font-semibold text-stone-900">Deleted now, for good:</p>
        <ul className="mt-1.5 list-disc space-y-1 pl-5">
          {goes.map((item, i) => (
            <li key={i}>{item}</li>
          ))}
        </ul>
        <p className="mt-2">Files included: nothing of it stays in our storage, and it cannot be undone.</p>
      </div>
      <div className="rounded-xl bg-stone-50 px-4 py-3">
        <p className="font-semibold text-stone-900">What stays</p>
        <p className="mt-1">{stays}</p>
      </div>
      {error ? <Alert>{error}</Alert> : null}
      <div className="flex flex-col-reverse gap-2">{children}</div>
    </div>
  );
}

/** "Delete the gift for Ravi?": what goes (photos, recognition data, message, reaction, deliveries) and what stays. */
export function DeleteGiftDialog({
  gift,
  pending,
  error,
  onConfirm,
  onClose,
}: {
  gift: MyGift | null;
  pending: boolean;
  error: string | null;
  onConfirm: (gift: MyGift) => void;
  onClose: () => void;
}) {
  const paid = gift?.paidAt != null;
  return (
    <Modal
      open={gift !== null}
      title={gift ? `Delete the gift for ${gift.recipientName}?` : ''}
      onDismiss={() => (pending ? undefined : onClose())}
      icon={
        <span className="flex size-14 items-center justify-center rounded-full bg-red-100 text-red-600">
          <Trash2 className="size-7" aria-hidden />
        </span>
      }
    >
      {gift ? (
        <ConfirmBody
          goes={[
            'the gift’s photos and the recognition data made from them',
            gift.messageType ? MESSAGE_WORDS[gift.messageType] : 'your message, if you added one',
            gift.reaction ? `${gift.recipientName}’s recorded reaction` : 'the recipient’s reaction, if one was recorded',
            'its scheduled deliveries (the link will not be sent)',
          ]}
          stays={
            paid
              ? `For this paid gift: ${ORDER_RECORD_STAYS}`
              : 'Nothing: this gift was never paid for, so there is no order to keep.'
          }
          error={error}
        >
          <Button variant="secondary" onClick={onClose} disabled={pending} autoFocus>
            Keep it
          </Button>
          <Button variant="danger" onClick={() => onConfirm(gift)} disabled={pending}>
            {pending ? 'Deleting…' : 'Delete gift'}
          </Button>
        </ConfirmBody>
      ) : null}
    </Modal>
  );
}

/** "Delete your account?": every gift as above, plus subscriptions, sessions, codes and the sender. */
export function DeleteAccountDialog({
  open,
  giftCount,
  pending,
  error,
  onConfirm,
  onClose,
}: {
  open: boolean;
  /** null while the list is not loaded. */
  giftCount: number | null;
  pending: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal
      open={open}
      title="Delete your account?"
      onDismiss={() => (pending ? undefined : onClose())}
      icon={
        <span className="flex size-14 items-center justify-center rounded-full bg-red-100 text-red-600">
          <Trash2 className="size-7" aria-hidden />
        </span>
      }
    >
      <ConfirmBody
        goes={[
          giftCount === 0
            ? 'your gifts (you have none at the moment)'
            : `${giftCount === null ? 'all your gifts' : giftCount === 1 ? 'your gift' : `all ${giftCount} of your gifts`}, each with its photos and recognition data, message, reaction and scheduled deliveries`,
          'your notification subscriptions',
          'your sessions: you are signed out on every device',
          'your verification codes',
          'your e-mail address and first name',
        ]}
        stays={`For each paid gift: ${ORDER_RECORD_STAYS}`}
        error={error}
      >
        <Button variant="secondary" onClick={onClose} disabled={pending} autoFocus>
          Keep my account
        </Button>
        <Button variant="danger" onClick={onConfirm} disabled={pending}>
          {pending ? 'Deleting…' : 'Delete my account'}
        </Button>
      </ConfirmBody>
    </Modal>
  );
}
