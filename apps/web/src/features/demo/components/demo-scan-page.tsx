import { CameraHint } from '../../../components/ui/camera-hint.tsx';
import { texts } from '@giftlens/contract/texts';
import { Camera, Loader2, X } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { paths } from '../../../app/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { postDemoScan } from '../api/post-demo-scan.ts';
import { CAMERA_CONSTRAINTS, captureFrame } from '../capture.ts';
import { findDemo, type Demo } from '../demos.ts';
import { errorText } from '../../../lib/user-text.ts';

/** Camera warm-up before scanning is allowed (animations 1.5 s + 0.5 s), then the automatic photo 2 s later. */
const WARM_UP_MS = 2000;
const AUTO_CAPTURE_MS = 2000;
const RESET_MS = 1000;

type Status = 'ready' | 'scanning' | 'success' | 'failed';

function cameraErrorText(err: unknown): string {
  return err instanceof DOMException && (err.name === 'NotAllowedError' || err.name === 'SecurityError')
    ? texts.recipient.cameraRequired
    : texts.recipient.cameraError;
}

function FullScreenMessage({ demo, title, text }: { demo: Demo; title: string; text: string }) {
  return (
    <div className="flex min-h-dvh items-center justify-center bg-stone-900 px-6 text-center text-white">
      <div className="max-w-sm">
        <h1 className="text-2xl font-bold">{title}</h1>
        <p className="mt-3 text-stone-300">{text}</p>
        <div className="mt-8 flex flex-col gap-3">
          <Link
            to={paths.demoMessage.href(demo.id)}
            className="inline-flex min-h-12 items-center justify-center rounded-xl bg-white px-6 font-semibold text-stone-900 hover:bg-brand-50"
          >
            Watch the message instead
          </Link>
          <Link
            to={paths.demo.href()}
            className="inline-flex min-h-12 items-center justify-center rounded-xl border border-stone-600 px-6 font-semibold text-white hover:bg-stone-800"
          >
            Back to the demo
          </Link>
        </div>
      </div>
    </div>
  );
}

/** /demo/scan/{demoId}: the real camera screen, matching against the demo gift on the server. */
export function DemoScanPage() {
  const demo = findDemo(useParams().demoId);
  const navigate = useNavigate();
  const videoRef = useRef<HTMLVideoElement>(null);
  const busy = useRef(false);
  const inFlight = useRef<AbortController | null>(null);
  const [cameraReady, setCameraReady] = useState(false);
  const [cameraError, setCameraError] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>('ready');
  const [failure, setFailure] = useState<string | null>(null);
  const [attempts, setAttempts] = useState(0);
  const [unavailable, setUnavailable] = useState(false);

  useEffect(() => {
    if (!demo) return;
    let stream: MediaStream | undefined;
    let cancelled = false;
    let warmUp: ReturnType<typeof setTimeout> | undefined;
    const start = async () => {
      if (!navigator.mediaDevices?.getUserMedia) throw new DOMException('No camera API', 'NotFoundError');
      stream = await navigator.mediaDevices.getUserMedia(CAMERA_CONSTRAINTS);
      if (cancelled) return;
      const video = videoRef.current;
      if (!video) return;
      video.srcObject = stream;
      await video.play();
      warmUp = setTimeout(() => setCameraReady(true), WARM_UP_MS);
    };
    start().catch((err: unknown) => {
      if (!cancelled) setCameraError(cameraErrorText(err));
    });
    return () => {
      cancelled = true;
      clearTimeout(warmUp);
      inFlight.current?.abort();
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [demo]);

  const capture = useCallback(async () => {
    const video = videoRef.current;
    if (!demo || !video || !cameraReady || busy.current) return;
    busy.current = true;
    setStatus('scanning');
    const controller = new AbortController();
    inFlight.current = controller;
    try {
      const photo = await captureFrame(video);
      const result = await postDemoScan(demo.id, photo, controller.signal);
      if (result.matched) {
        setStatus('success');
        void navigate(paths.demoMessage.href(demo.id));
        return;
      }
      setFailure(texts.recipient.noMatch);
      setAttempts((n) => n + 1);
      setStatus('failed');
    } catch (err) {
      // A scan we cancelled (leaving the page) is not a failure.
      if (err instanceof DOMException && err.name === 'AbortError') return;
      if (err instanceof ApiError && err.status === 404) {
        setUnavailable(true);
        return;
      }
      setFailure(errorText(err, texts.recipient.scanFailed));
      setAttempts((n) => n + 1);
      setStatus('failed');
    } finally {
      busy.current = false;
    }
  }, [demo, cameraReady, navigate]);

  // While ready, take the photo automatically so the visitor only has to hold steady.
  useEffect(() => {
    if (!cameraReady || status !== 'ready') return;
    const timer = setTimeout(() => void capture(), AUTO_CAPTURE_MS);
    return () => clearTimeout(timer);
  }, [cameraReady, status, capture]);

  const tryAgain = () => {
    setFailure(null);
    setTimeout(() => setStatus('ready'), RESET_MS);
  };

  if (!demo) return <Navigate to={paths.demo.href()} replace />;
  if (unavailable) {
    return (
      <FullScreenMessage
        demo={demo}
        title="The demo scanner is resting"
        text="Scanning the demo gift is not available on this server right now. You can still watch the message Maya hid inside it."
      />
    );
  }
  if (cameraError) {
    return <FullScreenMessage demo={demo} title="We need your camera" text={cameraError} />;
  }

  const canShoot = status === 'ready' && cameraReady;
  return (
    <div className="fixed inset-0 flex flex-col bg-black text-white">
      <title>Scan the demo gift · GiftLens</title>
      <video ref={videoRef} muted playsInline className="absolute inset-0 size-full object-cover" aria-hidden="true" />

      <div className="relative z-10 flex items-center justify-between bg-gradient-to-b from-black/70 to-transparent p-4">
        <h1 className="text-lg font-semibold">Scan the demo gift</h1>
        <Link
          to={paths.demo.href()}
          aria-label="Cancel scanning"
          className="inline-flex size-11 items-center justify-center rounded-full bg-black/50 hover:bg-black/70 focus-visible:outline-2 focus-visible:outline-white"
        >
          <X aria-hidden className="size-6" />
        </Link>
      </div>

      <div className="relative z-10 flex flex-1 items-center justify-center p-8" aria-hidden="true">
        <div className="relative aspect-square w-full max-w-sm">
          <span className="absolute top-0 left-0 size-12 rounded-tl-2xl border-t-4 border-l-4 border-white" />
          <span className="absolute top-0 right-0 size-12 rounded-tr-2xl border-t-4 border-r-4 border-white" />
          <span className="absolute bottom-0 left-0 size-12 rounded-bl-2xl border-b-4 border-l-4 border-white" />
          <span className="absolute right-0 bottom-0 size-12 rounded-br-2xl border-r-4 border-b-4 border-white" />
          {cameraReady && status !== 'failed' ? (
            <span className="absolute inset-x-4 top-1/2 h-0.5 animate-pulse rounded bg-teal-300 shadow-[0_0_16px_4px_rgba(94,234,212,0.7)]" />
          ) : null}
        </div>
      </div>

      <div className="relative z-10 flex flex-col items-center gap-4 bg-gradient-to-t from-black/80 to-transparent px-4 pt-6 pb-10">
        <CameraHint live>
          {!cameraReady
            ? 'Starting the camera…'
            : status === 'scanning'
              ? 'Looking for the gift…'
              : status === 'success'
                ? 'Gift found!'
                : 'Fill the frame with the demo gift and hold steady'}
        </CameraHint>
        <button
          type="button"
          onClick={() => void capture()}
          disabled={!canShoot}
          className="flex size-20 items-center justify-center rounded-full border-4 border-white bg-white/20 transition enabled:hover:bg-white/30 disabled:opacity-50 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-white"
        >
          {status === 'scanning' ? <Loader2 aria-hidden className="size-8 animate-spin" /> : <Camera aria-hidden className="size-8" />}
          <span className="sr-only">Take Photo</span>
        </button>
      </div>

      {failure ? (
        <div className="absolute inset-0 z-20 flex items-end justify-center bg-black/60 p-4 sm:items-center">
          <div
            role="alertdialog"
            aria-modal="true"
            aria-labelledby="demo-retry-title"
            aria-describedby="demo-retry-text"
            className="w-full max-w-sm rounded-3xl bg-white p-6 text-stone-900"
          >
            <h2 id="demo-retry-title" className="text-xl font-bold">
              We couldn’t recognise the gift
            </h2>
            <p id="demo-retry-text" className="mt-2 text-[15px] text-stone-700">
              {failure} Make the picture bright, fill most of the frame with it and hold still.
            </p>
            <div className="mt-6 flex flex-col gap-3">
              <button
                type="button"
                autoFocus
                onClick={tryAgain}
                className="min-h-12 rounded-xl bg-brand-500 px-6 font-semibold text-white hover:brightness-90"
              >
                Try Again
              </button>
              {attempts >= 2 ? (
                <Link
                  to={paths.demoMessage.href(demo.id)}
                  className="inline-flex min-h-12 items-center justify-center rounded-xl border border-stone-300 px-6 font-semibold text-stone-800"
                >
                  Watch the message instead
                </Link>
              ) : null}
              <button
                type="button"
                onClick={() => void navigate(-1)}
                className="min-h-12 rounded-xl px-6 font-semibold text-stone-700 hover:bg-stone-100"
              >
                Cancel
              </button>
            </div>
          </div>
        </div>
      ) : null}
    </div>
  );
}
