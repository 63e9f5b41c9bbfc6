// @ts-check
/**
 * Push notices for the sender ("Tell me when it's opened"). The service worker that vite-plugin-pwa generates
 * loads this file with importScripts; it is plain JavaScript because it runs as it is, outside the app bundle.
 * Checked by tsc through tsconfig.sw.json.
 */

/** @typedef {{ title: string, body: string, url: string, tag: string }} PushNotice */

const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

/** Every push must show a notification (userVisibleOnly); one that cannot be read still opens the site. */
const FALLBACK_NOTICE = /** @type {PushNotice} */ ({
  title: 'GiftLens',
  body: 'There is news about your gift.',
  url: '/',
  tag: 'giftlens',
});

/**
 * @param {PushMessageData | null} data
 * @returns {PushNotice}
 */
function readNotice(data) {
  try {
    const notice = /** @type {Partial<Record<keyof PushNotice, unknown>> | null} */ (data?.json());
    if (
      notice &&
      typeof notice.title === 'string' &&
      typeof notice.body === 'string' &&
      typeof notice.url === 'string' &&
      notice.url.startsWith('/') &&
      typeof notice.tag === 'string'
    ) {
      return { title: notice.title, body: notice.body, url: notice.url, tag: notice.tag };
    }
  } catch {
    // Not JSON: fall through to the generic notice.
  }
  return FALLBACK_NOTICE;
}

/**
 * A same-origin address for the notice's path (anything else opens the home page).
 * @param {unknown} path
 * @returns {string}
 */
function sameOriginUrl(path) {
  const url = new URL(typeof path === 'string' ? path : '/', sw.location.origin);
  return url.origin === sw.location.origin ? url.href : new URL('/', sw.location.origin).href;
}

sw.addEventListener('push', (event) => {
  const notice = readNotice(event.data);
  event.waitUntil(
    sw.registration.showNotification(notice.title, {
      body: notice.body,
      tag: notice.tag,
      icon: '/icons/icon-192.png',
      data: { url: notice.url },
    }),
  );
});

sw.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = /** @type {{ url?: unknown } | null} */ (event.notification.data);
  const url = sameOriginUrl(data?.url);
  event.waitUntil(
    (async () => {
      const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => client.url === url);
      if (open) await open.focus();
      else await sw.clients.openWindow(url);
    })(),
  );
});
