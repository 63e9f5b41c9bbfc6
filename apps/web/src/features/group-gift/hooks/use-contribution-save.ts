import type { OwnContribution } from '@giftlens/contract/group-gifts';
import { texts } from '@giftlens/contract/texts';
import { useState } from 'react';
import type { ComposedMessage } from '../../../components/media/message-composer.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { putFile } from '../../../lib/put-file.ts';
import { confirmContribution, contributionUploadUrl, saveTextContribution } from '../api/contributor.ts';
import { groupErrorText } from '../lib/group-text.ts';

export type SavePhase = { kind: 'idle' } | { kind: 'uploading'; progress: number } | { kind: 'saving' };

/**
 * Saves the contributor's message through their own link: a text at once; a file by asking for an upload URL,
 * PUTting the bytes (with progress) and confirming, exactly as the organizer's message is uploaded. A 409 means
 * contributions closed meanwhile: `closed` is then true and `onClosed` reads the page again.
 */
export function useContributionSave(token: string, onClosed: () => void) {
  const [phase, setPhase] = useState<SavePhase>({ kind: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const [closed, setClosed] = useState(false);

  const save = async (input: ComposedMessage, name: string, notifyWhenOpened: boolean): Promise<OwnContribution | null> => {
    setError(null);
    try {
      if (input.messageType === 'text') {
        setPhase({ kind: 'saving' });
        return (await saveTextContribution(token, { text: input.text, name, notifyWhenOpened })).mine;
      }
      setPhase({ kind: 'uploading', progress: 0 });
      const target = await contributionUploadUrl(token, {
        fileType: input.fileType,
        fileName: input.file.name,
        messageType: input.messageType,
        fileSize: input.file.size,
      });
      await putFile(
        target.uploadUrl,
        input.file,
        input.fileType,
        (progress) => setPhase({ kind: 'uploading', progress }),
        texts.sender.uploadStorageFailed,
      );
      setPhase({ kind: 'saving' });
      const res = await confirmContribution(token, { filePath: target.filePath, messageType: input.messageType, name, notifyWhenOpened });
      return res.mine;
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        setClosed(true);
        onClosed();
      }
      setError(groupErrorText(err));
      return null;
    } finally {
      setPhase({ kind: 'idle' });
    }
  };

  return { phase, error, closed, save, setError, setClosed };
}

