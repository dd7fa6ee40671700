import { lazy, Suspense } from 'react';
import { Checkbox, InputGroup } from '@blueprintjs/core';
import { FieldGroup } from './FieldGroup';
import { useResourceEditor, useResourceEditorEvents, type ResourceEditorRef } from './resource-hooks';

/**
 * Editor fields beyond src/views/shared/FormField.tsx (first written for Proyectos, shared since the
 * CRM forms use them too): a checkbox, an ISO date and a text with suggestions, bound to the resource editor (same contract: value and error from the machine,
 * `editor.changed` on input, disabled while saving).
 */

// The date picker (@blueprintjs/datetime, react-day-picker, date-fns: ~38 KB gzip) is fetched when a
// form with a date opens, not with its screen (issue "Production grade", Lighthouse).
const IsoDateInput = lazy(() => import('./IsoDateInput').then((m) => ({ default: m.IsoDateInput })));

function useBound<R extends object, C extends object, U extends object>(editor: ResourceEditorRef<R, C, U>, field: string) {
  const value = useResourceEditor(editor, (s) => s.context.values[field]);
  const error = useResourceEditor(editor, (s) => s.context.errors[field]);
  const busy = useResourceEditor(editor, (s) => s.matches('submitting') || s.matches('deleting'));
  const { change } = useResourceEditorEvents(editor);
  return { value, error, busy, id: `editor-${field}`, change: (v: unknown) => change(field, v) };
}

/** A yes/no checkbox ("Publicado en web"). */
export function CheckboxField<R extends object, C extends object, U extends object>({
  editor,
  field,
  label,
}: {
  editor: ResourceEditorRef<R, C, U>;
  field: string;
  label: string;
}) {
  const f = useBound(editor, field);
  return (
    <FieldGroup label="" labelFor={f.id} error={f.error}>
      <Checkbox id={f.id} label={label} checked={Boolean(f.value)} disabled={f.busy} onChange={(e) => f.change(e.currentTarget.checked)} />
    </FieldGroup>
  );
}

/** An ISO date (`YYYY-MM-DD`, '' when empty) with the app's Spanish date input. */
export function DateField<R extends object, C extends object, U extends object>({
  editor,
  field,
  label,
  minDate,
  maxDate,
}: {
  editor: ResourceEditorRef<R, C, U>;
  field: string;
  label: string;
  minDate: string;
  maxDate: string;
}) {
  const f = useBound(editor, field);
  return (
    <FieldGroup label={label} labelFor={f.id} error={f.error}>
      <Suspense fallback={<InputGroup id={f.id} disabled value={String(f.value ?? '')} placeholder="dd/mm/aaaa" readOnly />}>
        <IsoDateInput
          id={f.id}
          value={String(f.value ?? '')}
          onChange={f.change}
          minDate={minDate}
          maxDate={maxDate}
          disabled={f.busy}
          hasError={Boolean(f.error)}
          describedBy={f.error ? `${f.id}-error` : undefined}
        />
      </Suspense>
    </FieldGroup>
  );
}

/** Form text → body value: trimmed text, '' → null. */
export const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/** A text input with the browser's suggestions from a `<datalist id={listId}>` (any other text is accepted). */
export function SuggestTextField<R extends object, C extends object, U extends object>({
  editor,
  field,
  label,
  hint,
  listId,
}: {
  editor: ResourceEditorRef<R, C, U>;
  field: string;
  label: string;
  hint?: string;
  listId: string;
}) {
  const f = useBound(editor, field);
  return (
    <FieldGroup label={label} labelFor={f.id} error={f.error} hint={hint}>
      <InputGroup
        id={f.id}
        list={listId}
        autoComplete="off"
        value={String(f.value ?? '')}
        onValueChange={f.change}
        intent={f.error ? 'danger' : 'none'}
        disabled={f.busy}
        aria-invalid={Boolean(f.error)}
        aria-describedby={f.error ? `${f.id}-error` : undefined}
      />
    </FieldGroup>
  );
}
