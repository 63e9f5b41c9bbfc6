import { DEFAULT_MESSAGE_LIMIT_BYTES } from '@giftlens/contract/constants';
import { findPlan, type PlanId } from '@giftlens/contract/plans';
import type { MessageType } from '@giftlens/contract/sender';
import { texts } from '@giftlens/contract/texts';
import { useEffect, useRef, useState } from 'react';
import { toast } from '../../../lib/toast.ts';
import { errorText } from '../../../lib/user-text.ts';
import { useSaveTextMessage } from '../api/save-text-message.ts';
import { clearUploadState, getUploadState, startUpload, uploadToastId } from '../lib/upload-manager.ts';
import { MESSAGE_COPY, type MessagePurpose } from '../lib/message-copy.ts';
import { type ChosenMedia, useChosenMedia } from './use-chosen-media.ts';
import { useUploadStatus } from './use-upload-status.ts';

export type MessageTab = 'video' | 'audio' | 'text';

export interface MessageStepOptions {
  giftId: string;
  planId: PlanId | null;
  planName: string | null;
  existingMessage: 'video' | 'audio' | 'text' | null;
  purpose: MessagePurpose;
  onContinue: (giftId: string) => void;
}

/** The message step's state: the chosen tab and file or text, their checks, and saving or uploading them. */
export function useMessageStep({ giftId, planId, planName, existingMessage, purpose, onContinue }: MessageStepOptions) {
  const copy = MESSAGE_COPY[purpose];
  const [tab, setTab] = useState<MessageTab>('video');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [overlay, setOverlay] = useState(false);
  const submitting = useRef(false);
  const [busy, setBusy] = useState(false);
  const saveText = useSaveTextMessage();
  const upload = useUploadStatus(giftId);

  const limit = (planId ? findPlan(planId)?.maxFileBytes : undefined) ?? DEFAULT_MESSAGE_LIMIT_BYTES;
  const planLabel = `${planName ?? findPlan(planId ?? '')?.name ?? 'Premium'} plan`;
  // The Lifetime plan's bonus note on the message step (its 50MB, no end, the recipient's reaction).
  const bonusNote = (planName ?? findPlan(planId ?? '')?.name) === 'Lifetime' ? texts.sender.lifetimeBonus : null;
  const chosen = useChosenMedia({ limit, planLabel });
  const { media } = chosen;

  const fail = (message: string) => {
    setError(message);
    toast.error(message);
  };

  const clearMedia = () => {
    chosen.clear();
    setError(null);
  };

  const switchTab = (next: MessageTab) => {
    if (next === tab) return;
    // Switching the message type drops whatever was chosen for the previous one.
    clearMedia();
    setText('');
    setTab(next);
  };

  const accept = (file: File, input?: HTMLInputElement | null): void => {
    const refusal = chosen.choose(file, tab === 'audio' ? 'audio' : 'video', input);
    if (refusal) fail(refusal);
    else setError(null);
  };

  // Set once we have moved on, so a background upload finishing later does not navigate a second time.
  const left = useRef(false);
  useEffect(() => {
    left.current = false;
    return () => {
      left.current = true;
    };
  }, []);
  const goOn = () => {
    if (left.current) return;
    left.current = true;
    onContinue(giftId);
  };

  // Going on while the upload runs: said once, in the upload's own toast, which its outcome then replaces.
  const continueWhileUploading = () => {
    const phase = getUploadState(giftId)?.phase;
    if (phase === 'caching' || phase === 'uploading') toast.info(copy.background, { id: uploadToastId(giftId) });
    goOn();
  };

  // Replacing again later in the same visit starts clean: an earlier upload's outcome is not this one's.
  useEffect(() => {
    const phase = getUploadState(giftId)?.phase;
    if (purpose === 'replace' && (phase === 'completed' || phase === 'failed')) clearUploadState(giftId);
  }, [purpose, giftId]);

  const alreadyHasMessage = existingMessage !== null || upload?.phase === 'completed';
  // Replacing: only a message uploaded on this screen counts as done; the old one is what is being replaced.
  const done = purpose === 'replace' ? upload?.phase === 'completed' : alreadyHasMessage;

  const saveTextMessage = () => {
    const trimmed = text.trim();
    if (!trimmed) return fail(texts.sender.messageRequired);
    submitting.current = true;
    setBusy(true);
    saveText.mutate(
      { giftId, text: trimmed },
      {
        onSuccess: () => {
          toast.success('Message saved!');
          goOn();
        },
        onError: (err) => fail(errorText(err, texts.sender.generic)),
        onSettled: () => {
          submitting.current = false;
          setBusy(false);
        },
      },
    );
  };

  const uploadMedia = async (chosen: ChosenMedia, messageType: MessageType) => {
    submitting.current = true;
    setBusy(true);
    setError(null);
    setOverlay(true);
    clearUploadState(giftId);
    const ok = await startUpload({ giftId, file: chosen.file, messageType, fileName: chosen.file.name, fileType: chosen.type });
    submitting.current = false;
    setBusy(false);
    setOverlay(false);
    if (ok) goOn();
  };

  const submit = async () => {
    if (submitting.current) return;
    // Nothing new chosen but the gift already has its message: just go on.
    if (done && !media && !text.trim()) return goOn();
    if (tab === 'text') return saveTextMessage();
    if (!media) return fail(texts.sender.messageRequired);
    await uploadMedia(media, tab);
  };

  const uploading = upload !== undefined && (upload.phase === 'caching' || upload.phase === 'uploading');

  return {
    copy,
    tab,
    switchTab,
    media,
    clearMedia,
    accept,
    text,
    setText,
    error,
    busy,
    overlay,
    upload,
    uploading,
    alreadyHasMessage,
    done,
    limit,
    bonusNote,
    fileInput: chosen.fileInput,
    submit,
    continueWhileUploading,
  };
}
