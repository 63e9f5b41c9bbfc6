import { texts } from '@giftlens/contract/texts';
import { KeyRound, SearchX } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { StatusPanel } from '../../../components/ui/status-panel.tsx';
import { RECIPIENT_KEYS, readString } from '../../../lib/recipient-storage.ts';
import type { ScanFlow } from '../hooks/use-scanner.ts';

/**
 * Router state of /gift-not-found: the text to show (the spec's default otherwise) and, after the last failed scan,
 * the flow and id it came from (the gift for a gift link, the recipient id for the e-mail code).
 */
export interface GiftNotFoundState {
  message?: string;
  flow?: ScanFlow;
  scanId?: string;
}

/** Where Try again and the backup code lead: back to where this recipient came from (gift link or e-mail code). */
function wayBack(state: GiftNotFoundState | null): { retry: string; code: string | null } {
  if (state?.flow === 'direct' && state.scanId) {
    return { retry: paths.scanningCamera.href(state.scanId, 'direct'), code: paths.backupCode.href(state.scanId, 'direct') };
  }
  const recipientId = (state?.flow === 'recipient' ? state.scanId : null) ?? readString('session', RECIPIENT_KEYS.recipientId);
  if (recipientId) return { retry: paths.scanningInstructions.href(recipientId), code: paths.backupCode.href(recipientId) };
  // No scan behind this page (the e-mail step found no gift): start the e-mail code again.
  return { retry: paths.scan.href(), code: null };
}

/** /gift-not-found: after the last failed scan, or when the server found no gift. */
export function GiftNotFoundPage() {
  const state = useLocation().state as GiftNotFoundState | null;
  const { retry, code } = wayBack(state);
  return (
    <StatusPanel
      tone="error"
      icon={<SearchX className="size-8" aria-hidden />}
      title="Gift not found"
      actions={
        <div className="flex w-full flex-col gap-3">
          <div className="flex w-full flex-col gap-3 sm:flex-row">
            <ButtonLink to={retry} block className="sm:w-auto sm:flex-1">
              Try again
            </ButtonLink>
            <ButtonLink to={paths.home.href()} variant="secondary" block className="sm:w-auto sm:flex-1">
              Home
            </ButtonLink>
          </div>
          {code ? (
            // Small type keeps it on one line at 360 px.
            <Link
              to={code}
              className="inline-flex min-h-11 w-full items-center justify-center gap-2 rounded-xl px-3 text-sm font-semibold text-stone-700 transition-colors hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
            >
              <KeyRound className="size-4" aria-hidden />
              {texts.backupCode.choose}
            </Link>
          ) : null}
        </div>
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
