import type { Workbox } from 'workbox-window';

/**
 * Installable-app state (the install offer, a waiting update), kept outside React so the browser events that
 * arrive before the first render are not lost. Components read it through `usePwaState`.
 */

/** Chromium's install event; not in the DOM typings yet. */
export interface BeforeInstallPromptEvent extends Event {
  prompt: () => Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform?: string }>;
}

export type InstallState = 'not-installed' | 'installed' | 'standalone';

export interface PwaState {
  installState: InstallState;
  /** Set while the browser lets us offer installation and the visitor has not said Later this session. */
  installPrompt: BeforeInstallPromptEvent | null;
  updateAvailable: boolean;
}

export const INSTALL_DISMISSED_KEY = 'installPromptDismissed';

let state: PwaState = { installState: 'not-installed', installPrompt: null, updateAvailable: false };
const listeners = new Set<() => void>();

function set(patch: Partial<PwaState>): void {
  state = { ...state, ...patch };
  for (const l of listeners) l();
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getState(): PwaState {
  return state;
}

function dismissedThisSession(): boolean {
  try {
    return sessionStorage.getItem(INSTALL_DISMISSED_KEY) === 'true';
  } catch {
    return false;
  }
}

/** "Later": hide the prompt and do not offer it again until the tab is closed. */
export function dismissInstall(): void {
  try {
    sessionStorage.setItem(INSTALL_DISMISSED_KEY, 'true');
  } catch {
    // Storage disabled: the prompt still hides for this page view.
  }
  set({ installPrompt: null });
}

/** Hides the prompt for this page view only (the 10-second auto-hide). */
export function hideInstall(): void {
  set({ installPrompt: null });
}

export async function acceptInstall(): Promise<void> {
  const prompt = state.installPrompt;
  set({ installPrompt: null });
  if (!prompt) return;
  await prompt.prompt();
  const choice = await prompt.userChoice;
  if (choice.outcome === 'accepted') set({ installState: 'installed' });
}

let wb: Workbox | undefined;
let reloading = false;

/** Lets requests set off by the same click (lazy chunks on a first interaction) finish first. */
const SETTLE_MS = 600;
const RETRY_MS = 1500;
const MAX_TRIES = 8;

/**
 * Sends skip-waiting to the waiting worker and reloads once, when the new worker takes control.
 * Chromium abandons an activation when the old worker has to be restarted to serve a request at that very
 * moment, so the message goes out once the click's own requests have settled, and is repeated until the new
 * worker is in control.
 */
export function applyUpdate(): void {
  const workbox = wb;
  if (!workbox) return;
  let tries = 0;
  let timer: ReturnType<typeof setTimeout>;
  const send = () => {
    workbox.messageSkipWaiting();
    if (++tries < MAX_TRIES) timer = setTimeout(send, RETRY_MS);
  };
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    clearTimeout(timer);
    if (reloading) return;
    reloading = true;
    window.location.reload();
  });
  timer = setTimeout(send, SETTLE_MS);
  set({ updateAvailable: false });
}

async function registerServiceWorker(): Promise<void> {
  const { Workbox } = await import('workbox-window');
  wb = new Workbox('/sw.js', { scope: '/' });
  // Fires for a worker found waiting at start-up too, so an update downloaded in another tab is offered here.
  wb.addEventListener('waiting', () => set({ updateAvailable: true }));
  await wb.register();
}

let started = false;

/** Wires the browser events; called once when the app shell mounts. */
export function startPwa(): void {
  if (started) return;
  started = true;

  const standalone = window.matchMedia?.('(display-mode: standalone)').matches ?? false;
  if (standalone) set({ installState: 'standalone' });

  window.addEventListener('beforeinstallprompt', (event) => {
    // Keep the browser's own mini-infobar quiet; we show our prompt instead.
    event.preventDefault();
    if (standalone || dismissedThisSession()) return;
    set({ installPrompt: event as BeforeInstallPromptEvent });
  });
  window.addEventListener('appinstalled', () => set({ installState: 'installed', installPrompt: null }));

  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const register = () => {
    registerServiceWorker().catch((err: unknown) => {
      // Nothing is shown to the visitor: the site works without a worker, only offline support is lost.
      console.warn('Service worker registration failed', err);
    });
  };
  // After load, so the worker's precache downloads never compete with the first paint.
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
