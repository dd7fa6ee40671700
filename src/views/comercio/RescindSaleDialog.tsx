import { Alert, Callout, HTMLTable, InputGroup, Spinner, Tag, TextArea } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { rescissionFigures, type RescindSaleMachine } from '../../machines/comercio/rescind-sale.machine';
import { CURRENCY_SYMBOL, formatMoney } from '../../lib/money';
import { formatDate } from '../../lib/dates';
import { FieldGroup } from '../shared/FieldGroup';
import { DiscardChangesAlert } from '../shared/DiscardChangesAlert';
import { useReturnFocus } from '../shared/focus-return';

/**
 * "Resolver contrato" (../../machines/comercio/rescind-sale.machine.ts; docs/domain.md
 * "Rescission"): the overdue instalments against the subdivision's number (Código Civil art.
 * 1561), the unpaid instalments with their days late, "Pagado", "Penalidad" (the subdivision's
 * percent, art. 1563; may be lowered), "Monto a devolver", the reason and the confirmation. When
 * the sale may not be resolved the reasons show and confirming repeats them.
 */
export function RescindSaleDialog({ actor }: { actor: ActorRefFrom<RescindSaleMachine> }) {
  const sale = useSelector(actor, (s) => (s.matches('idle') ? null : s.context.record));
  const preview = useSelector(actor, (s) => s.context.preview);
  const loading = useSelector(actor, (s) => s.matches('loading'));
  const running = useSelector(actor, (s) => s.matches('running'));
  const reason = useSelector(actor, (s) => s.context.reason);
  const penaltyText = useSelector(actor, (s) => s.context.penaltyText);
  const error = useSelector(actor, (s) => s.context.error);
  const confirmingDiscard = useSelector(actor, (s) => s.matches('confirmingDiscard'));
  useReturnFocus(sale !== null);
  const { paid, refund } = rescissionFigures({ preview, penaltyText });
  const currency = preview?.currency ?? sale?.currency ?? 'PEN';
  const money = (cents: number) => formatMoney(cents, currency);
  return (
    <Alert
      isOpen={sale !== null}
      intent="danger"
      icon="take-action"
      confirmButtonText="Resolver contrato"
      cancelButtonText="Cancelar"
      loading={running || loading}
      onConfirm={() => actor.send({ type: 'rescind.confirm' })}
      onCancel={() => actor.send({ type: 'rescind.cancel' })}
      canEscapeKeyCancel={!running}
      className="rescind-sale-dialog"
    >
      <p>
        {sale
          ? `¿Resolver el contrato de la venta ${sale.number} (${sale.lot.code}) por falta de pago? La venta quedará resuelta y el lote disponible.`
          : ''}
      </p>
      {loading ? <Spinner size={20} aria-label="Cargando la resolución" /> : null}
      {preview ? (
        <>
          <p data-testid="rescind-count">
            <strong>Cuotas vencidas e impagas:</strong> {preview.overdue_instalments} (la lotización exige {preview.required_overdue}, art.
            1561)
          </p>
          {preview.reasons.length > 0 ? (
            <Callout intent="warning" compact className="crm-callout">
              {preview.reasons.map((r) => (
                <p key={r}>{r}</p>
              ))}
            </Callout>
          ) : null}
          {preview.instalments.length > 0 ? (
            <HTMLTable compact striped aria-label="Cuotas impagas">
              <thead>
                <tr>
                  <th>Cuota</th>
                  <th>Vence</th>
                  <th>Pendiente</th>
                  <th>Días de atraso</th>
                </tr>
              </thead>
              <tbody>
                {preview.instalments.map((r) => (
                  <tr key={`${r.kind}-${r.number}`}>
                    <td>{r.kind === 'INICIAL' ? `Inicial ${r.number}` : `Cuota ${r.number}`}</td>
                    <td>{formatDate(r.due_date)}</td>
                    <td>{money(r.unpaid)}</td>
                    <td>
                      {r.overdue ? (
                        <Tag intent="danger" minimal>
                          {r.days_late}
                        </Tag>
                      ) : (
                        '—'
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          ) : null}
          <p>
            <strong>Pagado:</strong> <span data-testid="rescind-paid">{money(paid)}</span>
          </p>
          <FieldGroup label={`Penalidad (hasta ${preview.penalty_pct} % de lo pagado, art. 1563)`} labelFor="rescind-penalty">
            <InputGroup
              id="rescind-penalty"
              leftElement={<Tag minimal>{CURRENCY_SYMBOL[currency]}</Tag>}
              value={penaltyText}
              inputMode="decimal"
              disabled={!preview.allowed || paid === 0}
              onValueChange={(text) => actor.send({ type: 'rescind.penalty', text })}
            />
          </FieldGroup>
          <p>
            <strong>Monto a devolver:</strong> <span data-testid="rescind-refund">{money(refund)}</span>
          </p>
        </>
      ) : null}
      <FieldGroup label="Motivo de la resolución" labelFor="rescind-reason" error={error ?? undefined}>
        <TextArea
          id="rescind-reason"
          fill
          value={reason}
          onChange={(e) => actor.send({ type: 'rescind.reason', text: e.target.value })}
          aria-invalid={Boolean(error)}
        />
      </FieldGroup>
      <DiscardChangesAlert
        isOpen={confirmingDiscard}
        onDiscard={() => actor.send({ type: 'rescind.discard' })}
        onKeepEditing={() => actor.send({ type: 'rescind.keepEditing' })}
      />
    </Alert>
  );
}
