import { useSyncExternalStore } from 'react';
import { getState, subscribe, type PwaState } from '../pwa-store.ts';

export function usePwaState(): PwaState {
  return useSyncExternalStore(subscribe, getState, getState);
}
