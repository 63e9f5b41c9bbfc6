import { LogOut, Trash2 } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';

interface AccountSectionProps {
  signOutPending: boolean;
  onSignOutEverywhere: () => void;
  onDeleteAccount: () => void;
}

/** "Your account": sign out everywhere, and delete the account. */
export function AccountSection({ signOutPending, onSignOutEverywhere, onDeleteAccount }: AccountSectionProps) {
  return (
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
        <Button variant="secondary" onClick={onSignOutEverywhere} disabled={signOutPending}>
          <LogOut className="size-4" aria-hidden /> Sign out everywhere
        </Button>
        <Button
          variant="secondary"
          className="border-red-200! text-red-700! hover:bg-red-50!"
          onClick={onDeleteAccount}
        >
          <Trash2 className="size-4" aria-hidden /> Delete my account
        </Button>
      </div>
    </section>
  );
}
