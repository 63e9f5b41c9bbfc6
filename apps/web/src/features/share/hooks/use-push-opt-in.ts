import { useEffect, useState } from 'react';
import { toast } from '../../../lib/toast.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { getPushPublicKey, subscribePush, unsubscribePush } from '../api/push.ts';
import { base64UrlToBytes, webPushSupported } from '../lib/web-push.ts';

/**
 * unsupported: no service worker or Push API here; denied: the sender blocked notifications for the site;
 * off / on: whether this device is subscribed for the sender's notices.
 */
type PushStatus = 'unsupported' | 'denied' | 'off' | 'on';

/** The worker is registered after the page loads; a browser that never gets one (development) gives up here. */
const WORKER_WAIT_MS = 10_000;

function activeWorker(): Promise<ServiceWorkerRegistration> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('No active service worker')), WORKER_WAIT_MS);
  });
  return Promise.race([navigator.serviceWorker.ready, timeout]).finally(() => clearTimeout(timer));
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

function initialStatus(): PushStatus {
  if (!webPushSupported()) return 'unsupported';
  return Notification.permission === 'denied' ? 'denied' : 'off';
}

const failed = (err: unknown, fallback: string) =>
  toast.error(err instanceof ApiError ? err.message : fallback);

/**
 * Opting in to "Tell me when it's opened". Permission is asked only from the sender's click, never on start-up.
 * A device subscribed before is linked to this sender again when the page opens.
 */
export function usePushOptIn() {
  const [status, setStatus] = useState<PushStatus>(initialStatus);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!webPushSupported() || Notification.permission !== 'granted') return;
    let live = true;
    currentSubscription()
      .then(async (subscription) => {
        if (!subscription) return;
        await subscribePush(subscription.toJSON());
        if (live) setStatus('on');
      })
      .catch(() => {
        // Nothing to tell: the sender can still switch notifications on with the button.
      });
    return () => {
      live = false;
    };
  }, []);

  const turnOn = async () => {
    setBusy(true);
    try {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        setStatus(permission === 'denied' ? 'denied' : 'off');
        return;
      }
      const [publicKey, registration] = await Promise.all([getPushPublicKey(), activeWorker()]);
      // A subscription made for another server key cannot be reused; start from a fresh one.
      await (await registration.pushManager.getSubscription())?.unsubscribe();
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: base64UrlToBytes(publicKey),
      });
      await subscribePush(subscription.toJSON());
      setStatus('on');
    } catch (err) {
      failed(err, 'Notifications could not be turned on. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  const turnOff = async () => {
    setBusy(true);
    try {
      const subscription = await currentSubscription();
      if (subscription) {
        await subscription.unsubscribe();
        // The device no longer receives anything; should this call fail, the push service tells the server the
        // endpoint is gone on its next notice.
        unsubscribePush(subscription.endpoint).catch(() => undefined);
      }
      setStatus('off');
    } catch (err) {
      failed(err, 'Notifications could not be turned off. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  return { status, busy, turnOn, turnOff };
}
