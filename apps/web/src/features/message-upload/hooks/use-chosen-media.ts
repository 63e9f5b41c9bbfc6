import { messageFileType } from '@giftlens/contract/media';
import { formatFileMegabytes, formatLimit } from '@giftlens/contract/plans';
import type { MessageType } from '@giftlens/contract/sender';
import { texts } from '@giftlens/contract/texts';
import { useEffect, useRef, useState } from 'react';

export interface ChosenMedia {
  file: File;
  url: string;
  type: string;
}

/**
 * The recorded or chosen message file, checked against the media table and the plan's size limit. A refused
 * file clears the file input; its object URL is revoked when it is replaced or the step goes away.
 */
export function useChosenMedia({ limit, planLabel }: { limit: number; planLabel: string }) {
  const [media, setMedia] = useState<ChosenMedia | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => () => {
    if (media) URL.revokeObjectURL(media.url);
  }, [media]);

  const clear = () => {
    setMedia(null);
    if (fileInput.current) fileInput.current.value = '';
  };

  /** Takes the file, or returns why it is refused. */
  const choose = (file: File, kind: MessageType, input?: HTMLInputElement | null): string | null => {
    const type = messageFileType(file, kind);
    const refuse = (why: string) => {
      if (input) input.value = '';
      return why;
    };
    if (!type) return refuse(texts.sender.fileTypeInvalid);
    if (file.size > limit) return refuse(texts.sender.fileTooLarge(planLabel, formatLimit(limit), formatFileMegabytes(file.size)));
    setMedia({ file, url: URL.createObjectURL(file), type });
    return null;
  };

  return { media, fileInput, clear, choose };
}
