import type { MyGift } from '@giftlens/contract/my-gifts';
import type { Delivery } from '@giftlens/contract/scheduling';
import { Gift, LogOut, Plus, RefreshCw, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { paths } from '../../../app/paths.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { isSignedOutError } from '../../../lib/sender-me.ts';
import { useDeleteAccount, useSignOut } from '../api/account.ts';
import { useCancelDelivery } from '../api/cancel-delivery.ts';
import { useDeleteGift } from '../api/delete-gift.ts';
import { useMyGifts } from '../api/my-gifts.ts';
import { DeleteAccountDialog, DeleteGiftDialog } from './delete-dialogs.tsx';
import { GiftCard } from './gift-card.tsx';
import { EmailAddress } from '../../../components/ui/email-address.tsx';

/** Validity ("Valid for N more hours") is worked out against this clock, ticking once a minute. */
function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

interface MyGiftsPageProps {
  email: string;
  /**
   * The session is over: signed out here, ended on another device, or the account deleted. The app layer forgets
   * what this tab knew about the sender, and the sign-in shows again.
   */
  onSessionEnded: () => void;
}

/** /my-gifts for a signed-in sender: every gift with its state, and sign-out and deletion. */
export function MyGiftsPage({ email, onSessionEnded }: MyGiftsPageProps) {
  const navigate = useNavigate();
  const now = useMinuteClock();
  const gifts = useMyGifts();
  const signOut = useSignOut();
  const deleteGift = useDeleteGift();
  const deleteAccount = useDeleteAccount();
  const cancelDelivery = useCancelDelivery();
  const [deleting, setDeleting] = useState<MyGift | null>(null);
  const [accountOpen, setAccountOpen] = useState(false);

  // A session ended elsewhere (sign out everywhere on another device) shows up as a 401 here.
  const sessionGone = isSignedOutError(gifts.error);
  useEffect(() => {
    if (sessionGone) onSessionEnded();
  }, [sessionGone, onSessionEnded]);

  const doSignOut = (everywhere: boolean) => {
    signOut.mutate(everywhere, {
      onSuccess: () => {
        toast.success(everywhere ? 'You are signed out on every device.' : 'You are signed out.');
        onSessionEnded();
      },
      onError: (err) => {
        if (isSignedOutError(err)) onSessionEnded();
        else toast.error(err.message);
      },
    });
  };

  const confirmDeleteGift = (gift: MyGift) => {
    deleteGift.mutate(gift.id, {
      onSuccess: () => {
        setDeleting(null);
        toast.success(`The gift for ${gift.recipientName} is deleted.`);
      },
    });
  };

  const confirmDeleteAccount = () => {
    deleteAccount.mutate(undefined, {
      onSuccess: () => {
        setAccountOpen(false);
        toast.success('Your account and all your gifts are deleted.');
        onSessionEnded();
      },
    });
  };

  const changeDelivery = (gift: MyGift, delivery: Delivery) =>
    void navigate(paths.share.href(gift.id, delivery.id));

  let body;
  if (gifts.isPending || sessionGone) {
    body = <PageSpinner label="Loading your gifts…" />;
  } else if (gifts.isError) {
    body = (
      <div className="flex flex-col items-start gap-3">
        <Alert className="w-full">We couldn’t load your gifts. {gifts.error.message}</Alert>
        <Button variant="secondary" onClick={() => void gifts.refetch()} disabled={gifts.isFetching}>
          <RefreshCw className={`size-4 ${gifts.isFetching ? 'animate-spin' : ''}`} aria-hidden /> Try again
        </Button>
      </div>
    );
  } else if (gifts.data.gifts.length === 0) {
    body = (
      <div className="flex flex-col items-center gap-4 rounded-3xl border border-dashed border-stone-300 bg-white px-6 py-12 text-center">
        <span className="flex size-14 items-center justify-center rounded-full bg-brand-100 text-brand-600">
          <Gift className="size-7" aria-hidden />
        </span>
        <div>
          <h2 className="text-lg font-bold text-stone-900">No gifts yet</h2>
          <p className="mt-1 text-stone-600">Gifts you send with {email} will show up here.</p>
        </div>
        <ButtonLink to={paths.send.href()}>Send a gift</ButtonLink>
      </div>
    );
  } else {
    body = (
      <ul className="flex flex-col gap-5" aria-label="Your gifts">
        {gifts.data.gifts.map((gift) => (
          <li key={gift.id}>
            <GiftCard
              gift={gift}
              now={now}
              onDelete={(g) => {
                deleteGift.reset();
                setDeleting(g);
              }}
              onChangeDelivery={changeDelivery}
              onCancelDelivery={(id) => cancelDelivery.mutateAsync(id)}
            />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div className="bg-stone-50 px-4 py-6 sm:py-10">
      <div className="mx-auto flex max-w-4xl flex-col gap-6">
        <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div className="min-w-0">
            <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">My Gifts</h1>
            <p className="mt-1 text-stone-600">
              Signed in as <EmailAddress email={email} className="font-semibold text-stone-900" />
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <ButtonLink to={paths.send.href()} className="grow sm:grow-0">
              <Plus className="size-4" aria-hidden /> Send a new gift
            </ButtonLink>
            <Button variant="secondary" className="grow sm:grow-0" onClick={() => doSignOut(false)} disabled={signOut.isPending}>
              <LogOut className="size-4" aria-hidden /> Sign out
            </Button>
          </div>
        </header>

        {body}

        <section
          aria-labelledby="account-heading"
          className="flex flex-col gap-3 rounded-3xl border border-stone-200 bg-white p-4 sm:p-6"
        >
          <h2 id="account-heading" className="text-lg font-bold text-stone-900">
            Your account
          </h2>
          <p className="text-sm text-stone-600">
            Signed in on another phone or computer? “Sign out everywhere” ends every session, this one too.
            Deleting your account removes all your gifts and everything we hold about you.
          </p>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button variant="secondary" onClick={() => doSignOut(true)} disabled={signOut.isPending}>
              <LogOut className="size-4" aria-hidden /> Sign out everywhere
            </Button>
            <Button
              variant="secondary"
              className="border-red-200! text-red-700! hover:bg-red-50!"
              onClick={() => {
                deleteAccount.reset();
                setAccountOpen(true);
              }}
            >
              <Trash2 className="size-4" aria-hidden /> Delete my account
            </Button>
          </div>
        </section>
      </div>

      <DeleteGiftDialog
        gift={deleting}
        pending={deleteGift.isPending}
        error={deleteGift.error?.message ?? null}
        onConfirm={confirmDeleteGift}
        onClose={() => setDeleting(null)}
      />
      <DeleteAccountDialog
        open={accountOpen}
        giftCount={gifts.data?.gifts.length ?? null}
        pending={deleteAccount.isPending}
        error={deleteAccount.error?.message ?? null}
        onConfirm={confirmDeleteAccount}
        onClose={() => setAccountOpen(false)}
      />
    </div>
  );
}
