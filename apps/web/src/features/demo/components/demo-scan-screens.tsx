import { paths } from '../../../config/paths.ts';
import { DemoLink } from './demo-link.tsx';
import type { Demo } from '../demos.ts';

/** A whole screen instead of the camera: the camera is refused or the demo scanner is off; the message is still there. */
export function FullScreenMessage({ demo, title, text }: { demo: Demo; title: string; text: string }) {
  return (
    <div className="flex min-h-dvh items-center justify-center bg-stone-900 px-6 text-center text-white">
      <div className="max-w-sm">
        <h1 className="text-2xl font-bold">{title}</h1>
        <p className="mt-3 text-stone-300">{text}</p>
        <div className="mt-8 flex flex-col gap-3">
          <DemoLink to={paths.demoMessage.href(demo.id)} className="bg-white text-stone-900 hover:bg-brand-50">
            Watch the message instead
          </DemoLink>
          <DemoLink to={paths.demo.href()} className="border border-stone-600 text-white hover:bg-stone-800">
            Back to the demo
          </DemoLink>
        </div>
      </div>
    </div>
  );
}

/** After a missed demo scan: what went wrong, Try Again, the message itself after two misses, Cancel. */
export function DemoRetryDialog({
  demo,
  message,
  offerMessage,
  onTryAgain,
  onCancel,
}: {
  demo: Demo;
  message: string;
  offerMessage: boolean;
  onTryAgain: () => void;
  onCancel: () => void;
}) {
  return (
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
          {message} Make the picture bright, fill most of the frame with it and hold still.
        </p>
        <div className="mt-6 flex flex-col gap-3">
          <button
            type="button"
            autoFocus
            onClick={onTryAgain}
            className="min-h-12 rounded-xl bg-brand-500 px-6 font-semibold text-white hover:brightness-90"
          >
            Try Again
          </button>
          {offerMessage ? (
            <DemoLink to={paths.demoMessage.href(demo.id)} className="border border-stone-300 text-stone-800">
              Watch the message instead
            </DemoLink>
          ) : null}
          <button
            type="button"
            onClick={onCancel}
            className="min-h-12 rounded-xl px-6 font-semibold text-stone-700 hover:bg-stone-100"
          >
            Cancel
          </button>
        </div>
      </div>
    </div>
  );
}
