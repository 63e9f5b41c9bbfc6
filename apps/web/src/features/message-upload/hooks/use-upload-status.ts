import { UPLOAD_STATUS_POLL_MS } from '@giftlens/contract/constants';
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import {
  getUploadState,
  resumePendingUploads,
  subscribeUploads,
  type UploadState,
} from '../lib/upload-manager.ts';

/**
 * The live state of a gift's message upload. Polls the IndexedDB cache every second so an upload left
 * behind by a reload (or another tab closing) is resumed.
 */
export function useUploadStatus(giftId: string | undefined): UploadState | undefined {
  const getSnapshot = useCallback(() => (giftId ? getUploadState(giftId) : undefined), [giftId]);
  const state = useSyncExternalStore(subscribeUploads, getSnapshot, getSnapshot);

  useEffect(() => {
    if (!giftId) return;
    void resumePendingUploads(giftId);
    const timer = window.setInterval(() => void resumePendingUploads(giftId), UPLOAD_STATUS_POLL_MS);
    return () => window.clearInterval(timer);
  }, [giftId]);

  return state;
}
