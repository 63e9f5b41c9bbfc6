import { CACHE_CLEANUP_AGE_MS } from '@giftlens/contract/constants';
import type { MessageType } from '@giftlens/contract/sender';
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

export type PendingUploadStatus = 'pending' | 'uploading' | 'completed' | 'failed';

/** The spec's pending-upload record: the file is cached here before any byte goes to the server. */
export interface PendingUpload {
  /** giftId + "-" + timestamp */
  id: string;
  giftId: string;
  file: Blob;
  messageType: MessageType;
  fileName: string;
  fileType: string;
  fileSize: number;
  status: PendingUploadStatus;
  createdAt: number;
  updatedAt: number;
  /** 0 to 100 */
  progress: number;
}

interface UploadsDb extends DBSchema {
  pendingUploads: {
    key: string;
    value: PendingUpload;
    indexes: { giftId: string; status: PendingUploadStatus };
  };
}

export const UPLOADS_DB_NAME = 'giftlens-uploads';
const STORE = 'pendingUploads';

let dbPromise: Promise<IDBPDatabase<UploadsDb>> | null = null;

/** Opens the database once per page; every open first drops records older than 24 hours. */
export function openUploadsDb(): Promise<IDBPDatabase<UploadsDb>> {
  dbPromise ??= openDB<UploadsDb>(UPLOADS_DB_NAME, 1, {
    upgrade(db) {
      const store = db.createObjectStore(STORE, { keyPath: 'id' });
      store.createIndex('giftId', 'giftId');
      store.createIndex('status', 'status');
    },
  }).then(async (db) => {
    await deleteOlderThan(db, Date.now() - CACHE_CLEANUP_AGE_MS);
    return db;
  });
  dbPromise.catch(() => {
    // Let the next call try again (e.g. IndexedDB blocked for a moment).
    dbPromise = null;
  });
  return dbPromise;
}

async function deleteOlderThan(db: IDBPDatabase<UploadsDb>, cutoff: number): Promise<void> {
  const tx = db.transaction(STORE, 'readwrite');
  let cursor = await tx.store.openCursor();
  while (cursor) {
    if (cursor.value.createdAt < cutoff) await cursor.delete();
    cursor = await cursor.continue();
  }
  await tx.done;
}

export async function putPendingUpload(record: PendingUpload): Promise<void> {
  const db = await openUploadsDb();
  await db.put(STORE, record);
}

export async function getPendingUpload(id: string): Promise<PendingUpload | undefined> {
  const db = await openUploadsDb();
  return db.get(STORE, id);
}

export async function updatePendingUpload(id: string, patch: Partial<Omit<PendingUpload, 'id'>>): Promise<void> {
  const db = await openUploadsDb();
  const tx = db.transaction(STORE, 'readwrite');
  const current = await tx.store.get(id);
  if (current) await tx.store.put({ ...current, ...patch, updatedAt: Date.now() });
  await tx.done;
}

export async function deletePendingUpload(id: string): Promise<void> {
  const db = await openUploadsDb();
  await db.delete(STORE, id);
}

export async function listPendingUploads(giftId: string): Promise<PendingUpload[]> {
  const db = await openUploadsDb();
  return db.getAllFromIndex(STORE, 'giftId', giftId);
}
