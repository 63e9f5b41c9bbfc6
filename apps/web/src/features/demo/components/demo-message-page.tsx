import { Gift, Play } from 'lucide-react';
import { useRef, useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { DemoLink } from './demo-link.tsx';
import { findDemo } from '../demos.ts';

/** /demo/message/{demoId}: the message Maya hid in the demo gift, played the way real messages are. */
export function DemoMessagePage() {
  const demo = findDemo(useParams().demoId);
  const video = useRef<HTMLVideoElement>(null);
  const [started, setStarted] = useState(false);
  if (!demo) return <Navigate to={paths.demo.href()} replace />;

  const play = () => {
    setStarted(true);
    void video.current?.play().catch(() => setStarted(false));
  };

  return (
    <div className="bg-gradient-to-b from-brand-50 to-stone-50">
      <title>A Special Message For You · GiftLens demo</title>
      <div className="mx-auto max-w-3xl px-4 py-12 text-center sm:px-6">
        <p className="inline-flex items-center gap-2 rounded-full bg-white px-3 py-1 text-sm font-semibold text-brand-600">
          <Gift aria-hidden className="size-4" /> Demo gift for {demo.to}
        </p>
        <h1 className="mt-4 text-3xl font-extrabold tracking-tight text-stone-900 sm:text-4xl">A Special Message For You</h1>
        <p className="mt-2 text-lg text-stone-700">
          From <span className="font-semibold text-stone-900">{demo.from}</span>
        </p>

        <div className="relative mt-8 overflow-hidden rounded-3xl bg-stone-900 shadow-2xl shadow-stone-900/20">
          <video
            ref={video}
            src={demo.video}
            poster={demo.poster}
            width={1280}
            height={720}
            playsInline
            preload="metadata"
            controls={started}
            controlsList="nodownload noplaybackrate"
            disablePictureInPicture
            onContextMenu={(e) => e.preventDefault()}
            onPlay={() => setStarted(true)}
            className="aspect-video h-auto w-full"
          >
            <track kind="captions" src={demo.captions} srcLang="en" label="English" />
          </video>
          {started ? null : (
            <button
              type="button"
              onClick={play}
              className="absolute inset-0 flex items-center justify-center bg-stone-900/30 focus-visible:outline-4 focus-visible:-outline-offset-4 focus-visible:outline-white"
            >
              <span className="flex size-20 items-center justify-center rounded-full bg-white/95 shadow-lg">
                <Play aria-hidden className="ml-1 size-9 fill-brand-600 text-brand-600" />
              </span>
              <span className="sr-only">Play the message from {demo.from}</span>
            </button>
          )}
        </div>
        <p className="mt-4 text-sm text-stone-600">
          Message transcript: “Hi Sam! Happy birthday. This message was hidden inside your gift. Love, Maya.”
        </p>

        <div className="mt-10 rounded-3xl border border-stone-200 bg-white p-6 text-left sm:p-8">
          <h2 className="text-xl font-bold text-stone-900">That is how your recipient will feel.</h2>
          <p className="mt-2 text-[15px] leading-relaxed text-stone-700">
            Real messages are private: they open only after a successful scan of the real gift, through a link that
            expires after five minutes. Record yours in about three minutes.
          </p>
          <div className="mt-6 flex flex-col gap-3 sm:flex-row">
            <DemoLink to={paths.send.href()} className="bg-brand-500 text-white hover:brightness-90">
              Send your own gift message
            </DemoLink>
            <DemoLink to={paths.demo.href()} className="border border-stone-300 text-stone-800 hover:bg-stone-50">
              Back to the demo
            </DemoLink>
          </div>
        </div>
      </div>
    </div>
  );
}
