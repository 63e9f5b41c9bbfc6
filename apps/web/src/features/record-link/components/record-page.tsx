import { findPlan } from '@giftlens/contract/plans';
import { texts } from '@giftlens/contract/texts';
import { CheckCircle2, CircleAlert, Gift } from 'lucide-react';
import { useState, type ComponentType } from 'react';
import type { ComposedMessage, MessageComposerProps } from '../../../components/media/message-composer.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { ProgressBar } from '../../../components/ui/progress-bar.tsx';
import { StatusPanel } from '../../../components/ui/status-panel.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { putFile } from '../../../lib/put-file.ts';
import { confirmRecord, recordUploadUrl, saveRecordText, useRecordLink } from '../api/record-link.ts';

type Phase = { kind: 'idle' } | { kind: 'uploading'; progress: number } | { kind: 'saving' } | { kind: 'saved'; messageType: ComposedMessage['messageType'] };

const errorText = (err: unknown) => (err instanceof ApiError ? err.message : texts.sender.generic);

/**
 * /record/{token}: the buyer of a shop's gift records or uploads their message (decision 058), with the sender's own
 * recorder, limits and checks (the route gives the message step's composer), no account needed, until the gift is
 * first opened.
 */
export function RecordPage({ token, Composer }: { token: string; Composer: ComponentType<MessageComposerProps> }) {
  const page = useRecordLink(token);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [error, setError] = useState<string | null>(null);

  if (page.isPending) return <PageSpinner label="Opening your gift…" />;
  if (page.isError) {
    return (
      <StatusPanel tone="error" icon={<CircleAlert className="size-8" aria-hidden />} title="This link does not work">
        <p role="alert">{errorText(page.error)}</p>
      </StatusPanel>
    );
  }
  const gift = page.data;
  const plan = findPlan(gift.planId);

  const submit = async (message: ComposedMessage) => {
    setError(null);
    try {
      if (message.messageType === 'text') {
        setPhase({ kind: 'saving' });
        await saveRecordText(token, message.text);
      } else {
        setPhase({ kind: 'uploading', progress: 0 });
        const target = await recordUploadUrl(token, { fileType: message.fileType, fileSize: message.file.size, messageType: message.messageType });
        await putFile(target.uploadUrl, message.file, message.fileType, (progress) => setPhase({ kind: 'uploading', progress }), texts.sender.uploadStorageFailed);
        setPhase({ kind: 'saving' });
        await confirmRecord(token, { filePath: target.filePath, messageType: message.messageType });
      }
      setPhase({ kind: 'saved', messageType: message.messageType });
    } catch (err) {
      setError(errorText(err));
      setPhase({ kind: 'idle' });
    }
  };

  return (
    <div className="bg-gradient-to-b from-brand-50 to-stone-50">
      <div className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-3 py-6 sm:px-6 sm:py-12">
        <header className="flex flex-col items-center gap-2 text-center">
          {gift.brand.logoUrl ? (
            <img src={gift.brand.logoUrl} alt={`${gift.brand.name} logo`} className="h-12 w-auto max-w-[10rem] object-contain" />
          ) : (
            <span className="flex size-14 items-center justify-center rounded-full bg-brand-100 text-brand-600">
              <Gift className="size-7" aria-hidden />
            </span>
          )}
          <h1 className="text-2xl font-bold tracking-tight break-words text-stone-900 sm:text-3xl">Your message for {gift.recipientName}</h1>
          <p className="text-stone-600">
            <span className="font-semibold text-stone-900">{gift.brand.name}</span> is sending your gift to {gift.recipientName}. Record a video or voice
            message, or write a few words: it plays when they photograph the gift.
          </p>
        </header>
        <div className="rounded-3xl border border-stone-200 bg-white p-5 shadow-sm sm:p-7">
          {!gift.open ? (
            <Alert tone="info">{texts.sender.messageLocked}</Alert>
          ) : phase.kind === 'saved' ? (
            <div className="flex flex-col items-center gap-2 text-center" role="status">
              <CheckCircle2 className="size-10 text-emerald-600" aria-hidden />
              <h2 className="text-xl font-semibold text-stone-900">Your message is saved</h2>
              <p className="text-stone-600">
                {gift.recipientName} will see it when they photograph the gift. You can record again with this link until then.
              </p>
              <button type="button" className="text-brand-700 underline" onClick={() => setPhase({ kind: 'idle' })}>
                Record again
              </button>
            </div>
          ) : (
            <>
              {gift.messageType ? <Alert tone="info">You have saved a message already; a new one replaces it.</Alert> : null}
              <Composer
                limit={plan?.maxFileBytes ?? 0}
                planName={plan?.name ?? 'Premium'}
                submitLabel="Save my message"
                busy={phase.kind !== 'idle'}
                error={error}
                beforeSubmit={phase.kind === 'uploading' ? <ProgressBar value={phase.progress} label="Uploading your message" /> : null}
                onSubmit={(m) => void submit(m)}
              />
            </>
          )}
        </div>
      </div>
    </div>
  );
}
