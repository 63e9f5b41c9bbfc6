import { X } from 'lucide-react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { ShutterButton } from '../../../camera/shutter-button.tsx';
import { CameraHint } from '../../../components/ui/camera-hint.tsx';
import { findDemo, type Demo } from '../demos.ts';
import { useDemoScan } from '../hooks/use-demo-scan.ts';
import { DemoRetryDialog, FullScreenMessage } from './demo-scan-screens.tsx';

/** /demo/scan/{demoId}: the real camera screen, matching against the demo gift on the server. */
export function DemoScanPage() {
  const demo = findDemo(useParams().demoId);
  if (!demo) return <Navigate to={paths.demo.href()} replace />;
  return <DemoScanner demo={demo} />;
}

function DemoScanner({ demo }: { demo: Demo }) {
  const navigate = useNavigate();
  const { attachVideo, ...s } = useDemoScan(demo);

  if (s.unavailable) {
    return (
      <FullScreenMessage
        demo={demo}
        title="The demo scanner is resting"
        text="Scanning the demo gift is not available on this server right now. You can still watch the message Maya hid inside it."
      />
    );
  }
  if (s.cameraError) {
    return <FullScreenMessage demo={demo} title="We need your camera" text={s.cameraError} />;
  }

  return (
    <div className="fixed inset-0 flex flex-col bg-black text-white">
      <title>Scan the demo gift · GiftLens</title>
      <video ref={attachVideo} muted playsInline className="absolute inset-0 size-full object-cover" aria-hidden="true" />

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
          {s.cameraReady && s.status !== 'failed' ? (
            <span className="absolute inset-x-4 top-1/2 h-0.5 animate-pulse rounded bg-teal-300 shadow-[0_0_16px_4px_rgba(94,234,212,0.7)]" />
          ) : null}
        </div>
      </div>

      <div className="relative z-10 flex flex-col items-center gap-4 bg-gradient-to-t from-black/80 to-transparent px-4 pt-6 pb-10">
        <CameraHint live>
          {!s.cameraReady
            ? 'Starting the camera…'
            : s.status === 'scanning'
              ? (s.waiting ?? 'Looking for the gift…')
              : s.status === 'success'
                ? 'Gift found!'
                : 'Fill the frame with the demo gift and hold steady'}
        </CameraHint>
        <ShutterButton look="round" onPress={s.takePhoto} disabled={!s.canShoot} busy={s.status === 'scanning'} />
      </div>

      {s.failure ? (
        <DemoRetryDialog
          demo={demo}
          message={s.failure}
          offerMessage={s.attempts >= 2}
          onTryAgain={s.tryAgain}
          onCancel={() => void navigate(-1)}
        />
      ) : null}
    </div>
  );
}
