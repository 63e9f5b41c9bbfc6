import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { senderGiftQueryKey, useSenderGift } from '../../../api/sender-gift.ts';

/** The message upload that may still be running in the background (supplied by the app layer). */
export interface BackgroundUpload {
  phase: 'caching' | 'uploading' | 'completed' | 'failed';
  progress: number;
  error: string | null;
}

/** The gift being checked out, read again when its background upload completes (that changes its status). */
export function useCheckoutGift(giftId: string, upload: BackgroundUpload | undefined) {
  const gift = useSenderGift(giftId);
  const queryClient = useQueryClient();
  const uploadPhase = upload?.phase;
  useEffect(() => {
    if (uploadPhase === 'completed') void queryClient.invalidateQueries({ queryKey: senderGiftQueryKey(giftId) });
  }, [uploadPhase, giftId, queryClient]);
  const uploading = uploadPhase === 'caching' || uploadPhase === 'uploading';
  return { gift, uploading };
}
