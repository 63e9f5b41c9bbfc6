import { REVEAL_KEEPALIVE_MS } from '@giftlens/contract/constants';
import type { GiftMessageResponse } from '@giftlens/contract/recipient';
import { useCallback, useEffect, useRef, useState } from 'react';
import { touchSignedMessageUrl } from '../../../lib/recipient-storage.ts';
import { getGiftMessage } from '../api/get-gift-message.ts';

const playingIn = (box: HTMLElement) =>
  [...box.querySelectorAll<HTMLMediaElement>('video, audio')].some((m) => !m.paused && !m.ended);

/**
 * Keeps a revealed message playing to its end (issue 37). Its media links and the reveal behind them last 5 minutes:
 * while a message in `box` plays, the page asks for the message again every REVEAL_KEEPALIVE_MS, which renews the
 * reveal on the server (up to an hour after the scan); and a player whose link ran out asks for a fresh one (the
 * answer's link of the same message) and goes on from where it was. Returns that ask: the message as the server
 * answers it now, or its refusal (403 once the reveal has truly run out). The shown message is not replaced: a
 * player keeps its position, a group's list its place.
 */
export function useMessageRefresh(giftId: string, box: HTMLElement | null): () => Promise<GiftMessageResponse> {
  const inFlight = useRef<Promise<GiftMessageResponse> | null>(null);
  const ask = useCallback(() => {
    inFlight.current ??= getGiftMessage(giftId)
      .then((res) => {
        // Renewed: a reload of this page within the reveal opens it again.
        touchSignedMessageUrl(giftId);
        return res;
      })
      .finally(() => {
        inFlight.current = null;
      });
    return inFlight.current;
  }, [giftId]);

  // Media events do not bubble: listened to on the way down (capture).
  const [playing, setPlaying] = useState(false);
  useEffect(() => {
    if (!box) return;
    const update = () => setPlaying(playingIn(box));
    const events = ['playing', 'pause', 'ended', 'emptied'] as const;
    for (const type of events) box.addEventListener(type, update, true);
    return () => {
      for (const type of events) box.removeEventListener(type, update, true);
    };
  }, [box]);

  useEffect(() => {
    if (!playing) return;
    const timer = window.setInterval(() => void ask().catch(() => undefined), REVEAL_KEEPALIVE_MS);
    return () => window.clearInterval(timer);
  }, [playing, ask]);

  return ask;
}
