import { texts } from '@giftlens/contract/texts';
import type { CameraFailure } from '../../../camera/use-camera.ts';

/** What went wrong, as far as the retry dialog's title is concerned. */
export type ScanErrorKind = 'camera' | 'light' | 'focus' | 'gift' | 'refused';

export const RETRY_TITLES: Record<ScanErrorKind, string> = {
  camera: 'Camera problem',
  light: 'Too dark',
  focus: 'Hold steady',
  gift: 'Gift not recognised',
  refused: 'Scanning unavailable',
};

/** Picks the dialog's title from the error text (camera, light, focus, otherwise the gift itself). */
export function errorKind(text: string): ScanErrorKind {
  if (/camera|permission/i.test(text)) return 'camera';
  if (/dark|light|bright|exposure/i.test(text)) return 'light';
  if (/blur|focus|steady|shak|motion/i.test(text)) return 'focus';
  return 'gift';
}

/**
 * Camera failures by the error getUserMedia threw: refused permission asks for it (the recipient flow adds
 * the "Please allow" sentence); a camera that exists but fails is an access error; anything else is init.
 */
export function cameraErrorText(err: unknown, recipientFlow: boolean): string {
  const name = err instanceof DOMException || err instanceof Error ? err.name : '';
  if (name === 'NotAllowedError' || name === 'PermissionDeniedError' || name === 'SecurityError') {
    return recipientFlow ? `${texts.recipient.cameraRequired}${texts.recipient.cameraRequiredRecipientSuffix}` : texts.recipient.cameraRequired;
  }
  if (['NotFoundError', 'DevicesNotFoundError', 'NotReadableError', 'TrackStartError', 'OverconstrainedError', 'AbortError'].includes(name)) {
    return texts.recipient.cameraError;
  }
  return texts.recipient.cameraInitFailed;
}

/** The scanner's words for a camera that did not start: no camera API or a stream that will not play is init. */
export function cameraFailureText(failure: CameraFailure, recipientFlow: boolean): string {
  return failure.stage === 'open' ? cameraErrorText(failure.error, recipientFlow) : texts.recipient.cameraInitFailed;
}

/** Refusals by the server (signed out, scan limit, expired gift, too many scans): retrying at once will not help. */
export const isRefusal = (status: number) => status === 401 || status === 403 || status === 410 || status === 429;
