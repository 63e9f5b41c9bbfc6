export type MatcherErrorCode = 'unreadable_image' | 'image_too_small' | 'invalid_reference';

/** A clean, expected failure: bad input, never a crash. */
export class MatcherError extends Error {
  readonly code: MatcherErrorCode;
  constructor(code: MatcherErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MatcherError';
    this.code = code;
  }
}
