import { texts } from '@giftlens/contract/texts';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { page } from 'vitest/browser';
import { renderRoute } from '../test/render-route.tsx';
import { CHUNK_RELOAD_KEY, isStaleChunkError, RouteError } from './route-error.tsx';

/** A lazily loaded screen whose chunk is gone from the server (the tab runs the build before a deploy). */
const staleChunk = () =>
  Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://127.0.0.1/assets/page-0ld.js'));

function failingRoute(lazy: () => Promise<never>, reload: () => void) {
  return { path: '/page', lazy, errorElement: <RouteError reload={reload} /> };
}

afterEach(() => sessionStorage.clear());

describe('the route error element (Chromium)', () => {
  test('a stale chunk reloads the page once; failing again after that reload shows the error screen, never a loop', async () => {
    const reload = vi.fn();
    const first = await renderRoute(failingRoute(staleChunk, reload), '/page');
    await expect.element(page.getByRole('status')).toHaveTextContent('Loading…');
    await expect.poll(() => reload.mock.calls.length).toBe(1);
    expect(sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBeTruthy();
    await first.screen.unmount();

    // The same build after its reload (sessionStorage survives a reload): the chunk is still missing.
    await renderRoute(failingRoute(staleChunk, reload), '/page');
    await expect.element(page.getByRole('heading', { level: 1, name: texts.recipient.somethingWrong })).toBeVisible();
    await expect.element(page.getByText(/A new version of GiftLens is out/)).toBeVisible();
    await expect.element(page.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  test('any other error is the friendly screen at once, without a reload', async () => {
    const reload = vi.fn();
    await renderRoute(failingRoute(() => Promise.reject(new Error('boom')), reload), '/page');
    await expect.element(page.getByRole('heading', { level: 1, name: texts.recipient.somethingWrong })).toBeVisible();
    await expect.element(page.getByText(texts.sender.generic)).toBeVisible();
    await expect.element(page.getByRole('link', { name: 'Go to the home page' })).toBeVisible();
    expect(reload).not.toHaveBeenCalled();
    expect(sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBeNull();
  });

  test('knows a stale chunk in each browser’s words', () => {
    expect(isStaleChunkError(new TypeError('Failed to fetch dynamically imported module: https://x/a.js'))).toBe(true);
    expect(isStaleChunkError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isStaleChunkError(new TypeError('error loading dynamically imported module: https://x/a.js'))).toBe(true);
    expect(isStaleChunkError(Object.assign(new Error('Loading chunk 7 failed.'), { name: 'ChunkLoadError' }))).toBe(true);
    expect(isStaleChunkError(new TypeError('Failed to fetch'))).toBe(false);
    expect(isStaleChunkError('Failed to fetch dynamically imported module')).toBe(false);
  });
});
