import { Bell, BellOff, BellRing, Loader2 } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { usePushOptIn } from '../hooks/use-push-opt-in.ts';

/** "Tell me when it's opened": a push notification on this device when the gift is opened or a reaction arrives. */
export function PushOptIn({ recipientName }: { recipientName: string | null }) {
  const { status, busy, turnOn, turnOff } = usePushOptIn();

  let body;
  switch (status) {
    case 'unsupported':
      body = (
        <p className="flex items-center gap-2 text-sm text-stone-600">
          <BellOff className="size-4 shrink-0" aria-hidden /> This browser can&apos;t show notifications.
        </p>
      );
      break;
    case 'denied':
      body = (
        <p className="flex items-center gap-2 text-sm text-stone-600">
          <BellOff className="size-4 shrink-0" aria-hidden /> Notifications are blocked for this site in your
          browser settings.
        </p>
      );
      break;
    case 'on':
      body = (
        <div className="flex flex-wrap items-center justify-between gap-x-3">
          <p className="flex items-center gap-2 text-sm font-medium text-emerald-800">
            <BellRing className="size-4 shrink-0" aria-hidden /> We&apos;ll tell you when it&apos;s opened.
          </p>
          <button
            type="button"
            onClick={() => void turnOff()}
            disabled={busy}
            className="min-h-11 rounded-lg px-2 text-sm font-semibold text-stone-700 underline underline-offset-2 hover:text-stone-900 focus-visible:outline-2 focus-visible:outline-brand-500 disabled:text-stone-400"
          >
            Turn off
          </button>
        </div>
      );
      break;
    case 'off':
      body = (
        <div className="flex flex-col gap-2">
          <p className="text-sm text-stone-600">
            Get a notification on this device when {recipientName ?? 'your recipient'} opens the gift, and
            when a reaction arrives.
          </p>
          <Button variant="secondary" block disabled={busy} aria-busy={busy} onClick={() => void turnOn()}>
            {busy ? (
              <Loader2 className="size-4 animate-spin" aria-hidden />
            ) : (
              <Bell className="size-4" aria-hidden />
            )}
            Tell me when it&apos;s opened
          </Button>
        </div>
      );
      break;
  }

  return (
    <section aria-label="Get notified" className="mt-5 border-t border-stone-200 pt-4">
      {body}
    </section>
  );
}
