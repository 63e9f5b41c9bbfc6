import { COPIED_RESET_MS } from '@giftlens/contract/constants';
import { shareText } from '@giftlens/contract/scheduling';
import { Check, Copy, MessageCircle, Share2 } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { toast } from '../../../lib/toast.ts';
import { Button } from '../../../components/ui/button.tsx';
import { whatsAppShareUrl } from '../lib/share-links.ts';
import { SendNowForm } from './send-now-form.tsx';

interface ShareNowProps {
  giftId: string;
  link: string;
  recipientEmail: string;
  senderFirstName: string | null;
}

/** 'Share Link Now': the link to copy, WhatsApp and the system share sheet, and an e-mail sent at once. */
export function ShareNow({ giftId, link, recipientEmail, senderFirstName }: ShareNowProps) {
  const [copied, setCopied] = useState(false);
  const inputId = useId();
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      toast.success('Link copied to clipboard!');
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => setCopied(false), COPIED_RESET_MS);
    } catch {
      toast.error('Failed to copy link.');
    }
  };

  const canShare = typeof navigator.share === 'function';
  const share = async () => {
    try {
      // The text carries the link, so it is not passed again as `url` (some apps would paste it twice).
      await navigator.share({ title: 'A gift message for you', text: shareText(senderFirstName, link) });
    } catch (err) {
      // Closing the share sheet rejects with AbortError; that is not a failure.
      if (!(err instanceof DOMException && err.name === 'AbortError')) toast.error('Failed to share link.');
    }
  };

  return (
    <section aria-labelledby="share-now-heading" className="mt-5 flex flex-col gap-3">
      <h2 id="share-now-heading" className="font-semibold text-stone-900">
        Share Link Now
      </h2>
      <label htmlFor={inputId} className="sr-only">
        Gift link
      </label>
      <div className="flex gap-2">
        <input
          id={inputId}
          readOnly
          value={link}
          onFocus={(e) => e.target.select()}
          className="min-h-11 min-w-0 flex-1 rounded-xl border border-stone-300 bg-stone-50 px-3 text-sm text-stone-800"
        />
        <button
          type="button"
          onClick={() => void copy()}
          aria-label={copied ? 'Copied' : 'Copy to clipboard'}
          className={`flex size-11 shrink-0 items-center justify-center rounded-xl border ${copied ? 'border-emerald-300 bg-emerald-50 text-emerald-700' : 'border-stone-300 bg-white text-stone-700 hover:bg-stone-50'}`}
        >
          {copied ? <Check className="size-5" aria-hidden /> : <Copy className="size-5" aria-hidden />}
        </button>
      </div>
      <Button block onClick={() => void copy()}>
        <Copy className="size-4" aria-hidden /> Copy Link
      </Button>
      <div className={`grid gap-2 ${canShare ? 'grid-cols-2' : ''}`}>
        <a
          href={whatsAppShareUrl(senderFirstName, link)}
          target="_blank"
          rel="noopener"
          className="inline-flex min-h-11 items-center justify-center gap-2 rounded-xl border border-stone-300 bg-white px-4 py-2.5 text-base font-semibold text-stone-800 transition-colors hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 active:bg-stone-100"
        >
          <MessageCircle className="size-4 text-emerald-600" aria-hidden /> WhatsApp
        </a>
        {canShare ? (
          <Button block variant="secondary" onClick={() => void share()}>
            <Share2 className="size-4" aria-hidden /> Share…
          </Button>
        ) : null}
      </div>
      <div className="mt-1 rounded-2xl border border-stone-200 p-3.5">
        <SendNowForm giftId={giftId} recipientEmail={recipientEmail} />
      </div>
    </section>
  );
}
