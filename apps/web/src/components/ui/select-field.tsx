import { forwardRef, type SelectHTMLAttributes } from 'react';
import { controlAttributes, FieldShell, useFieldIds, type FieldProps } from './field.tsx';

export type SelectFieldProps = SelectHTMLAttributes<HTMLSelectElement> & FieldProps;

/** A labelled native select (the phone's own picker) with its hint and error wired up like TextField's. */
export const SelectField = forwardRef<HTMLSelectElement, SelectFieldProps>(function SelectField(
  { label, error, hint, compact, announceError, id, className, children, ...rest },
  ref,
) {
  const ids = useFieldIds(id, { hint, error });
  return (
    <FieldShell {...ids} label={label} hint={hint} error={error} announceError={announceError}>
      <select ref={ref} {...controlAttributes(ids, { error, compact }, className)} {...rest}>
        {children}
      </select>
    </FieldShell>
  );
});
