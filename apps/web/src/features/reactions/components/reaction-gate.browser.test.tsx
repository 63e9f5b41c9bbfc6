import type { GiftMessageResponse } from '@giftlens/contract/recipient';
import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import { Toaster } from 'sonner';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { jsonResponse } from '../../../test/render-route.tsx';
import { MIN_RECORDING_MS, NOTHING_YET_MAX_MS } from '../lib/reaction-recording.ts';
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
  contributions: [],
  combinedDownloadUrl: null,
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
  requestData() {
    this.dispatchEvent(new BlobEvent('dataavailable', { data: new Blob([], { type: this.mimeType }) }));
  }
  stop() {
    this.state = 'inactive';
    this.dispatchEvent(new BlobEvent('dataavailable', { data: new Blob([], { type: this.mimeType }) }));
    this.dispatchEvent(new Event('stop'));
  }
}

/**
 * A MediaRecorder whose encoder is starved (a busy device): it hands over nothing until `FIRST_DATA_MS` after it
 * started, past MIN_RECORDING_MS, and what it has from then on, when asked or stopped.
 */
const FIRST_DATA_MS = MIN_RECORDING_MS + 1500;
class SlowToStart extends EventTarget {
  static isTypeSupported = (type: string) => type === 'video/webm';
  static started: number[] = [];
  static stopped: number[] = [];
  /** What the recorder was asked for, in order: 'data' or 'empty' per hand-over, 'stop' when stopped. */
  static log: string[] = [];
  state: RecordingState = 'inactive';
  readonly mimeType = 'video/webm';
  private startedAt = 0;
  constructor(readonly stream: MediaStream) {
    super();
  }
  start() {
    this.state = 'recording';
    this.startedAt = Date.now();
    SlowToStart.started.push(this.startedAt);
  }
  private handOver() {
    const ready = Date.now() - this.startedAt >= FIRST_DATA_MS;
    SlowToStart.log.push(ready ? 'data' : 'empty');
    this.dispatchEvent(new BlobEvent('dataavailable', { data: new Blob(ready ? ['webm bytes'] : [], { type: this.mimeType }) }));
  }
  requestData() {
    this.handOver();
  }
  stop() {
    this.state = 'inactive';
    SlowToStart.stopped.push(Date.now());
    SlowToStart.log.push('stop');
    this.handOver();
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

    await renderGate(MESSAGE, media, play);
    await page.getByRole('button', { name: 'Play' }).click();
    await page.getByRole('button', { name: 'Play & Record Video' }).click();

    // Recording stops a second after the message ends (and runs MIN_RECORDING_MS at least, and NOTHING_YET_MAX_MS more
    // while the recorder has handed over nothing); then the page says why nothing was sent.
    await expect
      .element(page.getByText(texts.recipient.reactionRecordedNothing), { timeout: MIN_RECORDING_MS + NOTHING_YET_MAX_MS + 4000 })
      .toBeVisible();
    expect(calls).toEqual([API.playConsent, API.consent, API.startSyncedRecording]);
    await expect.element(page.getByText(texts.recipient.reactionFileInvalid, { exact: false })).not.toBeInTheDocument();
    // The message was played once and nothing stopped it; the camera and microphone are released.
    expect(play).toHaveBeenCalledTimes(1);
    expect(pause).not.toHaveBeenCalled();
    expect(tracks.length).toBeGreaterThan(0);
    expect(tracks.every((t) => t.readyState === 'ended')).toBe(true);
  });
});

/**
 * Whether the page is inside a click's dispatch right now: set by a capture listener on window (the first to run),
 * cleared by a bubbling one on window (the last; React's handlers run on the root in between). A call seen with
 * it set was made synchronously in the tap, where a phone still lets the page start playback.
 */
function watchClicks() {
  let inClick = false;
  const on = () => void (inClick = true);
  const off = () => void (inClick = false);
  window.addEventListener('click', on, true);
  window.addEventListener('click', off);
  return {
    inClick: () => inClick,
    stop: () => {
      window.removeEventListener('click', on, true);
      window.removeEventListener('click', off);
    },
  };
}

/** A server whose play-consent answer is held until the test releases it (a slow phone network). */
function slowConsentServer() {
  const calls: string[] = [];
  const bodies: unknown[] = [];
  let release: (r: Response) => void = () => undefined;
  const held = new Promise<Response>((resolve) => (release = resolve));
  vi.spyOn(window, 'fetch').mockImplementation((input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    calls.push(url);
    bodies.push(typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body);
    if (url === API.playConsent) return held;
    if (url === API.consent || url === API.startSyncedRecording) return Promise.resolve(jsonResponse({ success: true }));
    if (url === API.reactionUpload) return Promise.resolve(jsonResponse({ success: true, message: texts.recipient.reactionSavedServer }));
    return Promise.resolve(jsonResponse({ success: false, error: 'unexpected call', code: 'not_found' }, 404));
  });
  const answer = (body: object) => release(jsonResponse({ success: true, ...body }));
  return { calls, bodies, answer };
}

/** The gate around a media element that has not loaded anything yet (its metadata would never come). */
async function renderGate(message: GiftMessageResponse, media: HTMLMediaElement, play: () => Promise<boolean>) {
  await render(
    <>
      <Toaster />
      <ReactionGate
        giftId={GIFT}
        message={message}
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
}

describe('playback starts inside the tap (a phone loses the tap across a slow network)', () => {
  test('Play on a gift that has its reaction plays at once: no wait for the media or the server', async () => {
    const clicks = watchClicks();
    const server = slowConsentServer();
    const playedInClick: boolean[] = [];
    const play = vi.fn(() => (playedInClick.push(clicks.inClick()), Promise.resolve(true)));
    await renderGate({ ...MESSAGE, hasReaction: true }, document.createElement('video'), play);

    await page.getByRole('button', { name: 'Play' }).click();
    expect(playedInClick).toEqual([true]);
    await expect.element(page.getByText(texts.recipient.alreadyReacted)).toBeVisible();
    // The bookkeeping follows beside the playback (after at most 1.5 s for the media's duration).
    await expect.poll(() => server.calls, { timeout: 5000 }).toEqual([API.playConsent]);
    server.answer({ allowRecording: false, message: texts.recipient.alreadyReacted, data: null });
    clicks.stop();
  });

  test('on a gift without one, Play asks at once and "Just Play" plays in its tap; the refusal is sent when the server answers', async () => {
    const clicks = watchClicks();
    const server = slowConsentServer();
    const playedInClick: boolean[] = [];
    const play = vi.fn(() => (playedInClick.push(clicks.inClick()), Promise.resolve(true)));
    await renderGate(MESSAGE, document.createElement('video'), play);

    await page.getByRole('button', { name: 'Play' }).click();
    // The question is shown while play-consent is still on its way.
    await expect.element(page.getByRole('button', { name: 'Just Play' })).toBeVisible();
    expect(server.calls).toEqual([]);
    await page.getByRole('button', { name: 'Just Play' }).click();
    expect(playedInClick).toEqual([true]);

    server.answer({ allowRecording: true, message: texts.recipient.reactionConsentAsked, data: { id: 'reaction-1' } });
    await expect.poll(() => server.calls, { timeout: 5000 }).toEqual([API.playConsent, API.consent]);
    expect(server.bodies[1]).toMatchObject({ reactionId: 'reaction-1', consentGranted: false });
    clicks.stop();
  });

  test('"Play & Record Video" plays in its tap; the consent, the camera and the recorder follow beside it, and the reaction is saved', async () => {
    const clicks = watchClicks();
    const server = slowConsentServer();
    const media = document.createElement('video');
    const playedInClick: boolean[] = [];
    // The page's play: the message starts, and ends 1.5 s later.
    const play = vi.fn(() => {
      playedInClick.push(clicks.inClick());
      media.dispatchEvent(new Event('playing'));
      window.setTimeout(() => media.dispatchEvent(new Event('ended')), 1500);
      return Promise.resolve(true);
    });
    await renderGate(MESSAGE, media, play);

    await page.getByRole('button', { name: 'Play' }).click();
    await page.getByRole('button', { name: 'Play & Record Video' }).click();
    expect(playedInClick).toEqual([true]);

    server.answer({ allowRecording: true, message: texts.recipient.reactionConsentAsked, data: { id: 'reaction-1' } });
    await expect.element(page.getByText(texts.recipient.reactionSaved), { timeout: 8000 }).toBeVisible();
    expect(server.calls).toEqual([API.playConsent, API.consent, API.startSyncedRecording, API.reactionUpload]);
    expect(server.bodies[1]).toMatchObject({ reactionId: 'reaction-1', consentGranted: true });
    const upload = server.bodies[3] as FormData;
    // The message started before the recorder (the camera opened beside the playback): a negative offset.
    expect(Number(upload.get('syncOffsetMs'))).toBeLessThan(0);
    expect(upload.get('reaction')).toBeInstanceOf(Blob);
    expect(play).toHaveBeenCalledTimes(1);
    clicks.stop();
  });

  test('a camera that opens after a short message has ended still records a few seconds, and the reaction is saved', async () => {
    const server = slowConsentServer();
    const media = document.createElement('video');
    // The message plays and ends at once: before the consent is answered and the camera opens.
    const play = vi.fn(() => {
      media.dispatchEvent(new Event('playing'));
      media.dispatchEvent(new Event('ended'));
      return Promise.resolve(true);
    });
    await renderGate(MESSAGE, media, play);
    await page.getByRole('button', { name: 'Play' }).click();
    await page.getByRole('button', { name: 'Play & Record Video' }).click();
    server.answer({ allowRecording: true, message: texts.recipient.reactionConsentAsked, data: { id: 'reaction-1' } });
    await expect.poll(() => server.calls, { timeout: 10_000 }).toContain(API.reactionUpload);
    await expect.element(page.getByText(texts.recipient.reactionSaved)).toBeVisible();
    const upload = server.bodies[server.calls.indexOf(API.reactionUpload)] as FormData;
    // Not 1 s after an end that came before the recorder: MIN_RECORDING_MS of it (less its timer's slack).
    expect(Number(upload.get('durationSeconds'))).toBeGreaterThanOrEqual(MIN_RECORDING_MS / 1000 - 0.1);
    expect((upload.get('reaction') as Blob).size).toBeGreaterThan(0);
  });

  test('a recorder that has handed over nothing after MIN_RECORDING_MS records on until it has, and the reaction is saved', async () => {
    vi.stubGlobal('MediaRecorder', SlowToStart);
    SlowToStart.started = [];
    SlowToStart.stopped = [];
    SlowToStart.log = [];
    const server = slowConsentServer();
    const media = document.createElement('video');
    const play = vi.fn(() => {
      media.dispatchEvent(new Event('playing'));
      window.setTimeout(() => media.dispatchEvent(new Event('ended')), 200);
      return Promise.resolve(true);
    });
    await renderGate(MESSAGE, media, play);
    await page.getByRole('button', { name: 'Play' }).click();
    await page.getByRole('button', { name: 'Play & Record Video' }).click();
    server.answer({ allowRecording: true, message: texts.recipient.reactionConsentAsked, data: { id: 'reaction-1' } });
    await expect.element(page.getByText(texts.recipient.reactionSaved), { timeout: FIRST_DATA_MS + 4000 }).toBeVisible();
    await expect.element(page.getByText(texts.recipient.reactionRecordedNothing)).not.toBeInTheDocument();
    const upload = server.bodies[server.calls.indexOf(API.reactionUpload)] as FormData;
    expect((upload.get('reaction') as Blob).size).toBeGreaterThan(0);
    // It stopped at the first check after the recorder handed something over, not at the end of its
    // NOTHING_YET_MAX_MS (which would ask for more data first): told by the order of what it asked, not by a clock.
    const log = SlowToStart.log;
    expect(log.slice(log.indexOf('data'))).toEqual(['data', 'stop', 'data']);
    expect(SlowToStart.stopped[0]! - SlowToStart.started[0]!).toBeGreaterThanOrEqual(FIRST_DATA_MS);
  });
});
