import { texts } from '@giftlens/contract/texts';
import { Footprints, Hand, Sun } from 'lucide-react';
import type { FrameHint } from '../../../camera/frame-checks.ts';
import { CameraHint } from '../../../components/ui/camera-hint.tsx';

const HINTS: Record<FrameHint, { text: string; Icon: typeof Sun }> = {
  moreLight: { text: texts.recipient.hintMoreLight, Icon: Sun },
  holdStill: { text: texts.recipient.hintHoldStill, Icon: Hand },
  moveCloser: { text: texts.recipient.hintMoveCloser, Icon: Footprints },
};

/**
 * What the frame checks ask of the person (More light, Hold still, Move closer), under the viewfinder. Its place
 * is kept while there is no hint, so the viewfinder does not jump when one comes and goes.
 */
export function FrameHintPill({ hint }: { hint: FrameHint | null }) {
  const shown = hint ? HINTS[hint] : null;
  return (
    <div aria-live="polite" data-testid="frame-hint" className="flex min-h-10 items-center">
      {shown ? (
        <CameraHint>
          <span className="inline-flex items-center gap-2">
            <shown.Icon className="size-4 text-brand-500" aria-hidden />
            {shown.text}
          </span>
        </CameraHint>
      ) : null}
    </div>
  );
}
