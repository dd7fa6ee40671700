import { Button, Classes, InputGroup } from '@blueprintjs/core';
import {
  COMMISSION_BASE_LABELS,
  COMMISSION_BASES,
  COMMISSION_ROLE_LABELS,
  COMMISSION_ROLES,
  COMMISSION_TRIGGER_LABELS,
  COMMISSION_TRIGGERS,
  TRANCHE_MOMENT_LABELS,
  TRANCHE_MOMENTS,
  type CommissionPolicy,
  type TrancheMoment,
} from '../../../schemas/administracion/commissions';
import { MAX_TRANCHES, nextTranche, type PolicyFormBody, type TrancheInput } from '../../../machines/administracion/policy-form';
import { HTMLSelect } from '../../shared/BlueprintEs';
import { EditorDialog } from '../../shared/EditorDialog';
import { SelectField, SwitchField, TextField } from '../../shared/FormField';
import { useResourceEditor, useResourceEditorEvents, type ResourceEditorRef } from '../../shared/resource-hooks';

type PolicyEditor = ResourceEditorRef<CommissionPolicy, PolicyFormBody, PolicyFormBody>;

/**
 * "Nueva política" / "Editar política" (docs/domain.md "Commissions"): the lotización and the rol
 * (fixed once created), the base with its figure (a percent of the net price or a fixed amount),
 * the trigger (with the percent collected when it is PORCENTAJE_COBRADO), its tranches (1 to
 * MAX_TRANCHES, each a share earned at the trigger or when the sale is CANCELADA; {@link TranchesField})
 * and whether it is active. A change applies to the sales registered after it.
 */
export function PolicyDialog({ editor, subdivisions }: { editor: PolicyEditor; subdivisions: { id: number; name: string }[] }) {
  const mode = useResourceEditor(editor, (s) => s.context.mode);
  const base = useResourceEditor(editor, (s) => s.context.values.base);
  const trigger = useResourceEditor(editor, (s) => s.context.values.trigger);
  const record = useResourceEditor(editor, (s) => s.context.record);
  return (
    <EditorDialog editor={editor} createTitle="Nueva política de comisión" editTitle="Editar política de comisión">
      {mode === 'edit' && record ? (
        <p className="commissions-policy-fixed">
          {record.subdivision.name} · {COMMISSION_ROLE_LABELS[record.role]}
        </p>
      ) : (
        <>
          <SelectField
            editor={editor}
            field="subdivision_id"
            label="Lotización"
            options={subdivisions.map((s) => ({ value: String(s.id), label: s.name }))}
          />
          <SelectField
            editor={editor}
            field="role"
            label="Rol"
            options={COMMISSION_ROLES.map((r) => ({ value: r, label: COMMISSION_ROLE_LABELS[r] }))}
          />
        </>
      )}
      <SelectField
        editor={editor}
        field="base"
        label="Base"
        options={COMMISSION_BASES.map((b) => ({ value: b, label: COMMISSION_BASE_LABELS[b] }))}
      />
      {base === 'MONTO_FIJO' ? (
        <TextField editor={editor} field="amount" label="Monto por venta" hint="En la moneda de la lotización, ej. 1500.00" />
      ) : (
        <TextField editor={editor} field="percent_bp" label="Porcentaje del precio neto (%)" hint="Ej. 3.5" />
      )}
      <SelectField
        editor={editor}
        field="trigger"
        label="Disparador"
        options={COMMISSION_TRIGGERS.map((t) => ({ value: t, label: COMMISSION_TRIGGER_LABELS[t] }))}
      />
      {trigger === 'PORCENTAJE_COBRADO' ? (
        <TextField editor={editor} field="trigger_percent_bp" label="Porcentaje cobrado del precio (%)" hint="Ej. 30" />
      ) : null}
      <TranchesField editor={editor} />
      <SwitchField editor={editor} field="active" label="Activa" />
    </EditorDialog>
  );
}

/**
 * The policy's tranches, as many as the server allows: each row its share (%) and, after the first
 * (always at the trigger, the server's rule), when it is earned; "Agregar tramo" appends one with
 * what is left to reach 100 %, "Quitar" removes one. The whole list is the editor's `tranches`
 * value, so the server's 422 on `tranches` shows under it.
 */
function TranchesField({ editor }: { editor: PolicyEditor }) {
  const tranches = useResourceEditor(editor, (s) => s.context.values.tranches as TrancheInput[]);
  const error = useResourceEditor(editor, (s) => s.context.errors.tranches);
  const busy = useResourceEditor(editor, (s) => s.matches('submitting') || s.matches('deleting'));
  const { change } = useResourceEditorEvents(editor);
  const set = (next: TrancheInput[]) => change('tranches', next);
  const update = (index: number, patch: Partial<TrancheInput>) => set(tranches.map((t, i) => (i === index ? { ...t, ...patch } : t)));
  const errorId = 'editor-tranches-error';
  return (
    <fieldset className="commissions-tranches" aria-describedby={error ? errorId : 'editor-tranches-hint'}>
      <legend className="bp6-label">Tramos</legend>
      {tranches.map((t, i) => {
        const n = i + 1;
        const id = `editor-tranche-${n}`;
        return (
          <div className="commissions-tranche" key={i}>
            <label htmlFor={id} className="commissions-tranche-label">
              Tramo {n} (%)
            </label>
            <InputGroup
              id={id}
              className="commissions-tranche-share"
              value={t.share}
              onValueChange={(share) => update(i, { share })}
              intent={error ? 'danger' : 'none'}
              disabled={busy}
              inputMode="decimal"
              aria-invalid={Boolean(error)}
            />
            {i === 0 ? (
              <span className={`commissions-tranche-at ${Classes.TEXT_MUTED}`}>{TRANCHE_MOMENT_LABELS.TRIGGER}</span>
            ) : (
              <HTMLSelect
                className="commissions-tranche-at"
                aria-label={`Momento del tramo ${n}`}
                value={t.at}
                disabled={busy}
                onChange={(e) => update(i, { at: e.currentTarget.value as TrancheMoment })}
                options={TRANCHE_MOMENTS.map((m) => ({ value: m, label: TRANCHE_MOMENT_LABELS[m] }))}
              />
            )}
            {i > 0 ? (
              <Button
                variant="minimal"
                icon="trash"
                aria-label={`Quitar tramo ${n}`}
                disabled={busy}
                onClick={() => set(tranches.filter((_, j) => j !== i))}
              />
            ) : null}
          </div>
        );
      })}
      <Button
        variant="minimal"
        icon="add"
        text="Agregar tramo"
        disabled={busy || tranches.length >= MAX_TRANCHES}
        onClick={() => set([...tranches, nextTranche(tranches)])}
      />
      <div className={`bp6-form-helper-text${error ? ' commissions-field-error' : ''}`} id={error ? errorId : 'editor-tranches-hint'}>
        {error ??
          `Hasta ${MAX_TRANCHES} tramos que suman 100 %: el primero se paga al disparador; los demás, al disparador o cuando la venta queda cancelada.`}
      </div>
    </fieldset>
  );
}
