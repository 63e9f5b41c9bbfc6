import { forwardRef, type InputHTMLAttributes } from 'react';
import { controlAttributes, FieldShell, useFieldIds, type FieldProps } from './field.tsx';

export type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & FieldProps;

/** A labelled input with its hint and error wired up through aria-describedby. */
export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField(
  { label, error, hint, compact, announceError, id, className, ...rest },
  ref,
) {
  const ids = useFieldIds(id, { hint, error });
  return (
    <FieldShell {...ids} label={label} hint={hint} error={error} announceError={announceError}>
      <input ref={ref} {...controlAttributes(ids, { error, compact }, className)} {...rest} />
    </FieldShell>
  );
});
