import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Button, Callout, DialogBody, DialogFooter, FileInput, InputGroup, Radio, RadioGroup, TextArea } from '@blueprintjs/core';
import {
  dateLabelOfMove,
  fieldsOfMove,
  type TitleTransitionMachine,
  type TransitionField,
} from '../../../machines/administracion/title-transition.machine';
import { todayInLima } from '../../../lib/dates';
import { TITLE_STATE_LABELS, type TitleState } from '../../../schemas/administracion/titles';
import { Dialog, HTMLSelect } from '../../shared/BlueprintEs';
import { DiscardChangesAlert } from '../../shared/DiscardChangesAlert';
import { FieldGroup } from '../../shared/FieldGroup';
import { IsoDateInput } from '../../shared/IsoDateInput';
import { useReturnFocus } from '../../shared/focus-return';

/** Label and hint of each text field of a move. */
const FIELD_TEXT: Record<Exclude<TransitionField, 'date' | 'note' | 'amount' | 'currency'>, { label: string; hint?: string }> = {
  notary: { label: 'Notaría' },
  escritura_number: { label: 'Número de escritura' },
  titulo_number: { label: 'Número de título', hint: 'El del asiento de presentación, p. ej. 2026-01234567' },
  observation: { label: 'Observación del registrador' },
  partida: { label: 'Partida electrónica', hint: 'De 8 a 11 dígitos' },
  asiento: { label: 'Asiento' },
  delivery_reference: { label: 'Referencia del acta de entrega', hint: 'Opcional si adjunta el acta' },
};

/** Accepted by the file picker (the server sniffs the bytes anyway). */
const DELIVERY_ACCEPT = 'application/pdf,image/png,image/jpeg,image/webp';

/**
 * "Cambiar estado": the moves the process may make now (its `next_states`, the server's transitions
 * table) as radio buttons, then the fields of the state chosen — the date (dd/mm/aaaa, not after
 * today), the notary and escritura, the título number, the observation, the mayor derecho in soles
 * or dollars, the partida and asiento, the acta de entrega (a PDF or an image, ≤ 10 MB) — and a
 * note. The server's 422 messages show on their fields, a 409 above them. Closing with data asks
 * first.
 */
export function TitleTransitionDialog({ actor }: { actor: ActorRefFrom<TitleTransitionMachine> }) {
  const open = useSelector(actor, (s) => !s.matches('closed'));
  const c = useSelector(actor, (s) => s.context);
  const submitting = useSelector(actor, (s) => s.matches('submitting'));
  const uploading = useSelector(actor, (s) => s.matches({ submitting: 'uploading' }));
  const confirmingDiscard = useSelector(actor, (s) => s.matches('confirmingDiscard'));
  const close = () => actor.send({ type: 'transition.close' });
  useReturnFocus(open);
  const process = c.process;
  const next = (process?.next_states ?? []) as TitleState[];
  const fields = process && c.to ? fieldsOfMove(process.state, c.to) : [];
  const change = (field: TransitionField) => (value: string) => actor.send({ type: 'transition.changed', field, value });
  const textField = (field: keyof typeof FIELD_TEXT, multiline = false) => {
    const id = `title-move-${field}`;
    const error = c.errors[field];
    const common = {
      id,
      value: c.values[field],
      disabled: submitting,
      intent: error ? ('danger' as const) : ('none' as const),
      'aria-invalid': Boolean(error),
      'aria-describedby': error ? `${id}-error` : undefined,
    };
    return (
      <FieldGroup key={field} label={FIELD_TEXT[field].label} labelFor={id} error={error} hint={FIELD_TEXT[field].hint}>
        {multiline ? (
          <TextArea {...common} fill onChange={(e) => change(field)(e.target.value)} />
        ) : (
          <InputGroup {...common} autoComplete="off" onValueChange={change(field)} />
        )}
      </FieldGroup>
    );
  };
  return (
    <Dialog isOpen={open} onClose={submitting ? undefined : close} title="Cambiar estado" icon="exchange">
      {process ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            actor.send({ type: 'transition.submit' });
          }}
        >
          <DialogBody>
            <p className="titles-move-subject">
              {process.sale.number} · {process.lot.code}
              {process.sale.titular ? ` · ${process.sale.titular}` : ''} — hoy en «{TITLE_STATE_LABELS[process.state]}»
            </p>
            {c.error ? (
              <Callout intent="danger" className="titles-form-error">
                {c.error}
              </Callout>
            ) : null}
            {next.length === 0 ? (
              <Callout intent="primary">El trámite está entregado: no tiene más estados.</Callout>
            ) : (
              <RadioGroup
                label="Nuevo estado"
                name="title-move-to"
                selectedValue={c.to ?? undefined}
                disabled={submitting}
                onChange={(e) => actor.send({ type: 'transition.target', to: e.currentTarget.value as TitleState })}
                className="titles-move-targets"
              >
                {next.map((state) => (
                  <Radio key={state} value={state} label={TITLE_STATE_LABELS[state]} />
                ))}
              </RadioGroup>
            )}
            {c.to ? (
              <>
                <FieldGroup label={dateLabelOfMove(process.state, c.to)} labelFor="title-move-date" error={c.errors.date}>
                  <IsoDateInput
                    id="title-move-date"
                    value={c.values.date}
                    onChange={change('date')}
                    minDate={process.state_since}
                    maxDate={todayInLima()}
                    disabled={submitting}
                    hasError={Boolean(c.errors.date)}
                    describedBy={c.errors.date ? 'title-move-date-error' : undefined}
                  />
                </FieldGroup>
                {fields.includes('notary') ? textField('notary') : null}
                {fields.includes('escritura_number') ? textField('escritura_number') : null}
                {fields.includes('titulo_number') ? textField('titulo_number') : null}
                {fields.includes('observation') ? textField('observation', true) : null}
                {fields.includes('amount') ? (
                  <div className="titles-money">
                    <FieldGroup label="Mayor derecho" labelFor="title-move-amount" error={c.errors.amount}>
                      <InputGroup
                        id="title-move-amount"
                        inputMode="decimal"
                        autoComplete="off"
                        placeholder="0.00"
                        value={c.values.amount}
                        disabled={submitting}
                        intent={c.errors.amount ? 'danger' : 'none'}
                        aria-invalid={Boolean(c.errors.amount)}
                        aria-describedby={c.errors.amount ? 'title-move-amount-error' : undefined}
                        onValueChange={change('amount')}
                      />
                    </FieldGroup>
                    <FieldGroup label="Moneda" labelFor="title-move-currency" error={c.errors.currency}>
                      <HTMLSelect
                        id="title-move-currency"
                        value={c.values.currency}
                        disabled={submitting}
                        onChange={(e) => change('currency')(e.currentTarget.value)}
                        options={[
                          { value: 'PEN', label: 'Soles (S/)' },
                          { value: 'USD', label: 'Dólares (US$)' },
                        ]}
                      />
                    </FieldGroup>
                  </div>
                ) : null}
                {fields.includes('partida') ? textField('partida') : null}
                {fields.includes('asiento') ? textField('asiento') : null}
                {c.to === 'ENTREGADO' ? (
                  <FieldGroup
                    label="Acta de entrega (PDF o imagen, hasta 10 MB)"
                    labelFor="title-move-file"
                    error={c.errors.file}
                    hint={uploading ? 'Subiendo el acta…' : undefined}
                  >
                    <FileInput
                      fill
                      text={c.file ? c.file.name : 'Elegir archivo…'}
                      hasSelection={c.file !== null}
                      buttonText="Examinar"
                      disabled={submitting}
                      inputProps={{
                        id: 'title-move-file',
                        accept: DELIVERY_ACCEPT,
                        'aria-invalid': Boolean(c.errors.file),
                        'aria-describedby': c.errors.file ? 'title-move-file-error' : undefined,
                      }}
                      onInputChange={(e) =>
                        actor.send({ type: 'transition.file', file: (e.target as HTMLInputElement).files?.[0] ?? null })
                      }
                    />
                  </FieldGroup>
                ) : null}
                {fields.includes('delivery_reference') ? textField('delivery_reference') : null}
                <FieldGroup label="Nota (opcional)" labelFor="title-move-note" error={c.errors.note}>
                  <TextArea
                    id="title-move-note"
                    fill
                    value={c.values.note}
                    disabled={submitting}
                    onChange={(e) => change('note')(e.target.value)}
                  />
                </FieldGroup>
              </>
            ) : null}
          </DialogBody>
          <DialogFooter
            actions={
              <>
                <Button text="Cancelar" onClick={close} disabled={submitting} />
                <Button type="submit" intent="primary" text="Cambiar estado" loading={submitting} disabled={next.length === 0} />
              </>
            }
          />
        </form>
      ) : null}
      <DiscardChangesAlert
        isOpen={confirmingDiscard}
        onDiscard={() => actor.send({ type: 'transition.discard' })}
        onKeepEditing={() => actor.send({ type: 'transition.keepEditing' })}
      />
    </Dialog>
  );
}
