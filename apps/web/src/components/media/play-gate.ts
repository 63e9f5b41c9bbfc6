import type { GiftMessageResponse } from '@giftlens/contract/recipient';
import type { ReactNode } from 'react';

/**
 * What stands between the Play button and playback. The page renders the player; a gate decides what Play
 * does (the reactions feature asks for consent and records; the default just plays). The app composes them.
 */
export interface PlayGateProps {
  giftId: string;
  message: GiftMessageResponse;
  mediaType: 'audio' | 'video';
  /** The audio or video element, once mounted. */
  getMedia: () => HTMLMediaElement | null;
  /** Starts playback; false when it could not start (the page then shows its error). */
  play: () => Promise<boolean>;
  /** The page's play overlay, wired to the gate's handler; null once playback has started. */
  renderPlayButton: (onPress: () => void, busy: boolean) => ReactNode;
}
