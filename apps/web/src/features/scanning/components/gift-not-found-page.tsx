import { texts } from '@giftlens/contract/texts';
import { SearchX } from 'lucide-react';
import { useLocation } from 'react-router';
import { paths } from '../../../app/paths.ts';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { StatusPanel } from '../../../components/ui/status-panel.tsx';

/** Router state of /gift-not-found: the text to show (the spec's default otherwise). */
export interface GiftNotFoundState {
  message?: string;
}

/** /gift-not-found: after the last failed scan, or when the server found no gift. */
export function GiftNotFoundPage() {
  const state = useLocation().state as GiftNotFoundState | null;
  return (
    <StatusPanel
      tone="error"
      icon={<SearchX className="size-8" aria-hidden />}
      title="Gift not found"
      actions={
        <>
          <ButtonLink to={paths.scan.href()} block className="sm:w-auto sm:flex-1">
            Try again
          </ButtonLink>
          <ButtonLink to={paths.home.href()} variant="secondary" block className="sm:w-auto sm:flex-1">
            Home
          </ButtonLink>
        </>
      }
    >
      <p role="alert" className="text-stone-700">
        {state?.message || texts.recipient.giftNotFoundPage}
      </p>
      <p className="text-sm">
        Tips: use good light, a plain background, and make sure the whole gift is in the frame.
      </p>
    </StatusPanel>
  );
}
