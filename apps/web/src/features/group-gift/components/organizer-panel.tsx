import { groupTexts, type Contribution, type GroupState, type Invitation } from '@giftlens/contract/group-gifts';
import { Copy, Download, Loader2, Lock, RefreshCw, UserMinus } from 'lucide-react';
import { useCallback, useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatLongDate, formatTime } from '../../../lib/format.ts';
import { toast } from '../../../lib/toast.ts';
import {
  useCloseContributions,
  useContributions,
  useInvitations,
  useMoveContribution,
  useNewSharedLink,
  useRemoveContribution,
  useRemoveInvitation,
} from '../api/organizer.ts';
import { groupErrorText } from '../lib/group-text.ts';
import { ContributionItem } from './contribution-item.tsx';
import { InviteForm } from './invite-form.tsx';

const STATE_LABEL: Record<Invitation['state'], string> = { invited: 'Invited', reminded: 'Reminded', contributed: 'Added' };

type Confirming =
  | { kind: 'remove'; contribution: Contribution }
  | { kind: 'uninvite'; invitation: Invitation }
  | { kind: 'new-link' }
  | { kind: 'close' }
  | null;

/** Each confirmation's title, words and confirming button. */
function confirmationOf(confirming: Exclude<Confirming, null>): { title: string; text: string; action: string } {
  switch (confirming.kind) {
    case 'close':
      return { title: 'Close contributions now?', text: 'Nobody can add, replace or remove a message after this.', action: 'Close now' };
    case 'remove':
      return { title: 'Remove this message?', text: `${confirming.contribution.name}’s message will not be part of the gift.`, action: 'Remove' };
    case 'uninvite':
      return {
        title: 'Remove this person?',
        text: `${confirming.invitation.email} can no longer add a message: their invitation link stops working${
          confirming.invitation.state === 'contributed' ? ', and the message they added is removed' : ''
        }.`,
        action: 'Remove',
      };
    case 'new-link':
      return {
        title: 'Make a new invitation link?',
        text: 'The current shared link stops working at once. People who already joined keep their place; share the new link with anyone else.',
        action: 'Make a new link',
      };
  }
}

/**
 * The organizer's group panel (share page, and My Gifts' Group gift): invite by e-mail or a shared link, watch the
 * contributions come in, order them, remove one, take an invitee's place back, make a new shared link, close early,
 * and download the combined video.
 */
export function OrganizerPanel({ giftId }: { giftId: string }) {
  const invitations = useInvitations(giftId);
  const contributions = useContributions(giftId);
  const failure = invitations.error ?? contributions.error;

  if (failure && !(invitations.data && contributions.data)) {
    const notAllowed = failure instanceof ApiError && failure.status === 403;
    return (
      <div className="flex flex-col gap-3">
        <Alert tone={notAllowed ? 'info' : 'error'}>{notAllowed ? failure.message : groupErrorText(failure)}</Alert>
        {notAllowed ? null : (
          <Button variant="secondary" onClick={() => void Promise.all([invitations.refetch(), contributions.refetch()])}>
            Try again
          </Button>
        )}
      </div>
    );
  }
  if (!invitations.data || !contributions.data) {
    return (
      <p className="flex items-center gap-2 text-sm text-stone-600" role="status">
        <Loader2 className="size-4 animate-spin" aria-hidden /> Loading your group…
      </p>
    );
  }
  // The newer of the two answers says how the group stands.
  const group = contributions.dataUpdatedAt >= invitations.dataUpdatedAt ? contributions.data.group : invitations.data.group;
  if (group.contributorLimit === 0) return <Alert tone="info">{groupTexts.notAllowed}</Alert>;
  return <GroupPanel giftId={giftId} group={group} invitations={invitations.data.invitations} contributions={contributions.data.contributions} />;
}

function GroupPanel({
  giftId,
  group,
  invitations,
  contributions,
}: {
  giftId: string;
  group: GroupState;
  invitations: Invitation[];
  contributions: Contribution[];
}) {
  const move = useMoveContribution(giftId);
  const remove = useRemoveContribution(giftId);
  const close = useCloseContributions(giftId);
  const uninvite = useRemoveInvitation(giftId);
  const newLink = useNewSharedLink(giftId);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [error, setError] = useState<string | null>(null);
  const linkInput = useRef<HTMLInputElement>(null);
  // Closing contributions or removing a message takes away the button that led to it: focus then goes to the
  // messages' heading, not to <body> (WCAG 2.4.3). Cancel returns it to that button, as the browser does.
  const contributionsHeading = useRef<HTMLHeadingElement>(null);
  const invitedHeading = useRef<HTMLHeadingElement>(null);
  const focusAfterDialog = useRef<HTMLElement | null>(null);
  const busy = move.isPending || remove.isPending || close.isPending || uninvite.isPending || newLink.isPending;
  const fail = (err: unknown) => setError(groupErrorText(err));
  const deadline = group.deadline ? new Date(group.deadline) : null;
  const takeFocusAfterDialog = useCallback(() => {
    const target = focusAfterDialog.current;
    focusAfterDialog.current = null;
    return target;
  }, []);

  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(group.inviteUrl);
      toast.success('Invitation link copied.');
    } catch {
      linkInput.current?.select();
      toast.info('Select the link and copy it.');
    }
  };

  const confirm = () => {
    const current = confirming;
    // A removed invitee's button goes with them: focus goes to the list they were in while others remain, else to
    // the messages. A new link: to the field that shows it (its button waits, disabled, meanwhile).
    if (current?.kind === 'uninvite') focusAfterDialog.current = invitations.length > 1 ? invitedHeading.current : contributionsHeading.current;
    else if (current?.kind === 'new-link') focusAfterDialog.current = linkInput.current;
    else focusAfterDialog.current = contributionsHeading.current;
    setConfirming(null);
    setError(null);
    if (current?.kind === 'uninvite') {
      uninvite.mutate(current.invitation.id, {
        onSuccess: () => toast.success(`${current.invitation.email} was removed. Their link no longer works.`),
        onError: fail,
      });
    } else if (current?.kind === 'new-link') {
      newLink.mutate(undefined, {
        onSuccess: () => toast.success('A new invitation link was made. The old one no longer works.'),
        onError: fail,
      });
    } else if (current?.kind === 'remove') {
      remove.mutate(current.contribution.id, {
        onSuccess: () => toast.success(`${current.contribution.name}’s message was removed.`),
        onError: fail,
      });
    } else if (current?.kind === 'close') {
      close.mutate(undefined, { onSuccess: () => toast.success('Contributions are closed.'), onError: fail });
    }
  };

  const shown = confirming ? confirmationOf(confirming) : null;

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2" aria-live="polite">
        <p className="text-lg font-bold text-stone-900">{groupTexts.summary(group.contributedCount, group.invitedCount)}</p>
        <p className="text-sm text-stone-600">
          {group.open
            ? deadline
              ? `Open until ${formatLongDate(deadline)}, ${formatTime(deadline)}`
              : 'Not started yet'
            : 'Closed'}
        </p>
      </div>
      <p className="text-sm text-stone-600">Your plan allows up to {group.contributorLimit} contributors.</p>

      {group.open ? (
        <>
          <InviteForm key={group.deadline ?? 'new'} giftId={giftId} group={group} />
          <div className="flex flex-col gap-2 rounded-2xl bg-stone-50 p-4">
            <label htmlFor="group-invite-link" className="text-sm font-semibold text-stone-900">
              Or share one invitation link (WhatsApp, a group chat)
            </label>
            <p className="text-xs text-stone-600">Whoever opens it confirms their e-mail with a code first.</p>
            <div className="flex flex-col gap-2 sm:flex-row">
              <input
                ref={linkInput}
                id="group-invite-link"
                readOnly
                value={group.inviteUrl}
                onFocus={(e) => e.target.select()}
                className="min-h-11 w-full min-w-0 rounded-xl border border-stone-300 bg-white px-3 text-sm text-stone-700"
              />
              <Button variant="secondary" onClick={() => void copyLink()} className="shrink-0">
                <Copy className="size-4" aria-hidden /> Copy invitation link
              </Button>
            </div>
            <div>
              <Button variant="ghost" size="sm" onClick={() => setConfirming({ kind: 'new-link' })} disabled={busy}>
                <RefreshCw className="size-4" aria-hidden /> Make a new link (the old one stops)
              </Button>
            </div>
          </div>
        </>
      ) : (
        <Alert tone="info">{groupTexts.organizerClosed}</Alert>
      )}

      {invitations.length > 0 ? (
        <section aria-labelledby="group-invited-heading">
          <h3 ref={invitedHeading} id="group-invited-heading" tabIndex={-1} className="font-semibold text-stone-900">
            Invited
          </h3>
          <ul className="mt-2 flex flex-col divide-y divide-stone-100 rounded-2xl border border-stone-200">
            {invitations.map((inv) => (
              <li key={inv.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-2.5 text-sm">
                <span className="min-w-0 break-all text-stone-800">{inv.email}</span>
                <span className="flex items-center gap-1">
                  <span
                    className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${inv.state === 'contributed' ? 'bg-emerald-100 text-emerald-800' : 'bg-stone-100 text-stone-700'}`}
                  >
                    {STATE_LABEL[inv.state]}
                    {inv.viaSharedLink ? ' · shared link' : ''}
                  </span>
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => setConfirming({ kind: 'uninvite', invitation: inv })}
                    disabled={busy}
                    className="text-red-700"
                    aria-label={`Remove ${inv.email}`}
                  >
                    <UserMinus className="size-4" aria-hidden /> Remove
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="group-contributions-heading" className="flex flex-col gap-2">
        <h3 ref={contributionsHeading} id="group-contributions-heading" tabIndex={-1} className="font-semibold text-stone-900">
          Messages, in the order they play
        </h3>
        <p className="text-sm text-stone-600">Your own message plays first, then these.</p>
        {contributions.length === 0 ? (
          <p className="rounded-2xl bg-stone-50 px-4 py-3 text-sm text-stone-600">No messages yet.</p>
        ) : (
          <ol className="flex flex-col gap-3">
            {contributions.map((c, i) => (
              <ContributionItem
                key={c.id}
                contribution={c}
                first={i === 0}
                last={i === contributions.length - 1}
                busy={busy}
                onMove={(position) => move.mutate({ id: c.id, position }, { onError: fail })}
                onRemove={() => setConfirming({ kind: 'remove', contribution: c })}
              />
            ))}
          </ol>
        )}
      </section>

      {error ? <Alert>{error}</Alert> : null}

      <CombinedVideo combined={group.combined} />

      {group.open ? (
        <Button variant="secondary" onClick={() => setConfirming({ kind: 'close' })} disabled={busy}>
          <Lock className="size-4" aria-hidden /> Close contributions now
        </Button>
      ) : null}

      <Modal open={confirming !== null} title={shown?.title ?? ''} onDismiss={() => setConfirming(null)} returnFocus={takeFocusAfterDialog}>
        <p className="break-words text-stone-600">{shown?.text}</p>
        <div className="flex w-full flex-col gap-2 sm:flex-row">
          <Button variant="secondary" block onClick={() => setConfirming(null)}>
            Cancel
          </Button>
          <Button variant="danger" block onClick={confirm}>
            {shown?.action}
          </Button>
        </div>
      </Modal>
    </div>
  );
}

function CombinedVideo({ combined }: { combined: GroupState['combined'] }) {
  if (combined.state === 'processing') {
    return (
      <p className="flex items-center gap-2 text-sm text-stone-600" role="status">
        <Loader2 className="size-4 animate-spin" aria-hidden /> {groupTexts.combinedProcessing}
      </p>
    );
  }
  if (combined.state === 'failed') return <Alert>{groupTexts.combinedFailed}</Alert>;
  if (combined.state === 'ready' && combined.downloadUrl) {
    return (
      <a
        href={combined.downloadUrl}
        download
        className="inline-flex min-h-11 items-center justify-center gap-2 rounded-xl bg-brand-500 px-5 py-2.5 font-semibold text-white hover:bg-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
      >
        <Download className="size-4" aria-hidden /> Download the combined video
      </a>
    );
  }
  return null;
}
