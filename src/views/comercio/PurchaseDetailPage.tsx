import { use } from 'react';
import { useSearch } from 'wouter';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom, AnyActorRef } from 'xstate';
import { Button, Callout, Classes, DialogBody, DialogFooter, HTMLTable, NonIdealState, Spinner, Tag, type Intent } from '@blueprintjs/core';
import { Dialog } from '../shared/BlueprintEs';
import type { PurchasesMachines } from '../../machines/comercio/purchases.actors';
import type { PagoYapeMachine } from '../../machines/comercio/pago-yape.machine';
import { inspectOption } from '../../machines/inspect';
import { formatMoney } from '../../lib/money';
import { formatDate } from '../../lib/dates';
import { PAYMENT_METHOD_LABELS, PAYMENT_STATUS_LABELS, type PaymentMethod, type PaymentStatus } from '../../schemas/finanzas/payments';
import type { PaymentBankAccount, PurchaseDetail, StatementInstalment } from '../../schemas/comercio/purchases';
import { customerMapPath } from '../mapas/customer-map-path';
import { useServices, useSession } from '../services';
import { instalmentLabel, saleStatusLabel } from './MyPurchasesPage';
import { PagoYapeDialog } from './PagoYapeDialog';
import { useReturnFocus } from '../shared/focus-return';
import { ScrollRegion } from '../shared/ScrollRegion';
import '../../styles/purchases.css';

/** The sale id of `?venta=` (docs/decisions.md "Customer purchases"), or null when absent or not a positive integer. */
export function saleIdFromSearch(search: string): number | null {
  const raw = new URLSearchParams(search).get('venta') ?? '';
  return /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : null;
}

const INSTALMENT_STATUS: Record<StatementInstalment['status'], { label: string; intent: Intent }> = {
  PAGADA: { label: 'Pagada', intent: 'success' },
  PARCIAL: { label: 'Parcial', intent: 'warning' },
  PENDIENTE: { label: 'Pendiente', intent: 'none' },
  VENCIDA: { label: 'Vencida', intent: 'danger' },
};
const PAYMENT_STATUS_INTENT: Record<PaymentStatus, Intent> = {
  PENDIENTE: 'warning',
  APROBADO: 'success',
  RECHAZADO: 'danger',
  ANULADO: 'none',
};
/** The icon of the notice after PagoYape, by its intent. */
const NOTICE_ICONS = { success: 'tick-circle', warning: 'warning-sign' } as const;
const ACCOUNT_KIND_LABELS: Record<string, string> = { AHORROS: 'Ahorros', CORRIENTE: 'Corriente' };

/**
 * Comercial → Detalle de Compra (/COMERCIO/DetalleCompra?venta={id}; issue 16 "Customer screens"):
 * the statement of one of the customer's purchases — figures, the schedule with paid / pending /
 * overdue rows, days late and late fees, the payments with their state and receipts, the lot on
 * the plan — and "Pagar": PagoYape, or the company's bank accounts with their CCI.
 */
export function PurchaseDetailScreen() {
  const machines = use(useServices().machines.purchases());
  const id = saleIdFromSearch(useSearch());
  const notifications = useSession((s) => s.children.notifications) ?? null;
  if (id === null)
    return (
      <section className="purchases-page">
        <NonIdealState icon="search" title="Compra no encontrada" description="Elija una compra en Mis Compras." />
      </section>
    );
  return <PurchaseDetailPage key={`${id}-${notifications?.id ?? ''}`} machines={machines} saleId={id} notifications={notifications} />;
}

export function PurchaseDetailPage({
  machines,
  saleId,
  notifications = null,
}: {
  machines: Pick<PurchasesMachines, 'detail'>;
  saleId: number;
  /** The session's notifications actor: a PAYMENT notification reloads the statement. */
  notifications?: AnyActorRef | null;
}) {
  const { navigate, today } = useServices();
  const actor = useActorRef(machines.detail, { input: { id: saleId, today: today(), notifications }, ...inspectOption() });
  const purchase = useSelector(actor, (s) => s.context.purchase);
  const loading = useSelector(actor, (s) => s.matches({ statement: 'loading' }));
  const error = useSelector(actor, (s) => s.context.error);
  const notice = useSelector(actor, (s) => s.context.notice);
  const options = useSelector(actor, (s) => s.context.options);
  const optionsError = useSelector(actor, (s) => s.context.optionsError);
  const receiptId = useSelector(actor, (s) => s.context.receiptPaymentId);
  const contractDownloading = useSelector(actor, (s) => s.matches({ contractPdf: 'downloading' }));
  const bankOpen = useSelector(actor, (s) => s.matches({ payment: 'bank' }));
  const pagoYape = useSelector(actor, (s) => s.children.pagoYape as ActorRefFrom<PagoYapeMachine> | undefined);
  return (
    <section className="purchases-page" aria-labelledby="detalle-compra-title">
      <Button variant="minimal" icon="arrow-left" text="Mis Compras" onClick={() => navigate('/COMERCIO/MisCompras')} />
      <h1 id="detalle-compra-title" className="bp6-heading purchases-title">
        {purchase ? `Lote ${purchase.lot_code}` : 'Detalle de Compra'}
      </h1>
      {purchase ? (
        <p className={Classes.TEXT_MUTED}>
          {purchase.subdivision_name} · {purchase.number} · comprado el {formatDate(purchase.sale_date)}{' '}
          <Tag minimal round intent={purchase.status === 'CANCELADA' ? 'success' : 'primary'}>
            {saleStatusLabel(purchase.status)}
          </Tag>
        </p>
      ) : null}
      {notice ? (
        <Callout intent={notice.intent} role="status" icon={NOTICE_ICONS[notice.intent]} className="purchases-callout">
          {notice.text} <Button variant="minimal" size="small" text="Entendido" onClick={() => actor.send({ type: 'notice.dismiss' })} />
        </Callout>
      ) : null}
      {loading && !purchase ? <Spinner size={32} aria-label="Cargando" /> : null}
      {error ? (
        <Callout intent="danger" role="alert" className="purchases-callout">
          {error} <Button variant="minimal" size="small" text="Reintentar" onClick={() => actor.send({ type: 'detail.retry' })} />
        </Callout>
      ) : null}
      {purchase ? (
        <>
          <Summary purchase={purchase} />
          <div className="purchase-actions">
            <Button
              intent="primary"
              icon="mobile-phone"
              text="Pagar con Yape o Plin"
              disabled={purchase.next_instalment === null || !options || options.wallets.length === 0}
              onClick={() => actor.send({ type: 'pay.yape' })}
            />
            <Button
              icon="bank-account"
              text="Pagar por transferencia"
              disabled={!options}
              onClick={() => actor.send({ type: 'pay.bank' })}
            />
            {purchase.map ? (
              <Button
                icon="map"
                text="Ver en el plano"
                // The map opens on the customer's own lot (highlighted, its panel open).
                onClick={() =>
                  navigate(customerMapPath(purchase.map!.subdivision_name, purchase.map!.subdivision_key, purchase.map!.lot_code))
                }
              />
            ) : null}
            {purchase.contract_pdf_url ? (
              <Button
                icon="document"
                text="Descargar contrato"
                loading={contractDownloading}
                onClick={() => actor.send({ type: 'contract.download' })}
              />
            ) : null}
          </div>
          {optionsError ? (
            <Callout intent="warning" className="purchases-callout">
              No se pudieron cargar los medios de pago: {optionsError}{' '}
              <Button variant="minimal" size="small" text="Reintentar" onClick={() => actor.send({ type: 'options.retry' })} />
            </Callout>
          ) : null}
          <Schedule purchase={purchase} />
          <Payments purchase={purchase} receiptId={receiptId} onReceipt={(payment) => actor.send({ type: 'receipt.download', payment })} />
        </>
      ) : null}
      {pagoYape ? <PagoYapeDialog actor={pagoYape} /> : null}
      <BankAccountsDialog
        open={bankOpen}
        accounts={options?.bank_accounts ?? []}
        onClose={() => actor.send({ type: 'pay.close' })}
        currency={purchase?.currency ?? 'PEN'}
      />
    </section>
  );
}

/** Price, paid, balance, late fees and the next instalment. */
function Summary({ purchase: p }: { purchase: PurchaseDetail }) {
  const money = (cents: number) => formatMoney(cents, p.currency);
  return (
    <dl className="purchase-summary" aria-label="Resumen">
      <div>
        <dt>Precio total</dt>
        <dd>{money(p.total)}</dd>
      </div>
      <div>
        <dt>Pagado</dt>
        <dd>{money(p.paid)}</dd>
      </div>
      <div>
        <dt>Saldo</dt>
        <dd>{money(p.balance)}</dd>
      </div>
      <div>
        <dt>Mora pendiente</dt>
        <dd className={p.late_fee_due > 0 ? 'purchase-summary__late' : undefined}>{money(p.late_fee_due)}</dd>
      </div>
      <div className="purchase-summary__next">
        <dt>Próxima cuota</dt>
        <dd>
          {p.next_instalment
            ? `${instalmentLabel(p.next_instalment)} · ${formatDate(p.next_instalment.due_date)} · ${money(p.next_instalment.amount_due)}`
            : 'Sin cuotas pendientes'}
        </dd>
      </div>
    </dl>
  );
}

/** "generada S/ 440.00 · pagada S/ 5.00 · condonada S/ 2.00" (the parts that are not zero). */
function lateFeeDetail(row: StatementInstalment, money: (cents: number) => string): string {
  return [
    `generada ${money(row.late_fee_accrued)}`,
    row.late_fee_paid > 0 ? `pagada ${money(row.late_fee_paid)}` : null,
    row.late_fee_waived > 0 ? `condonada ${money(row.late_fee_waived)}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** The schedule: one row per instalment with its state, days late and late fee (what is owed, and what was accrued, paid and waived). */
function Schedule({ purchase: p }: { purchase: PurchaseDetail }) {
  const money = (cents: number) => formatMoney(cents, p.currency);
  return (
    <section aria-labelledby="cronograma-title" className="purchase-section">
      <h2 id="cronograma-title" className={Classes.HEADING}>
        Cronograma
      </h2>
      <ScrollRegion className="purchase-table-scroll" label="Tabla: Cronograma">
        <HTMLTable compact striped aria-labelledby="cronograma-title" className="purchase-table">
          <thead>
            <tr>
              <th>Cuota</th>
              <th>Vence</th>
              <th>Estado</th>
              <th className="num">Saldo</th>
              <th className="num">Monto</th>
              <th className="num">Pagado</th>
              <th className="num">Atraso</th>
              <th className="num">Mora pendiente</th>
            </tr>
          </thead>
          <tbody>
            {p.schedule.map((row) => {
              const status = INSTALMENT_STATUS[row.status];
              return (
                <tr key={row.id} className={row.status === 'VENCIDA' ? 'purchase-row--late' : undefined}>
                  <td className="nowrap">{instalmentLabel(row)}</td>
                  <td>{formatDate(row.due_date)}</td>
                  <td>
                    <Tag minimal intent={status.intent}>
                      {status.label}
                    </Tag>
                  </td>
                  <td className="num">{money(row.balance)}</td>
                  <td className="num">{money(row.amount)}</td>
                  <td className="num">{money(row.paid)}</td>
                  <td className="num">{row.days_late > 0 ? (row.days_late === 1 ? '1 día' : `${row.days_late} días`) : '—'}</td>
                  <td className="num">
                    {row.late_fee_accrued > 0 ? (
                      <>
                        {row.late_fee_due > 0 ? <strong>{money(row.late_fee_due)}</strong> : money(0)}
                        <div className="purchase-fee-detail">{lateFeeDetail(row, money)}</div>
                      </>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </HTMLTable>
      </ScrollRegion>
    </section>
  );
}

/** The payments with their state, reason when rejected, and the receipt once approved. */
function Payments({
  purchase: p,
  receiptId,
  onReceipt,
}: {
  purchase: PurchaseDetail;
  receiptId: number | null;
  onReceipt: (payment: PurchaseDetail['payments'][number]) => void;
}) {
  return (
    <section aria-labelledby="pagos-title" className="purchase-section">
      <h2 id="pagos-title" className={Classes.HEADING}>
        Pagos
      </h2>
      {p.payments.length === 0 ? (
        <p className={Classes.TEXT_MUTED}>Aún no hay pagos registrados.</p>
      ) : (
        <ScrollRegion className="purchase-table-scroll" label="Tabla: Pagos">
          <HTMLTable compact striped aria-labelledby="pagos-title" className="purchase-table purchase-payments">
            <thead>
              <tr>
                <th>Fecha</th>
                <th className="num purchase-col--secondary">Monto</th>
                <th>Estado</th>
                <th>Recibo</th>
                <th className="purchase-col--secondary">Medio</th>
                <th className="purchase-col--secondary">N.° de operación</th>
              </tr>
            </thead>
            <tbody>
              {p.payments.map((payment) => (
                <tr key={payment.id}>
                  <td>
                    {formatDate(payment.operation_date)}
                    {/* On a phone the secondary columns fold into this cell, so "Recibo" is in view without scrolling. */}
                    <dl className="purchase-folded">
                      <div>
                        <dt>Monto</dt>
                        <dd>{formatMoney(payment.amount, payment.currency)}</dd>
                      </div>
                      <div>
                        <dt>Medio</dt>
                        <dd>{PAYMENT_METHOD_LABELS[payment.method as PaymentMethod] ?? payment.method}</dd>
                      </div>
                      {payment.operation_number ? (
                        <div>
                          <dt>N.° de operación</dt>
                          <dd>{payment.operation_number}</dd>
                        </div>
                      ) : null}
                    </dl>
                  </td>
                  <td className="num purchase-col--secondary">{formatMoney(payment.amount, payment.currency)}</td>
                  <td>
                    <Tag minimal intent={PAYMENT_STATUS_INTENT[payment.status]}>
                      {payment.status === 'PENDIENTE' ? 'Pendiente de revisión' : PAYMENT_STATUS_LABELS[payment.status]}
                    </Tag>
                    {payment.reject_reason ? <div className="purchase-reason">Motivo: {payment.reject_reason}</div> : null}
                  </td>
                  <td>
                    {payment.receipt_url ? (
                      <Button
                        size="small"
                        icon="download"
                        text={payment.receipt_number ?? 'Recibo'}
                        aria-label={`Descargar recibo ${payment.receipt_number ?? ''}`.trim()}
                        loading={receiptId === payment.id}
                        onClick={() => onReceipt(payment)}
                      />
                    ) : (
                      '—'
                    )}
                  </td>
                  <td className="purchase-col--secondary">{PAYMENT_METHOD_LABELS[payment.method as PaymentMethod] ?? payment.method}</td>
                  <td className="purchase-col--secondary">{payment.operation_number ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </ScrollRegion>
      )}
    </section>
  );
}

/**
 * "Pagar por transferencia": the company's active bank accounts in the purchase's currency, with
 * their CCI (the server already filters by `currency`; the dialog never lists another currency's
 * account under "su compra es en soles" — docs/decisions.md "Customer journey details (accessibility)").
 */
function BankAccountsDialog({
  open,
  accounts,
  currency,
  onClose,
}: {
  open: boolean;
  accounts: PaymentBankAccount[];
  currency: 'PEN' | 'USD';
  onClose: () => void;
}) {
  const sorted = accounts.filter((a) => a.currency === currency);
  // Focus back to "Pagar por transferencia" when it closes (docs/decisions.md "Keyboard and focus").
  useReturnFocus(open);
  return (
    <Dialog isOpen={open} onClose={onClose} title="Pagar por transferencia o depósito" className="bank-accounts-dialog">
      <DialogBody>
        {sorted.length === 0 ? (
          <p>La empresa no tiene cuentas bancarias activas en {currency === 'PEN' ? 'soles' : 'dólares'}.</p>
        ) : (
          <>
            <p className={Classes.TEXT_MUTED}>
              Transfiera o deposite en una de estas cuentas (su compra es en {currency === 'PEN' ? 'soles' : 'dólares'}). Después envíe la
              constancia a la empresa para que registre su pago.
            </p>
            <ul className="bank-accounts" aria-label="Cuentas bancarias">
              {sorted.map((a) => (
                <li key={a.id}>
                  <strong>{a.bank_name || a.bank}</strong> · {ACCOUNT_KIND_LABELS[a.kind] ?? a.kind} en{' '}
                  {a.currency === 'PEN' ? 'soles' : 'dólares'}
                  <dl>
                    <dt>Cuenta</dt>
                    <dd className="bank-number">{a.number}</dd>
                    <dt>CCI</dt>
                    <dd className="bank-number">{a.cci}</dd>
                    <dt>Titular</dt>
                    <dd>{a.holder}</dd>
                  </dl>
                </li>
              ))}
            </ul>
          </>
        )}
      </DialogBody>
      <DialogFooter actions={<Button intent="primary" text="Cerrar" onClick={onClose} />} />
    </Dialog>
  );
}
