import type { ReactNode } from 'react';
import { InputGroup, Switch, TextArea } from '@blueprintjs/core';
import { HTMLSelect, NumericInput } from './BlueprintEs';
import { FieldGroup } from './FieldGroup';
import { useResourceEditor, useResourceEditorEvents, type ResourceEditorRef } from './resource-hooks';

/**
 * Form fields bound to the resource editor (issue "Configuración", the CRUD pattern): each reads
 * its value and error from the editor machine and sends `editor.changed`; the error shows under
 * the field (FieldGroup, `aria-describedby`, `aria-invalid`). Inputs are disabled while saving.
 */

interface BaseProps<R extends object, C extends object, U extends object> {
  editor: ResourceEditorRef<R, C, U>;
  field: string;
  label: string;
  /** Text (or a node, e.g. a live warning) under the field while it has no error. */
  hint?: ReactNode;
}

function useField<R extends object, C extends object, U extends object>(editor: ResourceEditorRef<R, C, U>, field: string) {
  const value = useResourceEditor(editor, (s) => s.context.values[field]);
  const error = useResourceEditor(editor, (s) => s.context.errors[field]);
  const busy = useResourceEditor(editor, (s) => s.matches('submitting') || s.matches('deleting'));
  const { change } = useResourceEditorEvents(editor);
  const id = `editor-${field}`;
  return { value, error, busy, id, change: (v: unknown) => change(field, v), describedBy: error ? `${id}-error` : undefined };
}

/** A text input (`type` email, tel, password… as needed). */
export function TextField<R extends object, C extends object, U extends object>({
  editor,
  field,
  label,
  hint,
  type = 'text',
  autoComplete,
}: BaseProps<R, C, U> & { type?: string; autoComplete?: string }) {
  const f = useField(editor, field);
  return (
    <FieldGroup label={label} labelFor={f.id} error={f.error} hint={hint}>
      <InputGroup
        id={f.id}
        type={type}
        value={String(f.value ?? '')}
        onValueChange={f.change}
        intent={f.error ? 'danger' : 'none'}
        disabled={f.busy}
        autoComplete={autoComplete}
        aria-invalid={Boolean(f.error)}
        aria-describedby={f.describedBy}
      />
    </FieldGroup>
  );
}

/** A multi-line text. */
export function TextAreaField<R extends object, C extends object, U extends object>({ editor, field, label, hint }: BaseProps<R, C, U>) {
  const f = useField(editor, field);
  return (
    <FieldGroup label={label} labelFor={f.id} error={f.error} hint={hint}>
      <TextArea
        id={f.id}
        fill
        value={String(f.value ?? '')}
        onChange={(e) => f.change(e.target.value)}
        intent={f.error ? 'danger' : 'none'}
        disabled={f.busy}
        aria-invalid={Boolean(f.error)}
        aria-describedby={f.describedBy}
      />
    </FieldGroup>
  );
}

/** A number (null when empty). */
export function NumberField<R extends object, C extends object, U extends object>({
  editor,
  field,
  label,
  hint,
  min,
  max,
}: BaseProps<R, C, U> & { min?: number; max?: number }) {
  const f = useField(editor, field);
  return (
    <FieldGroup label={label} labelFor={f.id} error={f.error} hint={hint}>
      <NumericInput
        id={f.id}
        fill
        value={f.value === null || f.value === undefined ? '' : String(f.value)}
        onValueChange={(n, text) => f.change(text.trim() === '' || Number.isNaN(n) ? null : n)}
        min={min}
        max={max}
        intent={f.error ? 'danger' : 'none'}
        disabled={f.busy}
        aria-invalid={Boolean(f.error)}
        aria-describedby={f.describedBy}
      />
    </FieldGroup>
  );
}

/** A choice among options (value strings, Spanish labels). */
export function SelectField<R extends object, C extends object, U extends object>({
  editor,
  field,
  label,
  hint,
  options,
}: BaseProps<R, C, U> & { options: readonly { value: string; label: string }[] }) {
  const f = useField(editor, field);
  return (
    <FieldGroup label={label} labelFor={f.id} error={f.error} hint={hint}>
      <HTMLSelect
        id={f.id}
        fill
        value={String(f.value ?? '')}
        onChange={(e) => f.change(e.target.value)}
        disabled={f.busy}
        options={[{ value: '', label: 'Seleccione…' }, ...options]}
        aria-invalid={Boolean(f.error)}
        aria-describedby={f.describedBy}
      />
    </FieldGroup>
  );
}

/** A yes/no switch. */
export function SwitchField<R extends object, C extends object, U extends object>({ editor, field, label, hint }: BaseProps<R, C, U>) {
  const f = useField(editor, field);
  return (
    <FieldGroup label="" labelFor={f.id} error={f.error} hint={hint}>
      <Switch id={f.id} label={label} checked={Boolean(f.value)} onChange={(e) => f.change(e.currentTarget.checked)} disabled={f.busy} />
    </FieldGroup>
  );
}
