import fastifyMultipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, holdsNul, nulRefused } from './errors.ts';

/**
 * Declares the calls that take a multipart body, in a scope of their own with @fastify/multipart: registered for
 * the whole app it adds an async onResponse hook to every call (decision 032). Any other call refuses a
 * multipart body with 415, like every body type it does not take.
 */
export function multipartRoutes(app: FastifyInstance, declare: (scope: FastifyInstance) => void): void {
  void app.register(async (scope) => {
    await scope.register(fastifyMultipart);
    declare(scope);
  });
}

export interface MultipartLimits {
  fileSize: number;
  files: number;
  fields: number;
  fieldSize: number;
}

/**
 * The caller's answers: a body that is not (well-formed) multipart, a file over the limit, too many parts, and a
 * text field (or its name) over `fieldSize`: `field` is its name, `fields` every field read, that one as cut.
 */
export interface MultipartRefusals {
  invalid: () => AppError;
  fileTooLarge: () => AppError;
  tooMany: () => AppError;
  fieldTooLong: (field: string, fields: Record<string, string>) => AppError;
}

/**
 * Whose fault a failure while reading a part is: file-system errors (they name a syscall) are ours; anything
 * else the part's stream raises (a limit, a truncated or malformed body) is the client's.
 */
const isOwnFailure = (err: unknown) => typeof (err as { syscall?: unknown } | null)?.syscall === 'string';

/**
 * The one way to read a multipart body: text fields into a record; each file goes to `onFile`, and a file it
 * leaves unread is drained so the parts keep coming. Anything wrong with the body itself (no boundary, a
 * truncated part, a limit passed) is the caller's 4xx, never a 500. A field over the size limit is refused once
 * the whole body is read (so the refusal can see the other fields), never kept cut.
 */
export async function readMultipart(
  request: FastifyRequest,
  limits: MultipartLimits,
  refuse: MultipartRefusals,
  onFile: (part: MultipartFile) => Promise<void>,
): Promise<Record<string, string>> {
  if (!request.isMultipart()) throw refuse.invalid();
  const fields: Record<string, string> = {};
  let tooLong: string | undefined;
  try {
    for await (const part of request.parts({ limits })) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        if (part.valueTruncated || part.fieldnameTruncated) tooLong ??= part.fieldname;
        continue;
      }
      await onFile(part);
      if (!part.file.readableEnded) part.file.resume();
    }
  } catch (err) {
    if (err instanceof AppError || isOwnFailure(err)) throw err;
    const { code, statusCode } = err as { code?: unknown; statusCode?: unknown };
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw refuse.fileTooLarge();
    if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') throw refuse.tooMany();
    // busboy's own complaints ("Multipart: Boundary not found", "Unexpected end of form") carry no status.
    if (typeof statusCode !== 'number' || statusCode < 500) throw refuse.invalid();
    throw err;
  }
  if (tooLong !== undefined) throw refuse.fieldTooLong(tooLong, fields);
  if (holdsNul(fields)) throw nulRefused();
  return fields;
}
