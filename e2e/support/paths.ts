import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { matchPath } from 'react-router';

// Every URL a test opens, expects or calls comes from here: the web app's route map, the contract's API map, and
// the three server paths neither holds.
export { paths } from '../../apps/web/src/config/paths.ts';
export { API } from '@giftlens/contract/routes';
/** The browsable API reference (the server's API_DOCS_PATH) and the health check the global setup waits for. */
export const API_DOCS = '/api/docs';
export const HEALTH = '/api/health';
/** Moves the server's clock forward: only on a server started with TEST_CLOCK=1 (support/test-clock.ts). */
export const TEST_CLOCK = '/api/test/clock';

interface Route {
  pattern: string;
}

/** For `expect(page).toHaveURL(…)`: the page is at this route, whatever its parameters (React Router's matcher). */
export const atRoute =
  (route: Route) =>
  (url: URL): boolean =>
    matchPath(route.pattern, url.pathname) !== null;

/** The parameters of the route the page is at now (`routeParams(page, paths.checkout).giftId`). */
export function routeParams(page: Page, route: Route): Record<string, string | undefined> {
  const match = matchPath(route.pattern, new URL(page.url()).pathname);
  if (!match) throw new Error(`${page.url()} is not at ${route.pattern}`);
  return match.params;
}

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
