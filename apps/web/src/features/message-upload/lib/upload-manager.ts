import { texts } from '@giftlens/contract/texts';
import type { MessageType } from '@giftlens/contract/sender';
import { toast } from '../../../lib/toast.ts';
import { errorText } from '../../../lib/user-text.ts';
import { confirmUpload } from '../api/confirm-upload.ts';
import { generateUploadUrl } from '../api/generate-upload-url.ts';
import {
  deletePendingUpload,
  getPendingUpload,
  listPendingUploads,
  putPendingUpload,
  updatePendingUpload,
  type PendingUpload,
} from './pending-uploads-db.ts';
import { putFile } from '../../../lib/put-file.ts';

export type UploadPhase = 'caching' | 'uploading' | 'completed' | 'failed';

export interface UploadState {
  giftId: string;
  recordId: string | null;
  messageType: MessageType;
  phase: UploadPhase;
  /** 0 to 100 */
  progress: number;
  error: string | null;
}

/**
 * Message uploads live here, at module level, not in a component: the sender may leave the message step for
 * checkout while the PUT is still running, and the upload must carry on.
 *
 * Each cached record is uploaded once. This page never takes up a record it has already taken (`taken`), and a
 * record is uploaded under a Web Lock named after it, so another tab does not upload it a second time either; a
 * record is only resumed when nobody holds its lock (a reload or a closed tab left it behind).
 */
const states = new Map<string, UploadState>();
const taken = new Set<string>();
const running = new Set<string>();
const listeners = new Set<() => void>();

/** All news of one gift's upload shares one toast, so it is told once: a newer word replaces the older. */
export const uploadToastId = (giftId: string) => `message-upload-${giftId}`;

function set(giftId: string, patch: Partial<UploadState> & Pick<UploadState, 'messageType'>) {
  const prev = states.get(giftId);
  states.set(giftId, {
    giftId,
    recordId: null,
    phase: 'caching',
    progress: 0,
    error: null,
    ...prev,
    ...patch,
  });
  for (const l of listeners) l();
}

export function subscribeUploads(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getUploadState(giftId: string): UploadState | undefined {
  return states.get(giftId);
}

/**
 * Runs `work` holding the record's lock; `null` when another tab holds it (that tab is uploading the record).
 * Without Web Locks (old browsers), this page's own bookkeeping is all there is.
 */
async function withRecordLock<T>(id: string, work: () => Promise<T>): Promise<T | null> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return work();
  return locks.request(`giftlens-upload-${id}`, { ifAvailable: true }, (lock) => (lock ? work() : null));
}

export interface StartUploadInput {
  giftId: string;
  file: Blob;
  messageType: MessageType;
  fileName: string;
  fileType: string;
}

/** Caches the file in IndexedDB, then uploads it. Resolves when the upload has finished (or failed). */
export async function startUpload(input: StartUploadInput): Promise<boolean> {
  const { giftId, messageType } = input;
  const now = Date.now();
  const record: PendingUpload = {
    id: `${giftId}-${now}`,
    giftId,
    file: input.file,
    messageType,
    fileName: input.fileName,
    fileType: input.fileType,
    fileSize: input.file.size,
    status: 'pending',
    createdAt: now,
    updatedAt: now,
    progress: 0,
  };
  // Taken before caching, so the 1 s poll never mistakes this fresh record for one left by a reload.
  taken.add(record.id);
  running.add(record.id);
  set(giftId, { messageType, recordId: record.id, phase: 'caching', progress: 0, error: null });
  const done = await withRecordLock(record.id, async () => {
    let cached = true;
    try {
      await putPendingUpload(record);
    } catch {
      // IndexedDB unavailable (private mode in some browsers): upload straight from memory, without resume.
      cached = false;
    }
    return upload(record, record.file, cached);
  });
  return done ?? false;
}

/** Picks up a cached upload for this gift left behind by a reload or a closed tab. */
export async function resumePendingUploads(giftId: string): Promise<void> {
  let records: PendingUpload[];
  try {
    records = await listPendingUploads(giftId);
  } catch {
    return;
  }
  // An upload of this page for the gift is the newest word: nothing older is resumed beside it.
  if ([...running].some((id) => id.startsWith(`${giftId}-`))) return;
  const latest = records
    .filter((r) => r.status === 'pending' || r.status === 'uploading')
    .sort((a, b) => b.createdAt - a.createdAt)[0];
  if (!latest || taken.has(latest.id)) return;
  taken.add(latest.id);
  const outcome = await withRecordLock(latest.id, async () => {
    let stored: PendingUpload | undefined;
    try {
      stored = await getPendingUpload(latest.id);
    } catch {
      stored = undefined;
    }
    // Finished meanwhile (by the tab that started it): there is nothing left to resume.
    if (!stored) return 'gone' as const;
    // Older leftovers for the same gift are superseded by the newest one.
    for (const r of records) {
      if (r.id !== latest.id && !taken.has(r.id)) void deletePendingUpload(r.id).catch(ignore);
    }
    running.add(stored.id);
    set(giftId, { messageType: stored.messageType, recordId: stored.id, phase: 'uploading', progress: 0, error: null });
    toast.info('Resuming your message upload…', { id: uploadToastId(giftId) });
    await upload(stored, stored.file, true);
    return 'resumed' as const;
  });
  // Another tab holds the record: it is uploading it. Look again later, in case that tab goes away.
  if (outcome === null) taken.delete(latest.id);
}

/** Quietly drops a failure of clean-up work whose outcome nobody waits for. */
function ignore(): void {}

async function upload(record: PendingUpload, file: Blob, cached: boolean): Promise<boolean> {
  const { giftId, messageType, id } = record;
  running.add(id);
  set(giftId, { messageType, recordId: id, phase: 'uploading', progress: 0, error: null });
  let lastSaved = 0;
  try {
    if (cached) await updatePendingUpload(id, { status: 'uploading', progress: 0 });
    const target = await generateUploadUrl({
      giftId,
      fileType: record.fileType,
      fileName: record.fileName,
      messageType,
      fileSize: record.fileSize,
    });
    await putFile(
      target.uploadUrl,
      file,
      record.fileType,
      (progress) => {
        set(giftId, { messageType, progress });
        // Persist progress now and then so a page that resumes it later knows how far it got.
        if (cached && progress - lastSaved >= 5) {
          lastSaved = progress;
          void updatePendingUpload(id, { progress }).catch(ignore);
        }
      },
      texts.sender.uploadStorageFailed,
    );
    await confirmUpload({ giftId, publicUrl: target.publicUrl, messageType, filePath: target.filePath });
    // The record goes before the upload is reported done: nothing can take it for one left behind.
    if (cached) await deletePendingUpload(id).catch(ignore);
    set(giftId, { messageType, phase: 'completed', progress: 100 });
    toast.success('Message uploaded successfully!', { id: uploadToastId(giftId) });
    return true;
  } catch (err) {
    const message = errorText(err, texts.sender.uploadStorageFailed);
    if (cached) await deletePendingUpload(id).catch(ignore);
    set(giftId, { messageType, phase: 'failed', error: message });
    toast.error(`Upload failed: ${message}`, { id: uploadToastId(giftId) });
    return false;
  } finally {
    running.delete(id);
  }
}

/** Forget a finished or failed upload (e.g. the sender chose another file). */
export function clearUploadState(giftId: string): void {
  if (states.delete(giftId)) for (const l of listeners) l();
}
