import { lazy, Suspense } from 'react';
import { Button, Callout, Classes, HTMLTable, InputGroup, Radio, RadioGroup, Spinner, TextArea } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { RescheduleSaleMachine } from '../../machines/comercio/reschedule-sale.machine';
import { formatMoney } from '../../lib/money';
import { formatDate } from '../../lib/dates';
import { LATE_FEE_CHOICE_LABELS, LATE_FEE_CHOICES, type LateFeeChoice, type ScheduleRowWire } from '../../schemas/comercio/rescissions';
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS } from '../../schemas/comercio/terms';
import { Dialog, HTMLSelect } from '../shared/BlueprintEs';
import { FieldGroup } from '../shared/FieldGroup';
import { DiscardChangesAlert } from '../shared/DiscardChangesAlert';
import { useReturnFocus } from '../shared/focus-return';

const IsoDateInput = lazy(() => import('../shared/IsoDateInput').then((m) => ({ default: m.IsoDateInput })));

/**
 * "Reprogramar" (adenda; ../../machines/comercio/reschedule-sale.machine.ts; docs/domain.md
 * "Rescheduling (adenda)"): the open balance (capital not yet paid) and the late fees owed, the
 * terms — method, instalments, monthly rate, first due date, late fees carried or waived — and
 * "Ver nuevo cronograma": the open instalments of the current schedule beside the new ones. The
 * reason, then "Reprogramar". Cancelling with something typed asks first.
 */
export function RescheduleSaleDialog({ actor }: { actor: ActorRefFrom<RescheduleSaleMachine> }) {
  const sale = useSelector(actor, (s) => (s.matches('idle') ? null : s.context.record));
  const preview = useSelector(actor, (s) => s.context.preview);
  const fields = useSelector(actor, (s) => s.context.fields);
  const reason = useSelector(actor, (s) => s.context.reason);
  const error = useSelector(actor, (s) => s.context.error);
  const busy = useSelector(actor, (s) => s.matches('loading') || s.matches('previewing') || s.matches('running'));
  const confirmingDiscard = useSelector(actor, (s) => s.matches('confirmingDiscard'));
  useReturnFocus(sale !== null);
  const currency = preview?.currency ?? sale?.currency ?? 'PEN';
  const money = (cents: number) => formatMoney(cents, currency);
  const set = (patch: Partial<typeof fields>) => actor.send({ type: 'reschedule.field', patch });
  const today = preview?.as_of ?? '';
  return (
    <Dialog
      isOpen={sale !== null}
      title={sale ? `Reprogramar la venta ${sale.number}` : 'Reprogramar'}
      icon="calendar"
      onClose={() => actor.send({ type: 'reschedule.cancel' })}
      className="reschedule-sale-dialog"
    >
      <div className={Classes.DIALOG_BODY}>
        {busy && !preview ? <Spinner size={20} aria-label="Cargando el saldo" /> : null}
        {preview ? (
          <p>
            <strong>Saldo de capital:</strong> <span data-testid="reschedule-balance">{money(preview.balance)}</span> ·{' '}
            <strong>Mora adeudada:</strong> <span data-testid="reschedule-fees">{money(preview.late_fees)}</span>
          </p>
        ) : null}
        <div className="reschedule-terms">
          <FieldGroup label="Método" labelFor="reschedule-method">
            <HTMLSelect
              id="reschedule-method"
              value={fields.method}
              onChange={(e) => set({ method: e.currentTarget.value as typeof fields.method })}
            >
              {PAYMENT_METHODS.map((m) => (
                <option key={m} value={m}>
                  {PAYMENT_METHOD_LABELS[m]}
                </option>
              ))}
            </HTMLSelect>
          </FieldGroup>
          <FieldGroup label="Cuotas" labelFor="reschedule-instalments">
            <InputGroup
              id="reschedule-instalments"
              inputMode="numeric"
              value={fields.instalments}
              onValueChange={(text) => set({ instalments: text })}
            />
          </FieldGroup>
          <FieldGroup label="Tasa mensual (%)" labelFor="reschedule-rate">
            <InputGroup id="reschedule-rate" inputMode="decimal" value={fields.rate} onValueChange={(text) => set({ rate: text })} />
          </FieldGroup>
          <FieldGroup label="Primera cuota" labelFor="reschedule-first-due">
            <Suspense fallback={<InputGroup id="reschedule-first-due" disabled />}>
              <IsoDateInput
                id="reschedule-first-due"
                value={fields.firstDueDate}
                {...(today ? { minDate: today } : {})}
                onChange={(value) => set({ firstDueDate: value })}
              />
            </Suspense>
          </FieldGroup>
        </div>
        <RadioGroup
          label="Mora adeudada"
          inline
          selectedValue={fields.lateFees}
          onChange={(e) => set({ lateFees: e.currentTarget.value as LateFeeChoice })}
        >
          {LATE_FEE_CHOICES.map((c) => (
            <Radio key={c} value={c} label={LATE_FEE_CHOICE_LABELS[c]} />
          ))}
        </RadioGroup>
        <Button icon="eye-open" text="Ver nuevo cronograma" onClick={() => actor.send({ type: 'reschedule.preview' })} loading={busy} />
        {preview ? (
          <div className="reschedule-compare">
            <div>
              <h4 className={Classes.HEADING}>Cronograma actual (cuotas abiertas)</h4>
              <RowsTable rows={preview.open_rows} money={money} label="Cronograma actual" />
            </div>
            <div>
              <h4 className={Classes.HEADING}>Nuevo cronograma</h4>
              {preview.rows.length > 0 ? (
                <>
                  <RowsTable rows={preview.rows} money={money} label="Nuevo cronograma" />
                  <p data-testid="reschedule-total">
                    Financia {money(preview.financed ?? 0)} · Intereses {money(preview.total_interest ?? 0)} · Total{' '}
                    <strong>{money(preview.total ?? 0)}</strong>
                  </p>
                </>
              ) : (
                <p className={Classes.TEXT_MUTED}>Indique los términos y pulse «Ver nuevo cronograma».</p>
              )}
            </div>
          </div>
        ) : null}
        <FieldGroup label="Motivo de la reprogramación" labelFor="reschedule-reason" error={error ?? undefined}>
          <TextArea
            id="reschedule-reason"
            fill
            value={reason}
            onChange={(e) => actor.send({ type: 'reschedule.reason', text: e.target.value })}
            aria-invalid={Boolean(error)}
          />
        </FieldGroup>
        {preview && !preview.allowed && preview.reasons.length > 0 && !error ? (
          <Callout intent="warning" compact>
            {preview.reasons[0]}
          </Callout>
        ) : null}
      </div>
      <div className={Classes.DIALOG_FOOTER}>
        <div className={Classes.DIALOG_FOOTER_ACTIONS}>
          <Button text="Cancelar" onClick={() => actor.send({ type: 'reschedule.cancel' })} />
          <Button intent="primary" text="Reprogramar" loading={busy} onClick={() => actor.send({ type: 'reschedule.confirm' })} />
        </div>
      </div>
      <DiscardChangesAlert
        isOpen={confirmingDiscard}
        onDiscard={() => actor.send({ type: 'reschedule.discard' })}
        onKeepEditing={() => actor.send({ type: 'reschedule.keepEditing' })}
      />
    </Dialog>
  );
}

function RowsTable({ rows, money, label }: { rows: readonly ScheduleRowWire[]; money: (cents: number) => string; label: string }) {
  return (
    <HTMLTable compact striped aria-label={label}>
      <thead>
        <tr>
          <th>N.º</th>
          <th>Vence</th>
          <th>Cuota</th>
          <th>Pagado</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={`${r.kind}-${r.number}`}>
            <td>{r.number}</td>
            <td>{formatDate(r.due_date)}</td>
            <td>{money(r.amount)}</td>
            <td>{money(r.paid)}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
