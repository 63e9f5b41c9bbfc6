import type { GiftMessageResponse } from '@giftlens/contract/recipient';
import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import { Toaster } from 'sonner';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { jsonResponse } from '../../../test/render-route.tsx';
import { ReactionGate } from './reaction-gate.tsx';

const GIFT = '0123456789abcdef0123456789abcdef';
const MESSAGE: GiftMessageResponse = {
  success: true,
  giftId: GIFT,
  messageType: 'video',
  messageUrl: '/media/message.mp4?sig=x',
  posterUrl: null,
  text: null,
  senderName: 'Asha',
  reactionsEnabled: true,
  hasReaction: false,
  planDetails: { planName: 'Lifetime' },
  recipientId: null,
  recipientName: 'Ravi',
  recipientEmail: null,
};

/**
 * A MediaRecorder that behaves as one in a WebKit browser did: it starts, and when stopped hands over 0 bytes.
 * Everything else (the camera, the gate, the page's calls) is the real thing.
 */
class RecordsNothing extends EventTarget {
  static isTypeSupported = (type: string) => type === 'video/mp4';
  state: RecordingState = 'inactive';
  readonly mimeType = 'video/mp4';
  constructor(readonly stream: MediaStream) {
    super();
  }
  start() {
    this.state = 'recording';
  }
  stop() {
    this.state = 'inactive';
    this.dispatchEvent(new BlobEvent('dataavailable', { data: new Blob([], { type: this.mimeType }) }));
    this.dispatchEvent(new Event('stop'));
  }
}

/** The server's answers to the reaction calls; every call's URL, in order. */
function fakeReactionServer() {
  const calls: string[] = [];
  vi.spyOn(window, 'fetch').mockImplementation((input) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    calls.push(url);
    if (url === API.playConsent)
      return Promise.resolve(jsonResponse({ success: true, allowRecording: true, message: texts.recipient.reactionConsentAsked, data: { id: 'reaction-1' } }));
    if (url === API.consent || url === API.startSyncedRecording) return Promise.resolve(jsonResponse({ success: true }));
    // What the server answers an empty file: not a WebM or MP4.
    if (url === API.reactionUpload)
      return Promise.resolve(jsonResponse({ success: false, error: texts.recipient.reactionFileInvalid, code: 'unsupported_media_type' }, 415));
    return Promise.resolve(jsonResponse({ success: false, error: 'unexpected call', code: 'not_found' }, 404));
  });
  return calls;
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the reaction gate (Chromium, fake camera)', () => {
  test('a recording of 0 bytes is not uploaded: the recipient is told what happened and the message plays on', async () => {
    vi.stubGlobal('MediaRecorder', RecordsNothing);
    const calls = fakeReactionServer();
    const media = document.createElement('video');
    const pause = vi.spyOn(media, 'pause');
    let tracks: MediaStreamTrack[] = [];
    const getUserMedia = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    vi.spyOn(navigator.mediaDevices, 'getUserMedia').mockImplementation(async (constraints) => {
      const stream = await getUserMedia(constraints);
      tracks = stream.getTracks();
      return stream;
    });
    // The page's play: the message starts, and ends a moment later.
    const play = vi.fn(() => {
      media.dispatchEvent(new Event('playing'));
      window.setTimeout(() => media.dispatchEvent(new Event('ended')), 50);
      return Promise.resolve(true);
    });

    await render(
      <>
        <Toaster />
        <ReactionGate
          giftId={GIFT}
          message={MESSAGE}
          mediaType="video"
          getMedia={() => media}
          play={play}
          renderPlayButton={(onPress, busy) => (
            <button type="button" onClick={onPress} disabled={busy}>
              Play
            </button>
          )}
        />
      </>,
    );
    await page.getByRole('button', { name: 'Play' }).click();
    await page.getByRole('button', { name: 'Play & Record Video' }).click();

    // Recording stops a second after the message ends; then the page says why nothing was sent.
    await expect.element(page.getByText(texts.recipient.reactionRecordedNothing), { timeout: 5000 }).toBeVisible();
    expect(calls).toEqual([API.playConsent, API.consent, API.startSyncedRecording]);
    await expect.element(page.getByText(texts.recipient.reactionFileInvalid, { exact: false })).not.toBeInTheDocument();
    // The message was played once and nothing stopped it; the camera and microphone are released.
    expect(play).toHaveBeenCalledTimes(1);
    expect(pause).not.toHaveBeenCalled();
    expect(tracks.length).toBeGreaterThan(0);
    expect(tracks.every((t) => t.readyState === 'ended')).toBe(true);
  });
});
