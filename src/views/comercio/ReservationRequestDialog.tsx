import { Button, Callout, Classes, DialogBody, DialogFooter, HTMLTable, TextArea } from '@blueprintjs/core';
import { Dialog, NumericInput } from '../shared/BlueprintEs';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { ReservationRequestMachine } from '../../machines/comercio/reservation-request.machine';
import { formatMoney } from '../../lib/money';
import { formatDate } from '../../lib/dates';
import { FieldGroup } from '../shared/FieldGroup';
import { DiscardChangesAlert } from '../shared/DiscardChangesAlert';
import { useReturnFocus } from '../shared/focus-return';
import '../../styles/comercio.css';

/**
 * "Solicitar separación" for a signed-in customer (issue "CRM and sales"): the interest-free
 * simulation of the lot's public price (down payment % and instalments; the agent confirms the
 * real terms), an optional message, and "Enviar solicitud" — the machine
 * (comercio/reservation-request.machine.ts) sends it and shows the server's answer. Closing with
 * typed data asks "¿Descartar los cambios?"; closing gives focus back to the trigger
 * (docs/decisions.md "Keyboard and focus").
 */
export function ReservationRequestDialog({ actor }: { actor: ActorRefFrom<ReservationRequestMachine> }) {
  const open = useSelector(actor, (s) => !s.matches('closed'));
  const confirmingDiscard = useSelector(actor, (s) => s.matches('confirmingDiscard'));
  useReturnFocus(open);
  const busy = useSelector(actor, (s) => s.matches('submitting'));
  const sent = useSelector(actor, (s) => (s.matches('sent') ? s.context.sentMessage : null));
  const lot = useSelector(actor, (s) => s.context.lot);
  const downPercent = useSelector(actor, (s) => s.context.downPercent);
  const instalments = useSelector(actor, (s) => s.context.instalments);
  const message = useSelector(actor, (s) => s.context.message);
  const plan = useSelector(actor, (s) => s.context.plan);
  const error = useSelector(actor, (s) => s.context.error);
  const close = () => actor.send({ type: 'request.close' });
  const money = (cents: number) => formatMoney(cents, lot?.currency ?? 'PEN');
  const first = plan?.schedule[0];
  return (
    <Dialog
      isOpen={open}
      onClose={close}
      title={lot ? `Solicitar separación del lote ${lot.code}` : 'Solicitar separación'}
      canOutsideClickClose={false}
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          actor.send({ type: 'request.submit' });
        }}
      >
        <DialogBody>
          {sent ? (
            <Callout intent="success" icon="tick-circle" role="status">
              {sent}
            </Callout>
          ) : (
            <>
              {error ? (
                <Callout intent="danger" role="alert" className="editor-form-error">
                  {error}
                </Callout>
              ) : null}
              <div className="form-grid">
                <FieldGroup label="Cuota inicial (%)" labelFor="request-down">
                  <NumericInput
                    id="request-down"
                    fill
                    min={0}
                    max={100}
                    value={downPercent}
                    disabled={busy || instalments === 0}
                    onValueChange={(n) => actor.send({ type: 'request.changed', downPercent: Number.isNaN(n) ? 0 : n })}
                  />
                </FieldGroup>
                <FieldGroup label="Cuotas mensuales" labelFor="request-instalments" hint="0 = al contado">
                  <NumericInput
                    id="request-instalments"
                    fill
                    min={0}
                    max={360}
                    value={instalments}
                    disabled={busy}
                    onValueChange={(n) => actor.send({ type: 'request.changed', instalments: Number.isNaN(n) ? 0 : n })}
                  />
                </FieldGroup>
              </div>
              {plan ? (
                <HTMLTable compact aria-label="Simulación" className="request-simulation">
                  <tbody>
                    <tr>
                      <th>Precio</th>
                      <td className="num">{money(plan.finalPriceCents)}</td>
                    </tr>
                    <tr>
                      <th>Cuota inicial</th>
                      <td className="num">{money(plan.downPaymentCents)}</td>
                    </tr>
                    {first ? (
                      <tr>
                        <th>
                          {plan.schedule.length} cuotas desde el {formatDate(first.dueDate.toString())}
                        </th>
                        <td className="num">{money(first.amountCents)}</td>
                      </tr>
                    ) : null}
                  </tbody>
                </HTMLTable>
              ) : (
                <p className={Classes.TEXT_MUTED}>El precio de este lote se informa al solicitarlo.</p>
              )}
              <p className={Classes.TEXT_MUTED}>Simulación referencial sin intereses: el asesor le confirmará las condiciones.</p>
              <FieldGroup label="Mensaje (opcional)" labelFor="request-message">
                <TextArea
                  id="request-message"
                  fill
                  maxLength={500}
                  value={message}
                  disabled={busy}
                  onChange={(e) => actor.send({ type: 'request.changed', message: e.target.value })}
                />
              </FieldGroup>
            </>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            sent ? (
              <Button intent="primary" text="Cerrar" onClick={close} />
            ) : (
              <>
                <Button text="Cancelar" onClick={close} disabled={busy} />
                <Button type="submit" intent="primary" icon="send-message" text="Enviar solicitud" loading={busy} />
              </>
            )
          }
        />
      </form>
      {/* Blueprint's Alert draws in its own portal, stacked over the dialog. */}
      <DiscardChangesAlert
        isOpen={confirmingDiscard}
        onDiscard={() => actor.send({ type: 'request.discard' })}
        onKeepEditing={() => actor.send({ type: 'request.keepEditing' })}
      />
    </Dialog>
  );
}
