import { texts } from '@giftlens/contract/texts';

/** A failure the client is meant to see: its status, a stable code and the user-facing text. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const unauthorized = () => new AppError(401, 'unauthorized', texts.sender.unauthorized);
// A foreign gift answers exactly like a missing one, so gift ids cannot be probed.
export const giftNotFound = () => new AppError(404, 'gift_not_found', texts.sender.giftNotFound);

/**
 * The one body of every failure (decision 001): `{ success: false, error, code, ...extra }`, where `error` is the
 * text a user sees. Built here for the error handler, the router's and Node's parser's refusals and the 404.
 */
export function errorBody(code: string, error: string = texts.sender.generic, extra: Record<string, unknown> = {}) {
  return { success: false as const, error, code, ...extra };
}

/** A NUL character anywhere in a request (a body, a query, a path, a form field): no database keeps it (issue 37). */
export const nulRefused = () => new AppError(400, 'invalid_characters', texts.sender.invalidCharacters);

/** Whether a parsed request part (a string, or objects and arrays of them) holds a NUL character anywhere. */
export function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  for (const [key, inner] of Object.entries(value)) if (key.includes('\u0000') || holdsNul(inner, depth + 1)) return true;
  return false;
}
