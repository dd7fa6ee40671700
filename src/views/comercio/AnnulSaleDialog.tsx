import { Alert, InputGroup, Radio, RadioGroup, Spinner, Tag, TextArea } from '@blueprintjs/core';
import { HTMLSelect } from '../shared/BlueprintEs';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { settlementFigures, type AnnulSaleMachine } from '../../machines/comercio/annul-sale.machine';
import { CURRENCY_SYMBOL, formatMoney } from '../../lib/money';
import { SETTLEMENT_MODE_LABELS, SETTLEMENT_MODES, type SettlementMode } from '../../schemas/comercio/sales';
import { FieldGroup } from '../shared/FieldGroup';
import { DiscardChangesAlert } from '../shared/DiscardChangesAlert';
import { useReturnFocus } from '../shared/focus-return';

/**
 * "Anular venta" (../../machines/comercio/annul-sale.machine.ts; docs/domain.md "Annulling a
 * sale"): the question, "Pagado" (the approved money on the sale) and, when something was paid,
 * the decision — "Reembolsar" or "Acreditar a otra venta" (a select of the titular's other live
 * sales), "Penalidad" and the computed "Monto a devolver" / "Monto a acreditar" — then the reason.
 * Open while the machine is not idle; its message (a missing field, the server's 409 / 422) shows
 * under the reason. "Cancelar" or Escape with something typed asks "¿Descartar los cambios?"; closing
 * gives focus back to the row's "Acciones" (docs/decisions.md "Keyboard and focus").
 */
export function AnnulSaleDialog({ actor }: { actor: ActorRefFrom<AnnulSaleMachine> }) {
  const sale = useSelector(actor, (s) => (s.matches('idle') ? null : s.context.record));
  const annulment = useSelector(actor, (s) => s.context.annulment);
  const loading = useSelector(actor, (s) => s.matches('loading'));
  const running = useSelector(actor, (s) => s.matches('running'));
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const reason = useSelector(actor, (s) => s.context.reason);
  const mode = useSelector(actor, (s) => s.context.mode);
  const penaltyText = useSelector(actor, (s) => s.context.penaltyText);
  const targetSaleId = useSelector(actor, (s) => s.context.targetSaleId);
  const error = useSelector(actor, (s) => s.context.error);
  const confirmingDiscard = useSelector(actor, (s) => s.matches('confirmingDiscard'));
  useReturnFocus(sale !== null);
  const { paid, net } = settlementFigures({ annulment, penaltyText });
  const currency = annulment?.currency ?? sale?.currency ?? 'PEN';
  const money = (cents: number) => formatMoney(cents, currency);
  return (
    <Alert
      isOpen={sale !== null}
      intent="danger"
      icon="disable"
      confirmButtonText="Anular venta"
      cancelButtonText="Cancelar"
      loading={running || loading}
      onConfirm={() => actor.send({ type: 'reason.confirm' })}
      onCancel={() => actor.send({ type: 'reason.cancel' })}
      canEscapeKeyCancel={!running}
    >
      <p>
        {sale
          ? `¿Anular la venta ${sale.number} (${sale.lot.code})? El lote quedará disponible; la venta se conserva en el historial.`
          : ''}
      </p>
      {loading ? <Spinner size={20} aria-label="Cargando lo pagado" /> : null}
      {annulment ? (
        <p>
          <strong>Pagado:</strong> <span data-testid="annul-paid">{money(paid)}</span>
        </p>
      ) : null}
      {annulment && paid > 0 ? (
        <>
          <RadioGroup
            label="¿Qué se hace con lo pagado?"
            selectedValue={mode}
            onChange={(e) => actor.send({ type: 'settlement.mode', mode: e.currentTarget.value as SettlementMode })}
            inline
          >
            {SETTLEMENT_MODES.map((m) => (
              <Radio key={m} value={m} label={SETTLEMENT_MODE_LABELS[m]} />
            ))}
          </RadioGroup>
          <FieldGroup label="Penalidad" labelFor="annul-penalty">
            <InputGroup
              id="annul-penalty"
              leftElement={<Tag minimal>{CURRENCY_SYMBOL[currency]}</Tag>}
              value={penaltyText}
              inputMode="decimal"
              onValueChange={(text) => actor.send({ type: 'settlement.penalty', text })}
            />
          </FieldGroup>
          {mode === 'CREDITO' ? (
            <FieldGroup label="Venta destino" labelFor="annul-target">
              <HTMLSelect
                id="annul-target"
                fill
                value={targetSaleId === null ? '' : String(targetSaleId)}
                onChange={(e) =>
                  actor.send({ type: 'settlement.target', id: e.currentTarget.value ? Number(e.currentTarget.value) : null })
                }
              >
                <option value="">
                  {annulment.credit_targets.length === 0 ? 'El cliente no tiene otras ventas vigentes' : 'Seleccione la venta'}
                </option>
                {annulment.credit_targets.map((t) => (
                  <option key={t.id} value={t.id}>
                    {`${t.number} · ${t.lot_code} · ${t.subdivision_name} (debe ${money(t.debt)})`}
                  </option>
                ))}
              </HTMLSelect>
            </FieldGroup>
          ) : null}
          <p>
            <strong>{mode === 'CREDITO' ? 'Monto a acreditar:' : 'Monto a devolver:'}</strong>{' '}
            <span data-testid="annul-net">{money(net)}</span>
          </p>
        </>
      ) : null}
      <FieldGroup label="Motivo de la anulación" labelFor="annul-sale-reason" error={error ?? undefined}>
        <TextArea
          id="annul-sale-reason"
          fill
          value={reason}
          disabled={failed}
          onChange={(e) => actor.send({ type: 'reason.changed', text: e.target.value })}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? 'annul-sale-reason-error' : undefined}
        />
      </FieldGroup>
      {/* Inside the question, as in a dialog: Blueprint's Alert draws in its own portal, stacked over it. */}
      <DiscardChangesAlert
        isOpen={confirmingDiscard}
        onDiscard={() => actor.send({ type: 'reason.discard' })}
        onKeepEditing={() => actor.send({ type: 'reason.keepEditing' })}
      />
    </Alert>
  );
}
