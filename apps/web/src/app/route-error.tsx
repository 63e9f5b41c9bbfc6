import { errorTexts } from '@giftlens/contract/error-texts';
import { TriangleAlert } from 'lucide-react';
import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { ButtonLink } from '../components/ui/button-link.tsx';
import { PageSpinner } from '../components/ui/page-spinner.tsx';
import { StatusPanel } from '../components/ui/status-panel.tsx';
import { paths } from '../config/paths.ts';

/** sessionStorage: the build (its entry module's hashed URL) that already reloaded the page for a stale chunk. */
export const CHUNK_RELOAD_KEY = 'giftlens:chunk-reload';
/** This build: the URL of the module that holds this file, hashed per build. */
const BUILD = import.meta.url;

/**
 * A screen's code that can no longer be loaded: after a deploy, the tab still runs the old build, whose lazily
 * loaded chunks are gone from the server. Chromium says "Failed to fetch dynamically imported module", Safari
 * "Importing a module script failed", Firefox "error loading dynamically imported module"; webpack-style loaders
 * throw a ChunkLoadError.
 */
export function isStaleChunkError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'ChunkLoadError' ||
    /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(
      error.message,
    )
  );
}

/**
 * Reloads the page once per build, so the new build's HTML and chunks are fetched. The guard is the build's
 * identity in sessionStorage: a build that fails again after its own reload shows the error screen instead, so it
 * never loops; a later deploy is a new build and may reload once more. False when this build already reloaded.
 */
export function reloadOnceForStaleChunk(reload: () => void = () => window.location.reload()): boolean {
  if (!mayReload()) return false;
  try {
    sessionStorage.setItem(CHUNK_RELOAD_KEY, BUILD);
  } catch {
    // No sessionStorage (private mode, blocked): no guard, so no reload either.
    return false;
  }
  reload();
  return true;
}

/** Whether this build has not reloaded the page for a stale chunk yet (false without sessionStorage). */
function mayReload(): boolean {
  try {
    return sessionStorage.getItem(CHUNK_RELOAD_KEY) !== BUILD;
  } catch {
    return false;
  }
}

/**
 * Every route's errorElement: a stale chunk reloads the page once (a spinner meanwhile); anything else, or a
 * stale chunk that survives the reload, is a friendly screen with a way home.
 */
export function RouteError({ reload }: { reload?: () => void }) {
  const error = useRouteError();
  const stale = isStaleChunkError(error);
  const willReload = stale && mayReload();
  useEffect(() => {
    if (willReload) reloadOnceForStaleChunk(reload);
  }, [willReload, reload]);

  if (willReload) return <PageSpinner />;
  return (
    <StatusPanel
      tone="error"
      icon={<TriangleAlert className="size-8" aria-hidden />}
      title={errorTexts.somethingWrong}
      actions={<ButtonLink to={paths.home.href()}>Go to the home page</ButtonLink>}
    >
      <title>Something went wrong · GiftLens</title>
      <p>
        {stale
          ? 'A new version of GiftLens is out and this page could not load. Reload the page, or start again from the home page.'
          : errorTexts.generic}
      </p>
    </StatusPanel>
  );
}
