import { safeParse, type core } from 'zod/mini';
import { userText } from './user-text.ts';

/**
 * A failed API call: `message` is the server's user-facing text when it is one of the contract's texts, else the
 * caller's fallback — never a schema's developer wording or a browser's exception text.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface ErrorLike {
  error?: unknown;
  code?: unknown;
  retryAfter?: unknown;
}

async function toApiError(res: Response, fallback: string, isOwnText?: (text: unknown) => boolean): Promise<ApiError> {
  let body: ErrorLike | null = null;
  try {
    body = (await res.json()) as ErrorLike | null;
  } catch {
    // Not JSON (a proxy error page, say): the fallback text is all we can show.
  }
  // Only the contract's texts reach the user: anything else (a schema's wording, a proxy's page) is the fallback.
  const message = isOwnText?.(body?.error) ? (body?.error as string) : userText(body?.error, fallback);
  const code = typeof body?.code === 'string' ? body.code : `http_${res.status}`;
  // Seconds until the call may be repeated: the body's figure, else the `Retry-After` header (in seconds).
  const header = Number.parseInt(res.headers.get('retry-after') ?? '', 10);
  const retryAfter = typeof body?.retryAfter === 'number' ? body.retryAfter : Number.isFinite(header) ? header : undefined;
  return new ApiError(message, res.status, code, retryAfter);
}

interface RequestOptions<T> {
  /** Text shown when the server gives none (the spec's fallback for this call). */
  fallbackError: string;
  schema: core.$ZodType<T>;
  signal?: AbortSignal;
  /**
   * Further contract texts this call's errors may carry, beyond the shared ones `userText` knows (a feature's own
   * texts, kept out of the shared bundle).
   */
  isOwnText?: (text: unknown) => boolean;
}

/** The one way the web app calls the API: same-origin, cookies included, JSON or FormData bodies. */
export async function apiRequest<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body: unknown,
  { fallbackError, schema, signal, isOwnText }: RequestOptions<T>,
): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', signal };
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { 'content-type': 'application/json' };
  }
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(fallbackError, 0, 'network_error');
  }
  if (!res.ok) throw await toApiError(res, fallbackError, isOwnText);
  let json: unknown;
  try {
    json = await res.json();
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    // Not JSON (an HTML page where an answer was expected): the parser's text is not for the user.
    throw new ApiError(fallbackError, res.status, 'bad_response');
  }
  const parsed = safeParse(schema, json);
  if (!parsed.success) throw new ApiError(fallbackError, res.status, 'bad_response');
  return parsed.data;
}
