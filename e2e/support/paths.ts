import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const E2E_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_DIR = resolve(E2E_DIR, '..');
export const ARTIFACTS_DIR = resolve(E2E_DIR, '.artifacts');
/** Real gift photos from the shared data set (reference images and phone photos), copied into the repository. */
export const GIFT_PHOTOS_DIR = process.env.GIFT_PHOTOS_DIR ?? resolve(REPO_DIR, 'test-fixtures/gift-photos');
/** Where the global setup tells this run's workers what it started (base URL, mail folder); one per run. */
export const RUNTIME_FILE = resolve(ARTIFACTS_DIR, `runtime-${process.env.E2E_RUN_ID ?? 'default'}.json`);

export interface E2ERuntime {
  baseURL: string;
  mailDir: string;
  dataDir: string;
}
