import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import { expect, vi } from 'vitest';
import { jsonResponse } from './render-route.tsx';

/**
 * A fake server for the scanner's browser tests: answers process-scan and live-frame calls of the direct flow for
 * one gift from queues the test sets and records what the page sent. A call it has no answer for gets a 500 and is
 * listed in `unexpected` (the page would take a thrown error for a network failure and hide it), which the test
 * asserts empty.
 */
export function fakeScanServer(giftId: string) {
  /** Photos sent to process-scan (Take Photo), in order. */
  const scans: File[] = [];
  /** Frames sent to live-frame, in order. */
  const frames: File[] = [];
  const scanAnswers: (() => Response)[] = [];
  const frameAnswers: (() => Response)[] = [];
  const unexpected: string[] = [];
  const surprise = (what: string) => {
    unexpected.push(what);
    return Promise.resolve(new Response(null, { status: 500 }));
  };
  /** What a live frame gets once its queue is empty (a miss, unless the test says otherwise). */
  let frameDefault: (() => Response) | null = () => liveMiss();

  const fetchSpy = vi.spyOn(window, 'fetch').mockImplementation((input, init) => {
    const form = init?.body as FormData;
    expect(form.get('type')).toBe('direct');
    const photo = form.get('scan') as File;
    if (input === API.liveFrameDirect(giftId)) {
      frames.push(photo);
      const next = frameAnswers.shift() ?? frameDefault;
      if (!next) return surprise(`live frame ${frames.length}`);
      return Promise.resolve(next());
    }
    if (input !== API.processScanDirect(giftId)) return surprise(typeof input === 'string' ? input : 'a call to another URL');
    scans.push(photo);
    const next = scanAnswers.shift();
    if (!next) return surprise(`scan ${scans.length}`);
    return Promise.resolve(next());
  });

  return {
    fetchSpy,
    scans,
    frames,
    unexpected,
    /** Answers the next Take Photo scans in turn. */
    answerScans: (...answers: (() => Response)[]) => scanAnswers.push(...answers),
    /** Answers the next live frames in turn; after them, `then` (null: another frame fails the test). */
    answerFrames: (answers: (() => Response)[], then: (() => Response) | null = () => liveMiss()) => {
      frameAnswers.push(...answers);
      frameDefault = then;
    },
  };
}

/** The server's answer to a scan (or a decisive live frame): the gift recognised, or not (the spec's no-match text). */
export const scanAnswer = (giftId: string, matched: boolean) => () =>
  jsonResponse({
    success: true,
    giftId: matched ? giftId : null,
    matchResult: { matched, matchFound: matched, giftId: matched ? giftId : null, score: matched ? 0.9 : 0.02 },
    openAIResponse: { content: matched ? 'yes' : 'no' },
    giftDetails: null,
    ...(matched ? {} : { error: texts.recipient.noMatch }),
  });

/** A live frame that decided nothing. */
export const liveMiss = (framesLeft = 100) => jsonResponse({ success: false, decided: false, framesLeft });

/** A refusal with Retry-After, as the server sends 429/503. */
export const refusal = (status: number, code: string, error: string, seconds: number) =>
  jsonResponse({ success: false, error, code, retryAfter: seconds }, status, { 'retry-after': String(seconds) });

/**
 * A camera that sees `photoUrl` (letterboxed into 1280x720, as the e2e fake camera shows a photo), through a CSS
 * `filter` ('brightness(0.18)' for a dark room): getUserMedia answers a stream of a canvas redrawn every frame.
 */
export async function photoCamera(photoUrl: string, filter = 'none'): Promise<void> {
  const img = new Image();
  img.src = photoUrl;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = 1280;
  canvas.height = 720;
  const ctx = canvas.getContext('2d')!;
  const fit = Math.min(1280 / img.naturalWidth, 720 / img.naturalHeight);
  const [w, h] = [img.naturalWidth * fit, img.naturalHeight * fit];
  const stream = canvas.captureStream(30);
  const track = stream.getVideoTracks()[0]!;
  let timer = 0;
  const draw = () => {
    // track.stop() (the screen going away) fires no event: stop drawing once the track has ended.
    if (track.readyState === 'ended') return window.clearInterval(timer);
    ctx.filter = 'none';
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, 1280, 720);
    ctx.filter = filter;
    ctx.drawImage(img, (1280 - w) / 2, (720 - h) / 2, w, h);
  };
  draw();
  // A canvas stream sends a frame only when the canvas is drawn: keep drawing while the stream lives.
  timer = window.setInterval(draw, 33);
  vi.spyOn(navigator.mediaDevices, 'getUserMedia').mockResolvedValue(stream);
}
