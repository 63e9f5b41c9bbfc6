import {
  ContributionToken,
  ContributorName,
  groupTexts,
  type ContributionPageResponse,
} from '@giftlens/contract/group-gifts';
import { CircleAlert, Gift, Lock } from 'lucide-react';
import { useRef, useState, type ComponentType } from 'react';
import type { ComposedMessage, MessageComposerProps } from '../../../components/media/message-composer.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { ProgressBar } from '../../../components/ui/progress-bar.tsx';
import { StatusPanel } from '../../../components/ui/status-panel.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatLongDate, formatTime } from '../../../lib/format.ts';
import { toast } from '../../../lib/toast.ts';
import { useFocusWhenLost } from '../../../lib/use-focus.ts';
import { deleteContribution, useContributionPage, useSetContributionPage } from '../api/contributor.ts';
import { useContributionSave, type SavePhase } from '../hooks/use-contribution-save.ts';
import { groupErrorText } from '../lib/group-text.ts';
import { OwnContributionView } from './own-contribution.tsx';
import { SharedLinkAccess } from './shared-link-access.tsx';

/** The recorder and uploader the page is given (the message step's, composed by the route: features/message-upload). */
type Composer = ComponentType<MessageComposerProps>;

/** /contribute/{token}: a contributor adds their video, voice or text message to a group gift. */
export function ContributePage({ token, Composer }: { token: string; Composer: Composer }) {
  const valid = ContributionToken.safeParse(token).success;
  const page = useContributionPage(valid ? token : '');

  if (!valid || (page.error instanceof ApiError && page.error.status === 404)) {
    return (
      <StatusPanel tone="error" icon={<CircleAlert className="size-8" aria-hidden />} title="This link does not work">
        <p role="alert">{groupTexts.linkNotFound}</p>
      </StatusPanel>
    );
  }
  if (page.isError) {
    return (
      <StatusPanel
        tone="error"
        icon={<CircleAlert className="size-8" aria-hidden />}
        title="We couldn’t open this page"
        actions={<Button onClick={() => void page.refetch()}>Try again</Button>}
      >
        <p role="alert">{groupErrorText(page.error)}</p>
      </StatusPanel>
    );
  }
  if (page.isPending) return <PageSpinner label="Opening the group gift…" />;

  return (
    <div className="bg-gradient-to-b from-brand-50 to-stone-50">
      <div className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-3 py-6 sm:px-6 sm:py-12">
        <GiftDetails page={page.data} />
        <div className="rounded-3xl border border-stone-200 bg-white p-5 shadow-sm sm:p-7">
          {page.data.shared ? (
            page.data.open ? (
              <SharedLinkAccess token={token} />
            ) : (
              <Alert tone="info">{groupTexts.closedNotice}</Alert>
            )
          ) : (
            <Contribution token={token} page={page.data} Composer={Composer} onClosed={() => void page.refetch()} />
          )}
        </div>
      </div>
    </div>
  );
}

function GiftDetails({ page }: { page: ContributionPageResponse }) {
  const deadline = page.deadline ? new Date(page.deadline) : null;
  return (
    <header className="flex flex-col items-center gap-2 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-brand-100 text-brand-600">
        <Gift className="size-7" aria-hidden />
      </span>
      <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">Add your message for {page.recipientName}</h1>
      <p className="text-stone-600">
        <span className="font-semibold text-stone-900">{page.organizerName}</span> is giving {page.recipientName} a gift
        {page.occasion ? ` for ${page.occasion}` : ''}, with messages from the people who matter.
      </p>
      <dl className="mt-1 grid w-full max-w-md grid-cols-[auto_1fr] gap-x-3 gap-y-1 rounded-2xl bg-white px-4 py-3 text-left text-sm shadow-sm">
        <dt className="text-stone-500">For</dt>
        <dd className="font-medium text-stone-900">{page.recipientName}</dd>
        <dt className="text-stone-500">From</dt>
        <dd className="font-medium text-stone-900">{page.organizerName}</dd>
        {page.occasion ? (
          <>
            <dt className="text-stone-500">Occasion</dt>
            <dd className="font-medium text-stone-900">{page.occasion}</dd>
          </>
        ) : null}
        <dt className="text-stone-500">{page.open ? 'Add yours by' : 'Closed'}</dt>
        <dd className="font-medium text-stone-900">
          {page.open ? (deadline ? `${formatLongDate(deadline)}, ${formatTime(deadline)}` : 'No deadline yet') : 'Contributions are closed'}
        </dd>
      </dl>
    </header>
  );
}

function Contribution({
  token,
  page,
  Composer,
  onClosed,
}: {
  token: string;
  page: ContributionPageResponse;
  Composer: Composer;
  onClosed: () => void;
}) {
  const save = useContributionSave(token, onClosed);
  const setPage = useSetContributionPage(token);
  const [replacing, setReplacing] = useState(false);
  const [name, setName] = useState(page.mine?.name ?? '');
  const [nameError, setNameError] = useState<string | undefined>(undefined);
  const [notify, setNotify] = useState(page.mine?.notifyWhenOpened ?? false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const nameInput = useRef<HTMLInputElement>(null);
  const closed = !page.open || save.closed;
  const mine = page.mine;
  const busy = save.phase.kind !== 'idle' || deleting;
  // A save, a delete, Replace or Keep replaces the part of the page the pressed button was in: focus goes to the
  // heading of what replaced it (the message as saved, or the form), never to <body> (WCAG 2.4.3).
  const [changes, setChanges] = useState(0);
  const ownHeading = useRef<HTMLHeadingElement>(null);
  const formHeading = useRef<HTMLHeadingElement>(null);
  const showsOwn = Boolean(mine && !replacing);
  useFocusWhenLost(ownHeading, changes > 0 && showsOwn, changes);
  useFocusWhenLost(formHeading, changes > 0 && !showsOwn, changes);

  const submit = async (message: ComposedMessage) => {
    const parsed = ContributorName.safeParse(name);
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message ?? groupTexts.nameRequired);
      nameInput.current?.focus();
      return;
    }
    setNameError(undefined);
    const saved = await save.save(message, parsed.data, notify);
    if (saved) {
      setPage((p) => ({ ...p, mine: saved }));
      setReplacing(false);
      setChanges((n) => n + 1);
      toast.success(groupTexts.contributed);
    }
  };

  const remove = async () => {
    setConfirmDelete(false);
    setDeleting(true);
    try {
      await deleteContribution(token);
      setPage((p) => ({ ...p, mine: null }));
      setReplacing(false);
      setChanges((n) => n + 1);
      toast.success(groupTexts.deleted);
    } catch (err) {
      save.setError(groupErrorText(err));
      if (err instanceof ApiError && err.status === 409) {
        save.setClosed(true);
        onClosed();
      }
    } finally {
      setDeleting(false);
    }
  };

  return (
    <div className="flex flex-col gap-5">
      {closed ? (
        <Alert tone="info">
          <span className="flex items-center gap-2">
            <Lock className="size-4 shrink-0" aria-hidden /> {mine ? groupTexts.closedNotice : groupTexts.closed}
          </span>
        </Alert>
      ) : null}
      {closed && save.error ? <Alert>{save.error}</Alert> : null}

      {mine && !replacing ? (
        <OwnContributionView
          headingRef={ownHeading}
          mine={mine}
          open={!closed}
          busy={busy}
          onReplace={() => {
            save.setError(null);
            setReplacing(true);
            setChanges((n) => n + 1);
          }}
          onDelete={() => setConfirmDelete(true)}
        />
      ) : null}

      {!closed && (!mine || replacing) ? (
        <>
          <div>
            <h2 ref={formHeading} tabIndex={-1} className="text-lg font-bold text-stone-900">{replacing ? 'Replace your message' : 'Your message'}</h2>
            <p className="mt-1 text-sm text-stone-600">
              Record a video or your voice, upload a file (up to the {page.planName} plan’s size), or write a few lines.
              {page.email ? ` You are taking part as ${page.email}.` : ''}
            </p>
          </div>
          <TextField
            ref={nameInput}
            label="Your name"
            autoComplete="given-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={nameError}
            hint={`${page.recipientName} sees “${groupTexts.fromName(name.trim() || 'your name')}” with your message.`}
          />
          <Composer
            limit={page.maxFileBytes}
            planName={page.planName}
            submitLabel={replacing ? 'Save my new message' : 'Add my message'}
            busy={busy}
            error={save.error}
            onSubmit={(m) => void submit(m)}
            beforeSubmit={
              <>
                <label className="flex min-h-11 cursor-pointer items-center gap-3 text-stone-800">
                  <input
                    type="checkbox"
                    checked={notify}
                    onChange={(e) => setNotify(e.target.checked)}
                    className="size-5 rounded border-stone-300 accent-brand-600"
                  />
                  Tell me when it’s opened
                </label>
                <SaveProgress phase={save.phase} />
              </>
            }
          />
          {replacing ? (
            <Button
              variant="ghost"
              onClick={() => {
                setReplacing(false);
                setChanges((n) => n + 1);
              }}
              disabled={busy}
            >
              Keep my current message
            </Button>
          ) : null}
        </>
      ) : null}

      <Modal open={confirmDelete} title="Delete your message?" onDismiss={() => setConfirmDelete(false)}>
        <p className="text-stone-600">It will not be part of the gift. You can add a new one until contributions close.</p>
        <div className="flex w-full flex-col gap-2 sm:flex-row">
          <Button variant="secondary" block onClick={() => setConfirmDelete(false)}>
            Cancel
          </Button>
          <Button variant="danger" block onClick={() => void remove()}>
            Delete
          </Button>
        </div>
      </Modal>
    </div>
  );
}

/** The upload's progress, announced politely as it goes. */
function SaveProgress({ phase }: { phase: SavePhase }) {
  return (
    <div aria-live="polite" className="flex flex-col gap-2">
      {phase.kind === 'uploading' ? (
        <>
          <p className="text-sm font-medium text-stone-800">Uploading your message… {phase.progress}%</p>
          <ProgressBar value={phase.progress} label="Upload progress" className="h-2.5" />
        </>
      ) : phase.kind === 'saving' ? (
        <p className="text-sm font-medium text-stone-800">Saving your message…</p>
      ) : null}
    </div>
  );
}
