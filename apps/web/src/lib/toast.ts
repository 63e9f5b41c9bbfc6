import type { ExternalToast } from 'sonner';

type Sonner = typeof import('sonner');
type Kind = 'success' | 'info' | 'warning' | 'error';
type Message = Parameters<Sonner['toast']['success']>[0];

let loading: Promise<Sonner> | undefined;
const wanted = new Set<() => void>();

/**
 * sonner (~9 KB gzipped), loaded when the first toast is raised instead of with every screen that might raise one
 * (decision 046). Toasts keep their order: each waits for the same load, in the order raised.
 */
function load(): Promise<Sonner> {
  if (!loading) {
    loading = import('sonner');
    for (const listener of wanted) listener();
  }
  return loading;
}

const raise = (kind: Kind) => (message: Message, data?: ExternalToast) => {
  load()
    .then((m) => m.toast[kind](message, data))
    .catch((err: unknown) => console.warn('The toast could not be shown', err));
};

/** The app's toasts: sonner's `toast.success` … `toast.error`, raised once sonner has loaded. */
export const toast = {
  success: raise('success'),
  info: raise('info'),
  warning: raise('warning'),
  error: raise('error'),
  /** Takes a toast raised with this id away (none raised yet: nothing to do, sonner is not loaded for it). */
  dismiss(id: string | number): void {
    if (!loading) return;
    loading.then((m) => void m.toast.dismiss(id)).catch(() => undefined);
  },
};

/** Calls `listener` once a toast is first raised (at once when one has been): the outlet mounts then. */
export function onToastWanted(listener: () => void): () => void {
  if (loading) {
    listener();
    return () => {};
  }
  wanted.add(listener);
  return () => wanted.delete(listener);
}
