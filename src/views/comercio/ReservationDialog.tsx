import { Button, Callout, Checkbox, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { Dialog, NumericInput } from '../shared/BlueprintEs';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { ReservationFormMachine } from '../../machines/comercio/reservation-form.machine';
import { HOLD_DAYS, RESERVATION_CONDITIONS } from '../../schemas/comercio/reservations';
import { FieldGroup } from '../shared/FieldGroup';
import { CustomerSuggest } from '../shared/CustomerSuggest';
import { DiscardChangesAlert } from '../shared/DiscardChangesAlert';
import { useReturnFocus } from '../shared/focus-return';

/** Currency symbols of the amount field. */
const SYMBOL = { PEN: 'S/', USD: 'US$' } as const;

/**
 * "Separar lote" (issue "CRM and sales"): the reservation dialog over its machine
 * (comercio/reservation-form.machine.ts). Customer by search, amount in the subdivision's
 * currency, hold days, and the conditions shown in full with the box the customer's acceptance
 * ticks (consumer code art. 77.2.f: the terms before signing). Renders only state and sends events.
 * Closing with typed data asks "¿Descartar los cambios?"; closing gives focus back to the trigger
 * (docs/decisions.md "Keyboard and focus").
 */
export function ReservationDialog({ actor }: { actor: ActorRefFrom<ReservationFormMachine> }) {
  const open = useSelector(actor, (s) => !s.matches('closed'));
  const confirmingDiscard = useSelector(actor, (s) => s.matches('confirmingDiscard'));
  useReturnFocus(open);
  const busy = useSelector(actor, (s) => s.matches('submitting'));
  const lot = useSelector(actor, (s) => s.context.lot);
  const customer = useSelector(actor, (s) => s.context.customer);
  const amountText = useSelector(actor, (s) => s.context.amountText);
  const holdDays = useSelector(actor, (s) => s.context.holdDays);
  const accepted = useSelector(actor, (s) => s.context.accepted);
  const errors = useSelector(actor, (s) => s.context.errors);
  const formError = useSelector(actor, (s) => s.context.formError);
  const lookup = useSelector(actor, (s) => s.context.customers);
  const close = () => actor.send({ type: 'reserve.close' });
  return (
    <Dialog
      isOpen={open}
      onClose={close}
      title={lot ? `Separar lote ${lot.code}` : 'Separar lote'}
      canEscapeKeyClose={!busy}
      canOutsideClickClose={false}
      isCloseButtonShown={!busy}
      className="editor-dialog"
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          actor.send({ type: 'reserve.submit' });
        }}
      >
        <DialogBody>
          {formError ? (
            <Callout intent="danger" role="alert" className="editor-form-error">
              {formError}
            </Callout>
          ) : null}
          <FieldGroup label="Cliente" labelFor="reservation-customer" error={errors.customer_id} hint="Busque por nombre o documento">
            <CustomerSuggest
              id="reservation-customer"
              lookup={lookup}
              selected={customer}
              onSelect={(c) => actor.send({ type: 'reserve.customer', customer: c })}
              disabled={busy}
              invalid={Boolean(errors.customer_id)}
            />
          </FieldGroup>
          <div className="form-grid">
            <FieldGroup label="Monto de la separación" labelFor="reservation-amount" error={errors.amount}>
              <InputGroup
                id="reservation-amount"
                inputMode="decimal"
                leftElement={<span className="reservation-currency">{lot ? SYMBOL[lot.currency] : ''}</span>}
                value={amountText}
                onValueChange={(v) => actor.send({ type: 'reserve.amount', text: v })}
                disabled={busy}
                intent={errors.amount ? 'danger' : 'none'}
                aria-invalid={Boolean(errors.amount)}
              />
            </FieldGroup>
            <FieldGroup label="Días de separación" labelFor="reservation-days" error={errors.hold_days}>
              <NumericInput
                id="reservation-days"
                fill
                min={HOLD_DAYS.min}
                max={HOLD_DAYS.max}
                value={holdDays}
                onValueChange={(n) => actor.send({ type: 'reserve.holdDays', days: Number.isNaN(n) ? HOLD_DAYS.default : n })}
                disabled={busy}
              />
            </FieldGroup>
          </div>
          <FormGroup label="Condiciones de la separación">
            <p className="reservation-conditions">{RESERVATION_CONDITIONS(holdDays)}</p>
          </FormGroup>
          <FieldGroup label="" labelFor="reservation-accept" error={errors.conditions_accepted}>
            <Checkbox
              id="reservation-accept"
              label="El cliente leyó y acepta las condiciones"
              checked={accepted}
              disabled={busy}
              onChange={(e) => actor.send({ type: 'reserve.accept', accepted: e.currentTarget.checked })}
            />
          </FieldGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancelar" onClick={close} disabled={busy} />
              <Button type="submit" intent="primary" text="Separar" loading={busy} />
            </>
          }
        />
      </form>
      {/* Blueprint's Alert draws in its own portal, stacked over the dialog. */}
      <DiscardChangesAlert
        isOpen={confirmingDiscard}
        onDiscard={() => actor.send({ type: 'reserve.discard' })}
        onKeepEditing={() => actor.send({ type: 'reserve.keepEditing' })}
      />
    </Dialog>
  );
}
