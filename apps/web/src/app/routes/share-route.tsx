import { GiftId } from '@giftlens/contract/common';
import { texts } from '@giftlens/contract/texts';
import { useQueryClient } from '@tanstack/react-query';
import { CircleAlert } from 'lucide-react';
import { Suspense, useEffect } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { toast } from '../../lib/toast.ts';
import { Button } from '../../components/ui/button.tsx';
import { PageSpinner } from '../../components/ui/page-spinner.tsx';
import { StatusPanel } from '../../components/ui/status-panel.tsx';
import { GroupGiftSection } from '../../features/group-gift/components/group-gift-section.tsx';
import { SharePage } from '../../features/share/components/share-page.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { senderGiftQueryKey, useSenderGift } from '../../api/sender-gift.ts';
import { isSignedOutError, useSenderMe } from '../../api/sender-me.ts';
import { CHANGE_DELIVERY_PARAM, paths } from '../../config/paths.ts';
import { senderSignIn, wizardState } from './sender-lazy-parts.ts';

type Outcome =
  | { kind: 'loading' }
  | { kind: 'sign-in' }
  | { kind: 'not-found'; text: string }
  | { kind: 'unpaid' }
  | { kind: 'error'; retry: () => void }
  | { kind: 'ready' };

/**
 * /share/{giftId}: the sender's own paid gift, checked before anything is shown. Without the sender's session the
 * sender signs in with the e-mail code first (sender-auth, as on My Gifts); a gift that cannot be found — a
 * malformed id, an unknown one, another sender's — is an error and a move to the home page; a gift not paid yet
 * goes to its checkout.
 * /share/{giftId}?change={deliveryId} opens that delivery's Change form (My Gifts' Change).
 */
export function ShareRoute() {
  const { giftId = '' } = useParams();
  const [search] = useSearchParams();
  const changeDeliveryId = search.get(CHANGE_DELIVERY_PARAM) ?? undefined;
  const valid = GiftId.safeParse(giftId).success;
  const queryClient = useQueryClient();
  const me = useSenderMe();
  const gift = useSenderGift(valid && me.isSuccess ? giftId : undefined);

  let outcome: Outcome;
  if (!valid) outcome = { kind: 'not-found', text: texts.sender.giftIdMissing };
  else if (me.isPending || (me.isError && me.isFetching)) outcome = { kind: 'loading' };
  else if (me.isError) {
    outcome = isSignedOutError(me.error) ? { kind: 'sign-in' } : { kind: 'error', retry: () => void me.refetch() };
  } else if (gift.isPending || (gift.isError && gift.isFetching)) outcome = { kind: 'loading' };
  else if (gift.isError) {
    if (isSignedOutError(gift.error)) outcome = { kind: 'sign-in' };
    else if (gift.error instanceof ApiError && gift.error.status === 404) {
      outcome = { kind: 'not-found', text: gift.error.message };
    } else outcome = { kind: 'error', retry: () => void gift.refetch() };
  } else if (gift.data.status !== 'active') {
    // A summary kept from before the payment is not the answer: only a fresh one sends the sender to checkout.
    outcome = gift.isFetchedAfterMount ? { kind: 'unpaid' } : { kind: 'loading' };
  } else outcome = { kind: 'ready' };

  const { kind } = outcome;
  const notFoundText = outcome.kind === 'not-found' ? outcome.text : null;
  useEffect(() => {
    if (notFoundText) toast.error(notFoundText);
    // This gift is paid and shown: the next visit to /send begins a new one.
    if (kind === 'ready') void wizardState().then((w) => w.prepareNextGift());
  }, [kind, notFoundText]);

  switch (outcome.kind) {
    case 'not-found':
      return <Navigate to={paths.home.href()} replace />;
    case 'unpaid':
      return <Navigate to={paths.checkout.href(giftId)} replace />;
    case 'loading':
      return <PageSpinner label="Loading your gift…" />;
    case 'sign-in':
      return (
        <Suspense fallback={<PageSpinner label="Loading your gift…" />}>
          <senderSignIn.Part
            title="Share your gift"
            intro="Verify your e-mail to share your gift’s link and schedule its delivery."
            // The wizard learns who signed in, so /send skips its code; /me is asked again and the gift read anew.
            onSignedIn={({ email, firstName }) => {
              void wizardState().then((w) => {
                w.startSignedIn({ email, firstName });
                return queryClient.invalidateQueries({ queryKey: senderGiftQueryKey(giftId) });
              });
            }}
          />
        </Suspense>
      );
    case 'error':
      return (
        <StatusPanel
          tone="error"
          icon={<CircleAlert className="size-8" aria-hidden />}
          title="We couldn’t load your gift"
          actions={<Button onClick={outcome.retry}>Try again</Button>}
        >
          <p role="alert">{texts.sender.generic}</p>
        </StatusPanel>
      );
    case 'ready':
      return (
        <SharePage giftId={giftId} changeDeliveryId={changeDeliveryId} groupSection={<GroupGiftSection giftId={giftId} />} />
      );
  }
}
