import { statSync } from 'node:fs';
import type { Page, Route } from '@playwright/test';
import { expect, test } from '../../support/fixtures.ts';
import { largeVideo } from '../../support/media.ts';
import { API, paths } from '../../support/paths.ts';
import { waitForGift } from '../../support/sender-api.ts';
const BACKGROUND = 'Your message keeps uploading in the background, so you can go on to checkout.';
const UPLOADED = 'Message uploaded successfully!';

interface Seen {
  /** Every text a toast showed, in order (a toast whose text changes counts once per text). */
  toasts: string[];
  /** The toasts on screen together, whenever that changed. */
  together: string[][];
  /** Every value a progress bar showed, in order, and when (the page's performance.now(), ms). */
  progress: number[];
  progressAt: number[];
  /** Animation frames in which the overlay's number and its bar disagreed. */
  mismatches: { number: number; bar: number }[];
  frames: number;
}

/**
 * Watches the page from its first script on: the toasts, the progress bars' values, and on every animation frame
 * whether the upload overlay's bar is as full as its number says.
 */
async function watchUploadUi(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: Seen = { toasts: [], together: [], progress: [], progressAt: [], mismatches: [], frames: 0 };
    (window as unknown as { __seen: Seen }).__seen = seen;
    const look = () => {
      const texts = Array.from(document.querySelectorAll('[data-sonner-toast]'), (t) =>
        (t.querySelector('[data-title]')?.textContent ?? t.textContent ?? '').trim(),
      );
      for (const text of texts) if (!seen.toasts.includes(text)) seen.toasts.push(text);
      if (JSON.stringify(texts) !== JSON.stringify(seen.together.at(-1) ?? [])) seen.together.push(texts);
      for (const bar of Array.from(document.querySelectorAll('[role="progressbar"][aria-valuenow]'))) {
        const value = Number(bar.getAttribute('aria-valuenow'));
        if (seen.progress.at(-1) !== value) {
          seen.progress.push(value);
          seen.progressAt.push(performance.now());
        }
      }
    };
    new MutationObserver(look).observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['aria-valuenow'],
    });
    const frame = () => {
      const dialog = document.querySelector('[role="dialog"][aria-modal="true"]');
      const bar = dialog?.querySelector('[role="progressbar"]');
      const fill = bar?.firstElementChild;
      const number = /(\d+)%/.exec(dialog?.textContent ?? '')?.[1];
      if (bar && fill && number !== undefined) {
        seen.frames += 1;
        const shown = (fill.getBoundingClientRect().width / bar.getBoundingClientRect().width) * 100;
        if (Math.abs(shown - Number(number)) > 2) seen.mismatches.push({ number: Number(number), bar: Math.round(shown) });
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

const seenOn = (page: Page) => page.evaluate(() => (window as unknown as { __seen: Seen }).__seen);

/** The most one step moving the 20 MB file may take, beside the test's own budget (seen: 50 s at load average 17). */
const TRANSFER_CEILING_MS = 180_000;

/**
 * Runs `step`, which moves the 20 MB file once (into the browser, or up to the server), with its own time beside the
 * test's budget: up to TRANSFER_CEILING_MS while it runs, and what it took once it is done. On a loaded machine a
 * transfer is slow, and that must not eat into the budget of the checks.
 */
async function transfer<T>(step: () => Promise<T>): Promise<T> {
  const info = test.info();
  info.setTimeout(info.timeout + TRANSFER_CEILING_MS);
  const started = Date.now();
  const result = await step();
  info.setTimeout(info.timeout - TRANSFER_CEILING_MS + (Date.now() - started));
  return result;
}

/** Progress points the upload must move before its speed is taken. */
const SPEED_SAMPLE_POINTS = 5;

/**
 * Waits, web-first, until the upload has sent the whole file, as long as its measured speed says it needs: the
 * speed is taken in the page (progress values and their times) once the upload has moved SPEED_SAMPLE_POINTS, and
 * the wait for 100% is 3 times what the rest needs at that speed (at least 10 s). The test's budget grows by the
 * same.
 */
async function uploadSent(page: Page): Promise<void> {
  const moved = async () => {
    const { progress, progressAt } = await seenOn(page);
    const first = progress.findIndex((p) => p > 0);
    const last = progress.length - 1;
    return { first, last, progress, progressAt, points: first < 0 ? 0 : (progress[last] ?? 0) - (progress[first] ?? 0) };
  };
  const sample = await transfer(async () => {
    await expect
      .poll(async () => {
        const m = await moved();
        return m.points >= SPEED_SAMPLE_POINTS || m.progress.at(-1) === 100;
      }, { message: `the upload has moved ${SPEED_SAMPLE_POINTS} points`, timeout: TRANSFER_CEILING_MS })
      .toBe(true);
    return moved();
  });
  const at = sample.progress[sample.last] ?? 0;
  if (at === 100) return;
  const pointsPerMs = sample.points / ((sample.progressAt[sample.last] ?? 0) - (sample.progressAt[sample.first] ?? 0) || 1);
  const timeout = Math.max(10_000, Math.ceil((3 * (100 - at)) / pointsPerMs));
  test.info().setTimeout(test.info().timeout + timeout);
  await expect
    .poll(async () => (await seenOn(page)).progress.at(-1), {
      message: `the upload reaches 100% within ${timeout} ms (3× its pace of ${(pointsPerMs * 1000).toFixed(1)} points/s)`,
      timeout,
    })
    .toBe(100);
}

/** Holds the confirm-upload call until `release` is called: the file is on the server, the overlay at 100%. */
async function holdConfirm(page: Page): Promise<{ held: Promise<void>; release: () => void }> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let markHeld!: () => void;
  const held = new Promise<void>((r) => (markHeld = r));
  await page.route((url) => url.pathname === API.confirmUpload, async (route: Route) => {
    markHeld();
    await released;
    await route.continue();
  });
  return { held, release };
}

/**
 * Counts the page's IndexedDB calls that matter here: listing a gift's cached uploads (the resume poll) and
 * deleting a cached upload (an upload that ended).
 */
async function countUploadCacheCalls(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const calls = { lists: 0, deletes: 0 };
    (window as unknown as { __idbCalls: typeof calls }).__idbCalls = calls;
    const index = IDBIndex.prototype;
    const getAll = Object.getOwnPropertyDescriptor(index, 'getAll')?.value as IDBIndex['getAll'];
    index.getAll = function (this: IDBIndex, ...args: Parameters<IDBIndex['getAll']>) {
      calls.lists += 1;
      return getAll.apply(this, args);
    };
    const store = IDBObjectStore.prototype;
    const remove = Object.getOwnPropertyDescriptor(store, 'delete')?.value as IDBObjectStore['delete'];
    store.delete = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['delete']>) {
      calls.deletes += 1;
      return remove.apply(this, args);
    };
  });
}

const cacheCalls = (page: Page) =>
  page.evaluate(() => (window as unknown as { __idbCalls: { lists: number; deletes: number } }).__idbCalls);

const UPLOADS_DB = 'giftlens-uploads';
const UPLOADS_STORE = 'pendingUploads';

/**
 * Keeps the upload cache busy, as writing a 20 MB record keeps it on a phone: a write transaction on its store
 * that lasts until `releaseUploadCache`, so the page's own reads and deletes wait in line behind it, in order.
 */
async function occupyUploadCache(page: Page): Promise<void> {
  await page.evaluate(
    ({ db: name, store }) =>
      new Promise<void>((started, failed) => {
        const open = indexedDB.open(name);
        open.onerror = () => failed(open.error ?? new Error('indexedDB.open failed'));
        open.onsuccess = () => {
          const db = open.result;
          const w = window as unknown as { __releaseUploadCache: boolean };
          w.__releaseUploadCache = false;
          const tx = db.transaction(store, 'readwrite');
          const spin = () => {
            if (!w.__releaseUploadCache) tx.objectStore(store).get('nothing').onsuccess = spin;
          };
          spin();
          tx.oncomplete = () => db.close();
          started();
        };
      }),
    { db: UPLOADS_DB, store: UPLOADS_STORE },
  );
}

/** Ends the busy spell, then waits until everything the page had queued on the cache meanwhile has run. */
async function releaseUploadCache(page: Page): Promise<void> {
  await page.evaluate(
    ({ db: name, store }) => {
      (window as unknown as { __releaseUploadCache: boolean }).__releaseUploadCache = true;
      return new Promise<void>((drained, failed) => {
        const open = indexedDB.open(name);
        open.onerror = () => failed(open.error ?? new Error('indexedDB.open failed'));
        open.onsuccess = () => {
          // A read queued after the page's reads and deletes completes only once they have.
          const tx = open.result.transaction(store, 'readonly');
          tx.objectStore(store).count();
          tx.oncomplete = () => {
            open.result.close();
            // Two frames, so what the page did with their answers is on screen.
            requestAnimationFrame(() => requestAnimationFrame(() => drained()));
          };
        };
      });
    },
    { db: UPLOADS_DB, store: UPLOADS_STORE },
  );
}

test.describe('a 20 MB message on the Premium plan', () => {
  test.use({ viewport: { width: 360, height: 740 } });
  let video: string;
  // Made once (ffmpeg, several seconds on a loaded machine) before the tests' own time starts.
  test.beforeAll(() => {
    video = largeVideo();
  });

  test('going on to checkout while it uploads: the upload is told once, truthfully, and never goes back', async ({
    page,
    context,
    draftGift,
  }) => {
    const gift = await draftGift({ planId: 'premium_us' });
    await context.addCookies(gift.senderCookies);
    await watchUploadUi(page);
    await countUploadCacheCalls(page);
    const confirm = await holdConfirm(page);

    await page.goto(paths.message.href(gift.giftId));
    await transfer(() => page.getByLabel('Upload video file').setInputFiles(video));
    await expect(page.locator('video').first()).toBeVisible();
    await page.getByRole('button', { name: 'Continue to Checkout' }).click();

    // The file is on the server and being confirmed: the sender goes on.
    await uploadSent(page);
    await confirm.held;
    await page.getByRole('button', { name: 'Continue to checkout now' }).click();
    await expect(page).toHaveURL(paths.checkout.href(gift.giftId));

    // The cache is busy (a 20 MB record on a phone): the checkout's poll for uploads left behind by a reload is
    // in line when the upload ends.
    await occupyUploadCache(page);
    const before = await cacheCalls(page);
    await expect.poll(async () => (await cacheCalls(page)).lists, { message: 'the poll has asked' }).toBeGreaterThan(before.lists);
    const confirmed = page.waitForResponse((res) => new URL(res.url()).pathname === API.confirmUpload);
    confirm.release();
    expect((await confirmed).ok()).toBe(true);
    // The upload has ended and asked for its cached copy to go.
    await expect.poll(async () => (await cacheCalls(page)).deletes, { message: 'the cached copy is asked to go' }).toBeGreaterThan(before.deletes);
    await releaseUploadCache(page);

    await expect(page.getByText(UPLOADED)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('button', { name: /^Pay/ })).toBeEnabled({ timeout: 30_000 });
    // The server stored the whole file (it is being converted now: that is not a failure either).
    const stored = await waitForGift(page.request, gift.giftId, 'the message to be stored', (g) => g.messageType === 'video');
    expect(stored.messageState).not.toBe('failed');
    expect(statSync(video).size).toBeGreaterThan(19 * 1024 * 1024);

    const seen = await seenOn(page);
    expect(seen.toasts.filter((t) => /fail|resum/i.test(t)), 'no failure, no resume').toEqual([]);
    expect(seen.toasts.filter((t) => t === UPLOADED)).toHaveLength(1);
    expect(
      seen.together.filter((texts) => texts.includes(UPLOADED) && texts.includes(BACKGROUND)),
      '"uploaded" never beside "keeps uploading"',
    ).toEqual([]);
    expect(seen.progress, 'the progress never goes back').toEqual([...seen.progress].sort((a, b) => a - b));
    expect(seen.progress.at(-1)).toBe(100);
  });

  test('the overlay’s bar is always as full as its number says', async ({ page, context, draftGift }) => {
    const gift = await draftGift({ planId: 'premium_us' });
    await context.addCookies(gift.senderCookies);
    await watchUploadUi(page);
    const confirm = await holdConfirm(page);

    await page.goto(paths.message.href(gift.giftId));
    await transfer(() => page.getByLabel('Upload video file').setInputFiles(video));
    await expect(page.locator('video').first()).toBeVisible();
    await page.getByRole('button', { name: 'Continue to Checkout' }).click();
    await uploadSent(page);
    await confirm.held;

    const overlay = page.getByRole('dialog', { name: 'Processing your video' });
    await expect(overlay).toBeVisible();
    await expect(overlay.getByText('100%')).toBeVisible();
    const bar = overlay.getByRole('progressbar', { name: 'Upload progress' });
    await expect(bar).toHaveAttribute('aria-valuenow', '100');
    const seen = await seenOn(page);
    expect(seen.frames, 'frames were sampled while the overlay showed').toBeGreaterThan(0);
    expect(seen.mismatches, 'frames where the bar and the number disagreed').toEqual([]);

    confirm.release();
    await expect(page).toHaveURL(paths.checkout.href(gift.giftId), { timeout: 30_000 });
  });
});
