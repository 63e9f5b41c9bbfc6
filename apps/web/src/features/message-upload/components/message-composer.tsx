import { useState, type ReactNode } from 'react';
import type { MessageComposerProps } from '../../../components/media/message-composer.ts';
import { texts } from '@giftlens/contract/texts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { type ChosenMedia, useChosenMedia } from '../hooks/use-chosen-media.ts';
import type { MessageTab } from '../hooks/use-message-step.ts';
import { MediaPreview, UploadCard } from './message-media.tsx';
import { MessageTabs } from './message-tabs.tsx';
import { AudioRecorderBox, VideoRecorderBox } from './recorder-box.tsx';
import { TextPanel } from './text-panel.tsx';

/**
 * The message step's recorder, uploader and text box without its calls: the same tabs, camera and microphone
 * recorders, file checks and preview, handing the chosen message to `onSubmit` (a group gift's contributor page
 * saves it through its own endpoints).
 */
export function MessageComposer({ limit, planName, submitLabel, busy, beforeSubmit, error = null, onSubmit }: MessageComposerProps) {
  const [tab, setTab] = useState<MessageTab>('video');
  const [text, setText] = useState('');
  const [ownError, setOwnError] = useState<string | null>(null);
  const chosen = useChosenMedia({ limit, planLabel: `${planName} plan` });
  const { media } = chosen;
  const kind = tab === 'audio' ? 'audio' : 'video';

  const switchTab = (next: MessageTab) => {
    if (next === tab) return;
    chosen.clear();
    setText('');
    setOwnError(null);
    setTab(next);
  };
  const accept = (file: File, input?: HTMLInputElement | null) => setOwnError(chosen.choose(file, kind, input));

  const submit = () => {
    if (busy) return;
    if (tab === 'text') {
      const trimmed = text.trim();
      if (!trimmed) return setOwnError(texts.sender.messageRequired);
      setOwnError(null);
      return onSubmit({ messageType: 'text', text: trimmed });
    }
    if (!media) return setOwnError(texts.sender.messageRequired);
    setOwnError(null);
    onSubmit({ messageType: kind, file: media.file, fileType: media.type });
  };

  const uploadCard = <UploadCard kind={kind} limit={limit} inputRef={chosen.fileInput} onFile={accept} />;
  const shownError = ownError ?? error;

  return (
    <div className="flex flex-col gap-4">
      <MessageTabs tab={tab} onSwitch={switchTab} />
      <MessageTabPanel tab={tab} text={text} onText={setText} media={media} busy={busy} onClear={chosen.clear} onFile={accept} uploadCard={uploadCard} />
      {beforeSubmit}
      {shownError ? <Alert>{shownError}</Alert> : null}
      <Button block onClick={submit} disabled={busy}>
        {busy ? (tab === 'text' ? 'Saving…' : 'Uploading…') : submitLabel}
      </Button>
    </div>
  );
}

/** The panel of the chosen tab: the text box, the chosen file's preview, or the recorder with the upload card. */
export function MessageTabPanel({
  tab,
  text,
  onText,
  media,
  busy,
  onClear,
  onFile,
  uploadCard,
}: {
  tab: MessageTab;
  text: string;
  onText: (text: string) => void;
  media: ChosenMedia | null;
  busy: boolean;
  onClear: () => void;
  onFile: (file: File) => void;
  uploadCard: ReactNode;
}) {
  const kind = tab === 'audio' ? 'audio' : 'video';
  return (
    <div role="tabpanel" id="message-tab-panel" aria-labelledby={`message-tab-${tab}`} className="flex flex-col gap-4">
      {tab === 'text' ? (
        <TextPanel value={text} onChange={onText} />
      ) : media ? (
        <MediaPreview kind={kind} media={media} busy={busy} onClear={onClear} />
      ) : tab === 'video' ? (
        <VideoRecorderBox key="video" onRecorded={onFile} idleExtra={uploadCard} />
      ) : (
        <AudioRecorderBox key="audio" onRecorded={onFile} idleExtra={uploadCard} />
      )}
    </div>
  );
}
