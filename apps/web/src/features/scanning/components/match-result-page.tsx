import { GiftId } from '@giftlens/contract/common';
import { PartyPopper } from 'lucide-react';
import { useParams } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { StatusPanel } from '../../../components/ui/status-panel.tsx';

/** /match-result/{giftId}: the scan matched, but the giver's message is not available yet. */
export function MatchResultPage() {
  const { giftId = '' } = useParams();
  const valid = GiftId.safeParse(giftId).success;
  return (
    <StatusPanel
      tone="success"
      icon={<PartyPopper className="size-8" aria-hidden />}
      title="We found your gift!"
      actions={
        <>
          {valid ? (
            <ButtonLink to={paths.shareLink.href(giftId)} block className="sm:w-auto sm:flex-1">
              Scan again later
            </ButtonLink>
          ) : null}
          <ButtonLink to={paths.home.href()} variant="secondary" block className="sm:w-auto sm:flex-1">
            Back to Home
          </ButtonLink>
        </>
      }
    >
      <p className="text-lg text-stone-700">Your gift is genuine, and a personal message is on its way.</p>
      <p>
        The giver is still finishing the message, so it is not available just yet. Please check back a little
        later and scan your gift again.
      </p>
    </StatusPanel>
  );
}
