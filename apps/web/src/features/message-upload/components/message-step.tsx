import { Sparkles } from 'lucide-react';
import type { PlanId } from '@giftlens/contract/plans';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useMessageStep } from '../hooks/use-message-step.ts';
import type { MessagePurpose } from '../lib/message-copy.ts';
import { MessageTabPanel } from './message-composer.tsx';
import { UploadCard } from './message-media.tsx';
import { MessageTabs } from './message-tabs.tsx';
import { UploadOverlay } from './upload-overlay.tsx';

export type { MessagePurpose } from '../lib/message-copy.ts';

export interface MessageStepProps {
  giftId: string;
  planId: PlanId | null;
  planName: string | null;
  /** The message the gift already has on the server, if any (a new one replaces it). */
  existingMessage?: 'video' | 'audio' | 'text' | null;
  /**
   * checkout: the wizard's step before paying. replace: a paid gift's message recorded or uploaded again (until
   * the gift is first opened); afterwards the sender goes back to My Gifts.
   */
  purpose?: MessagePurpose;
  /** Go on (to checkout, or back to My Gifts); the upload may still be running in the background. */
  onContinue: (giftId: string) => void;
}

export function MessageStep({ existingMessage = null, purpose = 'checkout', ...props }: MessageStepProps) {
  const step = useMessageStep({ ...props, existingMessage, purpose });
  const { copy, tab, media, upload, busy, error } = step;
  const kind = tab === 'audio' ? 'audio' : 'video';
  const uploadCard = <UploadCard kind={kind} limit={step.limit} inputRef={step.fileInput} onFile={step.accept} />;

  return (
    <div className="flex flex-col gap-6">
      <div className="text-center">
        <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">{copy.title}</h1>
        <p className="mt-2 text-stone-600">{copy.intro}</p>
        {step.bonusNote ? (
          <p className="mx-auto mt-3 flex max-w-xl items-start justify-center gap-2 rounded-xl bg-brand-50 px-4 py-2 text-left text-sm text-brand-700">
            <Sparkles className="mt-0.5 size-4 shrink-0" aria-hidden />
            {step.bonusNote}
          </p>
        ) : null}
      </div>

      <MessageTabs tab={tab} onSwitch={step.switchTab} />

      <MessageTabPanel
        tab={tab}
        text={step.text}
        onText={step.setText}
        media={media}
        busy={busy}
        onClear={step.clearMedia}
        onFile={(f) => step.accept(f)}
        uploadCard={uploadCard}
      />

      {step.alreadyHasMessage && !step.uploading ? (
        <Alert tone={purpose === 'replace' && !step.done ? 'info' : 'success'}>{copy.hasMessage}</Alert>
      ) : null}
      {error ? <Alert>{error}</Alert> : null}
      {upload?.phase === 'failed' && !error ? <Alert>Upload failed: {upload.error}</Alert> : null}

      <Button block onClick={() => void step.submit()} disabled={busy}>
        {busy ? (tab === 'text' ? 'Saving…' : 'Uploading…') : copy.submit}
      </Button>

      {step.overlay || step.uploading ? (
        <UploadOverlay
          state={upload}
          messageType={upload?.messageType ?? kind}
          continueLabel={copy.continueNow}
          continueNote={copy.whileUploading}
          onContinueInBackground={step.continueWhileUploading}
        />
      ) : null}
    </div>
  );
}
