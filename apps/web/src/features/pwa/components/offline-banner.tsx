import { WifiOff } from 'lucide-react';
import { useOnline } from '../hooks/use-online.ts';

/** Shown while the browser is offline; removed as soon as the connection returns. */
export function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <div role="status" className="bg-stone-800 px-4 py-2.5 text-center text-sm font-medium text-white">
      <WifiOff aria-hidden className="mr-2 inline size-4 align-[-2px]" />
      You're offline - Some features may be limited
    </div>
  );
}
