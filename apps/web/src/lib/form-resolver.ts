import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';
import type * as z from 'zod/mini';

/** One contract text per field of a form: what the user reads when that field's check has no text of its own. */
export type FieldTexts<Values> = { readonly [K in keyof Values]-?: string };

/**
 * The field's contract text for a problem the schema did not word (zod's own wording, "Invalid input: expected
 * array, received undefined", is for developers). A problem outside the named fields gets `fallback`.
 */
export function fieldText<Values>(texts: FieldTexts<Values>, fallback: string) {
  return (issue: { path?: PropertyKey[] }): string => {
    const field = issue.path?.[0];
    return typeof field === 'string' && Object.hasOwn(texts, field) ? texts[field as keyof Values] : fallback;
  };
}

/**
 * react-hook-form's zod resolver whose every message is a contract text: the schema's own texts where it words a
 * check (they take precedence), the field's text from `texts` for any other problem with that field.
 */
export function contractResolver<S extends z.ZodMiniObject>(
  schema: S,
  texts: FieldTexts<z.input<S>>,
  fallback: string,
): Resolver<z.input<S> & FieldValues, unknown, z.output<S>> {
  return zodResolver(schema, { error: fieldText(texts, fallback) });
}
