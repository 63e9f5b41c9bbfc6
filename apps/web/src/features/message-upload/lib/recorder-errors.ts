export type RecorderStatus = 'idle' | 'acquiring_media' | 'recording' | 'paused' | 'stopping' | 'stopped';

export type RecorderError =
  | 'media_aborted'
  | 'permission_denied'
  | 'no_specified_media_found'
  | 'media_in_use'
  | 'invalid_media_constraints'
  | 'no_constraints'
  | 'recorder_error';

/** Maps a getUserMedia / MediaRecorder failure to the spec's recorder error names. */
export function toRecorderError(err: unknown): RecorderError {
  const name = err instanceof Error || err instanceof DOMException ? err.name : '';
  switch (name) {
    case 'AbortError':
      return 'media_aborted';
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return 'permission_denied';
    case 'NotFoundError':
    case 'DevicesNotFoundError':
      return 'no_specified_media_found';
    case 'NotReadableError':
    case 'TrackStartError':
      return 'media_in_use';
    case 'OverconstrainedError':
    case 'ConstraintNotSatisfiedError':
      return 'invalid_media_constraints';
    case 'TypeError':
      return 'no_constraints';
    default:
      return 'recorder_error';
  }
}

export function recorderErrorText(error: RecorderError, kind: 'video' | 'audio'): string {
  const device = kind === 'video' ? 'camera and microphone' : 'microphone';
  switch (error) {
    case 'permission_denied':
      return `We couldn't access your ${device}. Allow access in your browser settings, or upload a file instead.`;
    case 'no_specified_media_found':
      return `No ${device} was found on this device. You can upload a file instead.`;
    case 'media_in_use':
      return `Your ${device} is being used by another app. Close it and try again.`;
    case 'media_aborted':
      return 'Recording was interrupted. Please try again.';
    case 'invalid_media_constraints':
    case 'no_constraints':
      return `Your ${device} does not support the requested settings. You can upload a file instead.`;
    case 'recorder_error':
      return 'Recording stopped unexpectedly. Please try again or upload a file.';
  }
}
