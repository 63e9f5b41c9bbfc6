import { texts } from '@giftlens/contract/texts';
import { CameraOff, Focus, KeyRound, PackageSearch, ShieldAlert, SunDim } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { RETRY_TITLES, type ScanErrorKind } from '../lib/scan-errors.ts';

const ICONS: Record<ScanErrorKind, typeof CameraOff> = {
  camera: CameraOff,
  light: SunDim,
  focus: Focus,
  gift: PackageSearch,
  refused: ShieldAlert,
};

const TIPS: Record<ScanErrorKind, string> = {
  camera: 'Check that this site may use your camera, then try again.',
  light: 'Move to a brighter spot or turn on a light, and avoid strong shadows.',
  focus: 'Hold your phone still for a moment so the photo is sharp.',
  gift: 'Center the whole gift in the frame, on a plain background, without wrapping.',
  refused: 'You can try again later.',
};

/**
 * After a failed scan: what went wrong, a tip, Try Again (resets the scan), Cancel (leaves), or the backup code.
 * Escape only closes it, as Try Again does, and focus goes back to `returnFocus` (the control that opened it).
 */
export function RetryDialog({
  kind,
  message,
  onTryAgain,
  onCancel,
  onEnterCode,
  returnFocus,
}: {
  kind: ScanErrorKind | null;
  message: string;
  onTryAgain: () => void;
  onCancel: () => void;
  /** The way out when the camera cannot do it: the gift's backup code (decision 039). */
  onEnterCode: () => void;
  returnFocus?: () => HTMLElement | null;
}) {
  const Icon = ICONS[kind ?? 'gift'];
  return (
    <Modal
      open={kind !== null}
      title={RETRY_TITLES[kind ?? 'gift']}
      onDismiss={onTryAgain}
      returnFocus={returnFocus}
      icon={
        <span className="flex size-14 items-center justify-center rounded-full bg-brand-100 text-brand-600">
          <Icon className="size-7" aria-hidden />
        </span>
      }
    >
      <p className="text-stone-700">{message}</p>
      {kind ? <p className="text-sm text-stone-500">{TIPS[kind]}</p> : null}
      {/* Try Again comes first so the dialog opens with it focused; on wide screens Cancel sits on its left. */}
      <div className="mt-2 flex w-full flex-col gap-3 sm:flex-row-reverse">
        <Button block onClick={onTryAgain}>
          Try Again
        </Button>
        <Button variant="secondary" block onClick={onCancel}>
          Cancel
        </Button>
      </div>
      {/* Small type keeps it on one line at 360 px. */}
      <Button variant="ghost" size="sm" block onClick={onEnterCode}>
        <KeyRound className="size-4" aria-hidden />
        {texts.backupCode.choose}
      </Button>
    </Modal>
  );
}
