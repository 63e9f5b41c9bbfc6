import { M } from '@giftlens/contract/messages';
import type { MessageType } from '@giftlens/contract/sender';
import { toast } from 'sonner';
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
import { putFile } from './put-file.ts';

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
 */
const states = new Map<string, UploadState>();
const running = new Set<string>();
const listeners = new Set<() => void>();

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
  set(giftId, { messageType, phase: 'caching', progress: 0, error: null, recordId: null });
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
  // Claimed before caching so the 1 s poll never mistakes this fresh record for one left by a reload.
  running.add(record.id);
  try {
    await putPendingUpload(record);
  } catch {
    // IndexedDB unavailable (private mode in some browsers): upload straight from memory, without resume.
    return run(record, false);
  }
  return run(record, true);
}

/** Picks up a cached upload for this gift left behind by a reload. */
export async function resumePendingUploads(giftId: string): Promise<void> {
  let records: PendingUpload[];
  try {
    records = await listPendingUploads(giftId);
  } catch {
    return;
  }
  const latest = records
    .filter((r) => r.status === 'pending' || r.status === 'uploading')
    .sort((a, b) => b.createdAt - a.createdAt)[0];
  if (!latest || running.has(latest.id)) return;
  if (running.size > 0 && [...running].some((id) => id.startsWith(`${giftId}-`))) return;
  // Older leftovers for the same gift are superseded by the newest one.
  for (const r of records) if (r.id !== latest.id && !running.has(r.id)) void deletePendingUpload(r.id);
  toast.info('Resuming your message upload…');
  await run(latest, true);
}

async function run(record: PendingUpload, cached: boolean): Promise<boolean> {
  const { giftId, messageType, id } = record;
  running.add(id);
  set(giftId, { messageType, recordId: id, phase: 'uploading', progress: 0, error: null });
  let lastSaved = 0;
  try {
    let file = record.file;
    if (cached) {
      const stored = await getPendingUpload(id);
      if (!stored) throw new Error('Cached file not found.');
      file = stored.file;
      await updatePendingUpload(id, { status: 'uploading', progress: 0 });
    }
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
        // Persist progress now and then so the 1 s poll of the cache sees it move.
        if (cached && progress - lastSaved >= 5) {
          lastSaved = progress;
          void updatePendingUpload(id, { progress }).catch(() => undefined);
        }
      },
      M.uploadStorageFailed,
    );
    await confirmUpload({ giftId, publicUrl: target.publicUrl, messageType, filePath: target.filePath });
    set(giftId, { messageType, phase: 'completed', progress: 100 });
    toast.success('Message uploaded successfully!');
    return true;
  } catch (err) {
    const message = err instanceof Error && err.message ? err.message : M.generic;
    set(giftId, { messageType, phase: 'failed', error: message });
    toast.error(`Upload failed: ${message}`);
    return false;
  } finally {
    running.delete(id);
    if (cached) await deletePendingUpload(id).catch(() => undefined);
  }
}

/** Forget a finished or failed upload (e.g. the sender chose another file). */
export function clearUploadState(giftId: string): void {
  if (states.delete(giftId)) for (const l of listeners) l();
}
