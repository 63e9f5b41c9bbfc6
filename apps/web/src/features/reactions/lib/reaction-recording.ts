import { startSyncedRecording } from '../api/start-synced-recording.ts';
import { uploadReaction } from '../api/upload-reaction.ts';

/** Recording: the front camera with the microphone. */
export const REACTION_CAMERA_CONSTRAINTS: MediaStreamConstraints = { video: { facingMode: 'user' }, audio: true };
export const REACTION_MIME_TYPE = 'video/webm;codecs=vp9,opus';
/** MediaRecorder hands over a chunk every second, so a tab closed mid-way loses at most a second. */
export const CHUNK_MS = 1000;
/** Keep recording this long after the message ends, to catch the reaction to its last words. */
export const STOP_AFTER_END_MS = 1000;
/**
 * And never stop before the recorder has run this long: a camera that opens slowly (a busy phone) can start after a
 * short message has ended, and 1 s of it is a glimpse, or on a loaded device no frame at all (0 bytes, nothing saved).
 */
export const MIN_RECORDING_MS = 3000;
/**
 * A recorder that has handed over nothing by then (an encoder starved on a busy device: its first chunk comes late)
 * is asked for its data and given up to this much longer, rather than stopped with nothing to save.
 */
export const NOTHING_YET_MAX_MS = 6000;
const NOTHING_YET_RECHECK_MS = 250;

function pickMimeType(): string | undefined {
  const candidates = [REACTION_MIME_TYPE, 'video/webm;codecs=vp8,opus', 'video/webm', 'video/mp4'];
  return candidates.find((t) => typeof MediaRecorder !== 'undefined' && MediaRecorder.isTypeSupported(t));
}

export interface RecordingCallbacks {
  onRecordingChange: (recording: boolean) => void;
  onSaved: () => void;
  onSaveFailed: (reason: string) => void;
  /** The recorder stopped with 0 bytes: nothing was uploaded. */
  onNothingRecorded: () => void;
}

/**
 * One reaction recording, synced to the message. The message starts playing in the recipient's tap (`follow`
 * first, then play: a phone allows play() only inside the gesture), while the camera opens beside it; the
 * recorder starts once the camera is there (`begin`), the media's start is reported to the server, and recording
 * stops 1 s after the media ends (running at least MIN_RECORDING_MS, for a camera that opened after a short
 * message had ended, and until the recorder has handed over something, up to NOTHING_YET_MAX_MS more); then it
 * uploads with the offset between the two starts (negative when the message started first). The camera and
 * microphone are released in every outcome (saved, failed, or the page left).
 */
export class ReactionRecording {
  private stream: MediaStream | null = null;
  private recorder: MediaRecorder | null = null;
  private chunks: Blob[] = [];
  private recorderStart = 0;
  private mediaStartTime: number | null = null;
  private mediaEndTime: number | null = null;
  private stopTimer: number | undefined;
  private media: HTMLMediaElement | null = null;
  private disposed = false;

  // The reaction the server opened for this playback; known once its play-consent call answers (`assign`).
  private reactionId = '';
  private playbackSessionId = '';

  constructor(private readonly callbacks: RecordingCallbacks) {}

  /** The reaction this recording is for (before `begin`). */
  assign(reactionId: string, playbackSessionId: string): void {
    this.reactionId = reactionId;
    this.playbackSessionId = playbackSessionId;
  }

  /** Asks for the front camera and microphone; throws (with the browser's reason) when refused. */
  async open(): Promise<void> {
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') {
      throw new Error('recording is not supported in this browser');
    }
    this.stream = await navigator.mediaDevices.getUserMedia(REACTION_CAMERA_CONSTRAINTS);
    if (this.disposed) this.release();
  }

  /**
   * Follows `media` from now on: when it starts playing and when it ends. Called in the tap, before play(), so the
   * start is seen even when it comes before the camera.
   */
  follow(media: HTMLMediaElement): void {
    this.media = media;
    media.addEventListener('playing', this.onPlaying);
    media.addEventListener('ended', this.onEnded);
    if (!media.paused && media.readyState >= HTMLMediaElement.HAVE_FUTURE_DATA) this.onPlaying();
  }

  /** Starts recording (the camera is open): reports the media's start if it came first, and stops after its end. */
  begin(): void {
    if (!this.stream || this.disposed) return;
    const mimeType = pickMimeType();
    this.recorder = new MediaRecorder(this.stream, mimeType ? { mimeType } : undefined);
    this.recorder.addEventListener('dataavailable', (e) => {
      if (e.data.size > 0) this.chunks.push(e.data);
    });
    this.recorder.addEventListener('stop', () => void this.finish());
    this.recorder.start(CHUNK_MS);
    this.recorderStart = Date.now();
    this.callbacks.onRecordingChange(true);
    if (this.mediaStartTime !== null) this.reportStart();
    if (this.mediaEndTime !== null) this.stopSoon();
  }

  private onPlaying = () => {
    if (this.mediaStartTime !== null || this.disposed) return;
    this.mediaStartTime = Date.now();
    if (this.recorder) this.reportStart();
  };

  /** Tells the server when the message started (the consent was given before the recorder started). */
  private reportStart() {
    if (this.mediaStartTime === null) return;
    startSyncedRecording({
      reactionId: this.reactionId,
      mediaStartTime: this.mediaStartTime,
      playbackSessionId: this.playbackSessionId,
    }).catch(() => {
      // The upload carries the offset too, so the reaction can still be lined up without this call.
    });
  }

  private onEnded = () => {
    if (this.mediaEndTime !== null || this.disposed) return;
    this.mediaEndTime = Date.now();
    if (this.recorder) this.stopSoon();
  };

  /** Stops 1 s after the message's end, and not before the recorder has run MIN_RECORDING_MS. */
  private stopSoon() {
    window.clearTimeout(this.stopTimer);
    const delay = Math.max(STOP_AFTER_END_MS, MIN_RECORDING_MS - (Date.now() - this.recorderStart));
    this.stopTimer = window.setTimeout(this.stopOnceSomethingRecorded, delay);
  }

  /** Stops, once the recorder has handed over something (or has had NOTHING_YET_MAX_MS more to do so). */
  private stopOnceSomethingRecorded = () => {
    const recorder = this.recorder;
    if (!recorder || recorder.state === 'inactive') return;
    if (this.chunks.length > 0 || Date.now() - this.recorderStart >= MIN_RECORDING_MS + NOTHING_YET_MAX_MS) {
      recorder.stop();
      return;
    }
    recorder.requestData();
    this.stopTimer = window.setTimeout(this.stopOnceSomethingRecorded, NOTHING_YET_RECHECK_MS);
  };

  private async finish(): Promise<void> {
    this.detach();
    this.release();
    this.callbacks.onRecordingChange(false);
    if (this.disposed) return;
    const stoppedAt = Date.now();
    const recording = new Blob(this.chunks, { type: this.recorder?.mimeType || 'video/webm' });
    this.chunks = [];
    // A recorder can stop with nothing in it (seen in a WebKit browser): an empty file is no reaction, and the
    // server would refuse it as a file of the wrong type. Nothing is sent; the recipient is told what happened.
    if (recording.size === 0) {
      this.callbacks.onNothingRecorded();
      return;
    }
    try {
      await uploadReaction({
        reactionId: this.reactionId,
        recording,
        durationSeconds: Math.round((stoppedAt - this.recorderStart) / 100) / 10,
        mediaEndTime: this.mediaEndTime ?? stoppedAt,
        syncOffsetMs: (this.mediaStartTime ?? this.recorderStart) - this.recorderStart,
      });
      this.callbacks.onSaved();
    } catch (err) {
      this.callbacks.onSaveFailed(err instanceof Error ? err.message : String(err));
    }
  }

  private detach() {
    window.clearTimeout(this.stopTimer);
    this.media?.removeEventListener('playing', this.onPlaying);
    this.media?.removeEventListener('ended', this.onEnded);
    this.media = null;
  }

  private release() {
    this.stream?.getTracks().forEach((t) => t.stop());
    this.stream = null;
  }

  /** The page is going away (or playback could not start): stop without uploading and free the camera. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.detach();
    if (this.recorder && this.recorder.state !== 'inactive') this.recorder.stop();
    this.release();
    this.callbacks.onRecordingChange(false);
  }
}

/** A playback session id: crypto.randomUUID where available (secure contexts), random hex otherwise. */
export function newPlaybackSessionId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
