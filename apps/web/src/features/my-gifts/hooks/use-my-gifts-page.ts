import type { MyGift } from '@giftlens/contract/my-gifts';
import type { Delivery } from '@giftlens/contract/scheduling';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '../../../lib/toast.ts';
import { paths } from '../../../config/paths.ts';
import { isSignedOutError } from '../../../api/sender-me.ts';
import { useDeleteAccount, useSignOut } from '../api/account.ts';
import { useDeleteGift } from '../api/delete-gift.ts';
import { useMyGifts } from '../api/my-gifts.ts';

/** Validity ("Valid for N more hours") is worked out against this clock, ticking once a minute. */
function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/**
 * My Gifts' state: the gifts, the clock, the open dialogs, and signing out, deleting a gift or the account,
 * changing or cancelling a delivery. `onSessionEnded` runs when the session is over, here or elsewhere.
 */
export function useMyGiftsPage(onSessionEnded: () => void) {
  const navigate = useNavigate();
  const now = useMinuteClock();
  const gifts = useMyGifts();
  const signOut = useSignOut();
  const deleteGift = useDeleteGift();
  const deleteAccount = useDeleteAccount();
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

  return {
    now,
    gifts,
    sessionGone,
    signOutPending: signOut.isPending,
    doSignOut,
    deleting,
    askDeleteGift: (gift: MyGift) => {
      deleteGift.reset();
      setDeleting(gift);
    },
    closeDeleteGift: () => setDeleting(null),
    confirmDeleteGift,
    deleteGift,
    accountOpen,
    askDeleteAccount: () => {
      deleteAccount.reset();
      setAccountOpen(true);
    },
    closeDeleteAccount: () => setAccountOpen(false),
    confirmDeleteAccount,
    deleteAccount,
    changeDelivery: (gift: MyGift, delivery: Delivery) => void navigate(paths.share.href(gift.id, delivery.id)),
  };
}
