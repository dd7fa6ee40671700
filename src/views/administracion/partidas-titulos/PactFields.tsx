import { Checkbox, TextArea } from '@blueprintjs/core';
import { FieldGroup } from '../../shared/FieldGroup';

type PactField = 'pactNote' | 'notes';

/**
 * The retention-of-title pact (Código Civil art. 1583), where it is stated and the notes of a title
 * process: the same in "Nuevo trámite" and in the process's drawer (docs/domain.md "Titles").
 * `idPrefix` keeps the two forms' ids apart (`<idPrefix>-pact-note`, `<idPrefix>-notes`).
 */
export function PactFields({
  idPrefix,
  pactLabel,
  pactStated,
  pactNote,
  notes,
  errors,
  disabled,
  onPact,
  onChange,
}: {
  idPrefix: string;
  pactLabel: string;
  pactStated: boolean;
  pactNote: string;
  notes: string;
  errors: { retention_pact_note?: string | undefined; notes?: string | undefined };
  disabled: boolean;
  onPact: (stated: boolean) => void;
  onChange: (field: PactField, value: string) => void;
}) {
  const textArea = (field: PactField, id: string, value: string, error: string | undefined) => (
    <TextArea
      id={id}
      fill
      value={value}
      disabled={disabled}
      intent={error ? 'danger' : 'none'}
      aria-invalid={Boolean(error)}
      aria-describedby={error ? `${id}-error` : undefined}
      onChange={(e) => onChange(field, e.target.value)}
    />
  );
  return (
    <>
      <Checkbox label={pactLabel} checked={pactStated} disabled={disabled} onChange={(e) => onPact(e.currentTarget.checked)} />
      {pactStated ? (
        <FieldGroup label="Dónde consta el pacto" labelFor={`${idPrefix}-pact-note`} error={errors.retention_pact_note}>
          {textArea('pactNote', `${idPrefix}-pact-note`, pactNote, errors.retention_pact_note)}
        </FieldGroup>
      ) : null}
      <FieldGroup label="Notas" labelFor={`${idPrefix}-notes`} error={errors.notes}>
        {textArea('notes', `${idPrefix}-notes`, notes, errors.notes)}
      </FieldGroup>
    </>
  );
}
