import { texts } from '@giftlens/contract/texts';
import { useQueryClient } from '@tanstack/react-query';
import { CircleAlert } from 'lucide-react';
import { Suspense, useCallback } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { PageSpinner } from '../../components/ui/page-spinner.tsx';
import { StatusPanel } from '../../components/ui/status-panel.tsx';
import { MyGiftsPage } from '../../features/my-gifts/components/my-gifts-page.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { senderSignIn, wizardState } from './sender-lazy-parts.ts';
import { forgetSender, isSignedOutError, useSenderMe } from '../../api/sender-me.ts';

/**
 * /my-gifts: the sender's own place. Without a session (GET /me answers 401) the sender proves the e-mail with
 * the wizard's code flow (sender-auth) and lands on the list (my-gifts). Signing in here also tells the wizard, so
 * /send does not ask again; signing out makes both forget the sender.
 */
export function MyGiftsRoute() {
  const queryClient = useQueryClient();
  const me = useSenderMe();

  const onSessionEnded = useCallback(() => {
    void wizardState().then((w) => w.forgetWizard());
    void forgetSender(queryClient);
  }, [queryClient]);

  if (me.isPending || (me.isError && me.isFetching)) return <PageSpinner label="Loading your gifts…" />;
  if (me.isError) {
    if (isSignedOutError(me.error)) {
      return (
        <Suspense fallback={<PageSpinner label="Loading your gifts…" />}>
          <senderSignIn.Part
            title="My Gifts"
            intro="Verify your e-mail to see the gifts you sent, their deliveries and reactions."
            // The code step has asked /me again already; the wizard learns who signed in, so /send skips its code.
            onSignedIn={({ email, firstName }) => void wizardState().then((w) => w.startSignedIn({ email, firstName }))}
          />
        </Suspense>
      );
    }
    return (
      <StatusPanel
        tone="error"
        icon={<CircleAlert className="size-8" aria-hidden />}
        title="We couldn’t load your gifts"
        actions={<Button onClick={() => void me.refetch()}>Try again</Button>}
      >
        <p role="alert">
          {me.error instanceof ApiError && me.error.status === 0
            ? 'We could not reach GiftLens. Please check your connection and try again.'
            : texts.sender.generic}
        </p>
      </StatusPanel>
    );
  }
  return <MyGiftsPage email={me.data.email} onSessionEnded={onSessionEnded} />;
}
