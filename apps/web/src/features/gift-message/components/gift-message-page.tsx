import { texts } from '@giftlens/contract/texts';
import { Download, Frown, Heart } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { toast } from '../../../lib/toast.ts';
import { useFocusHeading } from '../../../lib/use-focus.ts';
import { paths } from '../../../config/paths.ts';
import { GiftBrandLine } from '../../../components/gift-brand.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { StatusPanel } from '../../../components/ui/status-panel.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { clearSignedMessageUrl, RECIPIENT_KEYS, readString } from '../../../lib/recipient-storage.ts';
import { useGiftMessage } from '../api/get-gift-message.ts';
import { useMessageRefresh } from '../hooks/use-message-refresh.ts';
import { resolveMessageType } from '../lib/message-type.ts';
import type { PlayGateProps } from '../../../components/media/play-gate.ts';
import { checkStoredLink } from '../lib/stored-link.ts';
import { MessagePlayer } from './message-player.tsx';
import { TextCard } from './text-card.tsx';

// A group gift's list and players load only for a gift with contributions: a single gift's page is as before
// (route-budgets.json measures the group variant as its own row).
const GroupMessages = lazy(() => import('./group-messages.tsx').then((m) => ({ default: m.GroupMessages })));

/** Without reactions, Play simply plays. */
function DirectPlayGate({ play, renderPlayButton }: PlayGateProps) {
  return renderPlayButton(() => void play(), false);
}

const defaultGate = (props: PlayGateProps) => <DirectPlayGate {...props} />;

/** The one toast of this page's access: an expired link says so once, and a new reveal takes it away. */
const ACCESS_TOAST = 'gift-message-access';

/**
 * An expired message link goes back to the gift's camera, not to a dead end: the recipient flow's when this tab
 * came by the e-mail code (it scans among the recipient's gifts), else this gift's by its link.
 */
function cameraOf(giftId: string): string {
  const recipientId = readString('session', RECIPIENT_KEYS.recipientId);
  const byEmail = readString('session', RECIPIENT_KEYS.scanType) !== 'direct' && recipientId;
  return byEmail ? paths.scanningCamera.href(recipientId) : paths.scanningCamera.href(giftId, 'direct');
}

/** /gift-message/{giftId}: the revealed message (text, voice or video), reachable only right after a matching scan. */
export function GiftMessagePage({ renderPlayGate = defaultGate }: { renderPlayGate?: (props: PlayGateProps) => ReactNode }) {
  const { giftId = '' } = useParams();
  const [access] = useState(() => checkStoredLink(giftId));

  useEffect(() => {
    if (access.ok) {
      // A new scan opened the message: "Message link has expired" from before it no longer holds (issue 37).
      toast.dismiss(ACCESS_TOAST);
      return;
    }
    clearSignedMessageUrl();
    const text = access.reason === 'expired' ? texts.recipient.linkExpired : texts.recipient.scanToView;
    toast.error(text, { id: ACCESS_TOAST });
  }, [access]);

  if (!access.ok) return <Navigate to={access.reason === 'expired' ? cameraOf(giftId) : paths.home.href()} replace />;
  return <MessageScreen giftId={giftId} storedUrl={access.link.url} renderPlayGate={renderPlayGate} />;
}

function MessageScreen({
  giftId,
  storedUrl,
  renderPlayGate,
}: {
  giftId: string;
  storedUrl: string;
  renderPlayGate: (props: PlayGateProps) => ReactNode;
}) {
  const message = useGiftMessage(giftId);
  const navigate = useNavigate();
  const [mediaError, setMediaError] = useState<string | null>(null);
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  const ask = useMessageRefresh(giftId, box);
  /**
   * A message that cannot go on. Refused a fresh link because the reveal has run out: the page does what it says,
   * back to the camera to scan the gift again (playback stops with the page). The gift gone: says so. Otherwise
   * the media itself: "unable to play".
   */
  const mediaFailed = (refusal?: unknown) => {
    if (refusal instanceof ApiError && (refusal.status === 401 || refusal.status === 403)) {
      clearSignedMessageUrl();
      toast.error(texts.recipient.linkExpired, { id: ACCESS_TOAST });
      void navigate(cameraOf(giftId), { replace: true });
      return;
    }
    setMediaError(refusal instanceof ApiError && refusal.status === 410 ? texts.recipient.giftUnavailable : texts.recipient.unableToPlay);
  };
  // Arriving from the camera (or the backup code), focus starts on the message's heading once it is shown, not on
  // <body>: as the staff screens and the checkout do (WCAG 2.4.3).
  const screen = useRef<HTMLDivElement>(null);
  useFocusHeading(screen, message.isSuccess, { onMount: true });

  if (message.isPending) return <PageSpinner label="Opening your message…" />;
  if (message.isError) {
    const forbidden = message.error instanceof ApiError && (message.error.status === 401 || message.error.status === 403);
    return <MessageError giftId={giftId} message={forbidden ? texts.recipient.loadMessageFailed : texts.recipient.fetchMessageFailed} />;
  }
  if (mediaError) return <MessageError giftId={giftId} message={mediaError} />;

  const data = message.data;
  const senderName = data.senderName.trim() || 'Someone special';
  const kind = resolveMessageType(data.messageUrl ?? storedUrl, data.messageType);
  const mediaSrc = data.messageUrl ?? (kind === 'text' ? null : storedUrl);

  if (kind === 'text' ? !data.text : !mediaSrc) return <MessageError giftId={giftId} message={texts.recipient.loadMessageFailed} />;

  const organizer = (onEnded?: () => void): ReactNode =>
    kind === 'text' || !mediaSrc ? (
      <TextCard text={data.text ?? ''} from={senderName} />
    ) : (
      <MessagePlayer
        kind={kind}
        src={mediaSrc}
        poster={data.posterUrl}
        senderName={senderName}
        onMediaError={mediaFailed}
        onPlayFailed={() => setMediaError(texts.recipient.unableToPlay)}
        refreshSrc={() => ask().then((fresh) => fresh.messageUrl)}
        onEnded={onEnded}
        renderGate={(p) => renderPlayGate({ ...p, giftId, message: data })}
      />
    );

  // A group gift: the organizer's message, then each contribution; a single gift looks as it always has.
  const body: ReactNode =
    data.contributions.length > 0 ? (
      <Suspense fallback={<PageSpinner label="Opening your messages…" />}>
        <GroupMessages
          senderName={senderName}
          renderOrganizer={organizer}
          contributions={data.contributions}
          combinedDownloadUrl={data.combinedDownloadUrl}
          onMediaError={mediaFailed}
          refreshContribution={(i) => ask().then((fresh) => fresh.contributions[i]?.messageUrl ?? null)}
        />
      </Suspense>
    ) : (
      organizer()
    );

  return (
    <div ref={screen} className="mx-auto w-full max-w-3xl px-4 py-8 sm:py-12">
      <div className="mb-6 flex flex-col items-center gap-2 text-center sm:mb-8">
        <span className="flex size-14 items-center justify-center rounded-full bg-brand-100 text-brand-600">
          <Heart className="size-7 fill-current" aria-hidden />
        </span>
        <h1 className="text-3xl font-bold tracking-tight text-stone-900 sm:text-4xl">A Special Message For You</h1>
        <p className="text-lg text-stone-600">
          From <span className="font-semibold text-stone-900">{senderName}</span>
        </p>
        <GiftBrandLine giftId={giftId} />
      </div>
      <div ref={setBox}>{body}</div>
      {data.messageDownloadUrl ? <Keepsake url={data.messageDownloadUrl} until={data.validUntil ?? null} /> : null}
    </div>
  );
}

/**
 * Keepsake (issue 40): on a plan with downloads, the message saved under a name for people ("Message from Priya.mp4",
 * the server's Content-Disposition), with the day the plan ends.
 */
function Keepsake({ url, until }: { url: string; until: string | null }) {
  return (
    <section aria-label="Keep this message" className="mt-6 flex flex-col items-center gap-2 text-center">
      <a
        href={url}
        download
        className="inline-flex min-h-11 items-center justify-center gap-2 rounded-xl border border-stone-300 bg-white px-5 py-2.5 font-semibold text-stone-800 hover:bg-stone-50"
      >
        <Download className="size-4" aria-hidden /> Download this message
      </a>
      <p className="text-sm text-stone-600">
        {until
          ? `Keep it: the gift can be opened until ${new Date(until).toLocaleDateString(undefined, { day: 'numeric', month: 'long', year: 'numeric' })}.`
          : 'Keep a copy of it on your device.'}
      </p>
    </section>
  );
}

/** "Oops!": the message could not be shown; scanning again gives a fresh link. */
function MessageError({ giftId, message }: { giftId: string; message: string }) {
  const scanType = readString('session', RECIPIENT_KEYS.scanType);
  const recipientId = readString('session', RECIPIENT_KEYS.recipientId);
  let scanAgain: string = paths.scan.href();
  if (scanType === 'direct') scanAgain = paths.shareLink.href(giftId);
  else if (recipientId) scanAgain = paths.scanningInstructions.href(recipientId);
  return (
    <StatusPanel
      tone="error"
      icon={<Frown className="size-8" aria-hidden />}
      title="Oops!"
      actions={
        <>
          <ButtonLink to={scanAgain} block className="sm:w-auto sm:flex-1">
            Scan again
          </ButtonLink>
          <ButtonLink to={paths.home.href()} variant="secondary" block className="sm:w-auto sm:flex-1">
            Back to Home
          </ButtonLink>
        </>
      }
    >
      <p role="alert">{message}</p>
    </StatusPanel>
  );
}
