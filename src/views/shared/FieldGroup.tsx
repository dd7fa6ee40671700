import type { ReactNode } from 'react';
import { FormGroup } from '@blueprintjs/core';

/**
 * Blueprint FormGroup that shows a field's error under it (intent danger + helperText), as every
 * form of issue "Foundation" does. The error text gets the id `${labelFor}-error`, which the input
 * references with aria-describedby.
 */
export function FieldGroup({
  label,
  labelFor,
  error,
  hint,
  children,
  className,
}: {
  label: string;
  labelFor: string;
  error?: string | undefined;
  hint?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <FormGroup
      className={className}
      label={label}
      labelFor={labelFor}
      intent={error ? 'danger' : 'none'}
      helperText={error ? <span id={`${labelFor}-error`}>{error}</span> : hint}
    >
      {children}
    </FormGroup>
  );
}
