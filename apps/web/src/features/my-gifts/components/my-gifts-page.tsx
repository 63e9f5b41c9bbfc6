import { LogOut, Plus } from 'lucide-react';
import { Suspense, useEffect, useState } from 'react';
import { paths } from '../../../config/paths.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { EmailAddress } from '../../../components/ui/email-address.tsx';
import { onFirstInteraction } from '../../../lib/first-interaction.ts';
import { lazyPart } from '../../../lib/lazy-part.ts';
import { useMyGiftsPage } from '../hooks/use-my-gifts-page.ts';
import { AccountSection } from './account-section.tsx';
import { MyGiftsList } from './my-gifts-list.tsx';

// The two confirmations open only on a tap (Delete, Delete my account): their code loads on the first interaction
// (decision 046).
const loadDialogs = () => import('./delete-dialogs.tsx');
const { Part: DeleteGiftDialog, preload: preloadDialogs } = lazyPart(() => loadDialogs().then((m) => m.DeleteGiftDialog));
const { Part: DeleteAccountDialog } = lazyPart(() => loadDialogs().then((m) => m.DeleteAccountDialog));

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
  const page = useMyGiftsPage(onSessionEnded);
  const { gifts, deleteGift, deleteAccount } = page;
  useEffect(() => onFirstInteraction(preloadDialogs), []);
  // Once asked for, the dialogs stay in the page, so closing one returns focus as a <dialog> does.
  const [dialogsWanted, setDialogsWanted] = useState(false);
  if (!dialogsWanted && (page.deleting !== null || page.accountOpen)) setDialogsWanted(true);

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
            <Button
              variant="secondary"
              className="grow sm:grow-0"
              onClick={() => page.doSignOut(false)}
              disabled={page.signOutPending}
            >
              <LogOut className="size-4" aria-hidden /> Sign out
            </Button>
          </div>
        </header>

        <MyGiftsList
          email={email}
          gifts={gifts}
          sessionGone={page.sessionGone}
          now={page.now}
          onDelete={page.askDeleteGift}
          onChangeDelivery={page.changeDelivery}
        />

        <AccountSection
          signOutPending={page.signOutPending}
          onSignOutEverywhere={() => page.doSignOut(true)}
          onDeleteAccount={page.askDeleteAccount}
        />
      </div>

      {dialogsWanted ? (
        <Suspense fallback={null}>
          <DeleteGiftDialog
            gift={page.deleting}
            pending={deleteGift.isPending}
            error={deleteGift.error?.message ?? null}
            onConfirm={page.confirmDeleteGift}
            onClose={page.closeDeleteGift}
          />
          <DeleteAccountDialog
            open={page.accountOpen}
            giftCount={gifts.data?.gifts.length ?? null}
            pending={deleteAccount.isPending}
            error={deleteAccount.error?.message ?? null}
            onConfirm={page.confirmDeleteAccount}
            onClose={page.closeDeleteAccount}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
