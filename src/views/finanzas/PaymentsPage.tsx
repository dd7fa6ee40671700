import { use, useMemo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom, AnyActorRef } from 'xstate';
import {
  Button,
  Callout,
  Classes,
  DialogBody,
  DialogFooter,
  FileInput,
  FormGroup,
  HTMLTable,
  InputGroup,
  Radio,
  RadioGroup,
  Spinner,
  Tag,
  TextArea,
  type Intent,
} from '@blueprintjs/core';
import { Dialog, HTMLSelect } from '../shared/BlueprintEs';
import { useSearch } from 'wouter';
import { listQueryFromSearchParams } from '../../schemas/list';
import {
  MAX_VOUCHERS,
  OVERRIDE_REASON_MAX,
  PAYMENT_METHODS,
  PAYMENT_METHOD_LABELS,
  PAYMENT_STATUSES,
  PAYMENT_STATUS_LABELS,
  type Payment,
  type PaymentAllocation,
  type PaymentMethod,
  type PaymentStatus,
} from '../../schemas/finanzas/payments';
import { bankName } from '../../schemas/finanzas/banks';
import { CURRENCY_SYMBOL, formatMoney } from '../../lib/money';
import { formatDate, formatDateTime } from '../../lib/dates';
import { inspectOption } from '../../machines/inspect';
import type { PaymentsMachines } from '../../machines/finanzas/payments.actors';
import {
  allocationTotals,
  canConfirmApproval,
  OVERRIDE_REASON_MIN,
  type PaymentApproveMachine,
} from '../../machines/finanzas/payment-approve.machine';
import type { PaymentDetailMachine } from '../../machines/finanzas/payment-detail.machine';
import {
  bankAccountChoices,
  destinationOf,
  targetCurrency,
  walletChoices,
  type PaymentFormMachine,
  type ReservationOption,
  type SaleOption,
} from '../../machines/finanzas/payment-form.machine';
import type { PaymentReceiptMachine } from '../../machines/finanzas/payment-receipt.machine';
import type { PaymentsPageMachine } from '../../machines/finanzas/payments-page.machine';
import type { ReasonActionMachine } from '../../machines/shared/reason-action.machine';
import { useServices, useSession } from '../services';
import { ResourceTable, type RowAction, type TableColumn } from '../shared/ResourceTable';
import { ResourceToolbar } from '../shared/ResourceToolbar';
import { ListStates } from '../shared/ListStates';
import { FilterSelect } from '../shared/FilterSelect';
import { FieldGroup } from '../shared/FieldGroup';
import { SideDrawer } from '../shared/SideDrawer';
import { ReasonAlert } from '../shared/ReasonAlert';
import { DiscardChangesAlert } from '../shared/DiscardChangesAlert';
import { useReturnFocus } from '../shared/focus-return';
import { IsoDateInput } from '../shared/IsoDateInput';
import { DateRangeFilter } from '../shared/DateRangeFilter';
import { LookupSuggest, type LookupSuggestText } from '../shared/CustomerSuggest';
import type { ResourceListRef } from '../shared/resource-hooks';
import { LateFeeChangesTable } from './LateFeeChangesTable';
import '../../styles/finanzas.css';

/**
 * Finanzas → Pagos (/FINANZAS/Pagos; issue 16, "the review queue"): the payments, PENDIENTE first
 * and oldest first (the server's default order), with search (recibo, operación, cliente, documento,
 * lote), filters estado / medio / desde / hasta in the URL, sorting and export. "Ver" opens the
 * payment: its voucher images (click: shown large), customer, sale or reservation, amount, method,
 * destination, operation number, status and reasons, and what approval applied. "Aprobar" shows the
 * allocation first (cuota, vencimiento, a mora, a capital; total) and applies it; "Rechazar" and
 * "Anular" (approved only) ask the reason; "Recibo" downloads the PDF. "Registrar pago" records a
 * payment received at the office. The list refreshes after every action and when a PAYMENT
 * notification arrives.
 */

const STATUS_INTENT: Record<PaymentStatus, Intent> = { PENDIENTE: 'warning', APROBADO: 'success', RECHAZADO: 'danger', ANULADO: 'none' };
export const statusTag = (status: PaymentStatus) => (
  <Tag minimal intent={STATUS_INTENT[status]}>
    {PAYMENT_STATUS_LABELS[status]}
  </Tag>
);
const methodLabel = (m: string) => PAYMENT_METHOD_LABELS[m as PaymentMethod] ?? m;
const money = (p: Payment, cents: number) => formatMoney(cents, p.currency);
const nowrap = (text: string) => <span className="nowrap">{text}</span>;
/** "V-000003 · MZ A - LT 9" or "Separación · MZ B - LT 4". */
const targetText = (p: Payment) =>
  p.sale ? `${p.sale.number} · ${p.sale.lot_code}` : p.reservation ? `Separación · ${p.reservation.lot_code}` : '';
const subdivisionOf = (p: Payment) => p.sale?.subdivision_name ?? p.reservation?.subdivision_name ?? '';
const SOURCE_LABEL: Record<string, string> = { OFICINA: 'Oficina', PORTAL: 'Portal del cliente' };

const COLUMNS: TableColumn<Payment>[] = [
  {
    key: 'created_at',
    label: 'Registrado',
    sortable: true,
    render: (p) => nowrap(formatDate(p.created_at)),
    exportValue: (p) => formatDateTime(p.created_at),
  },
  {
    key: 'customer',
    label: 'Cliente',
    render: (p) => (
      <>
        {p.customer.display_name}
        <div className={Classes.TEXT_MUTED}>{p.customer.document_number}</div>
      </>
    ),
    exportValue: (p) => `${p.customer.display_name} (${p.customer.document_number})`,
  },
  { key: 'target', label: 'Venta / separación', render: (p) => nowrap(targetText(p)), exportValue: targetText },
  { key: 'subdivision', label: 'Lotización', render: subdivisionOf, exportValue: subdivisionOf, hiddenByDefault: true },
  {
    key: 'amount',
    label: 'Monto',
    sortable: true,
    align: 'right',
    render: (p) => nowrap(money(p, p.amount)),
    exportValue: (p) => p.amount / 100,
  },
  { key: 'method', label: 'Medio', render: (p) => methodLabel(p.method), exportValue: (p) => methodLabel(p.method) },
  {
    key: 'destination',
    label: 'Destino',
    render: (p) => p.destination?.label ?? '—',
    exportValue: (p) => p.destination?.label ?? '',
    // Shown in the drawer; in the table it pushed "Acciones" out of a 1366 px screen with the menu open.
    hiddenByDefault: true,
  },
  {
    key: 'operation_number',
    label: 'N.º operación',
    render: (p) => <span className="finance-mono">{p.operation_number ?? '—'}</span>,
    exportValue: (p) => p.operation_number ?? '',
  },
  {
    key: 'operation_date',
    label: 'Fecha op.',
    sortable: true,
    render: (p) => nowrap(formatDate(p.operation_date)),
    exportValue: (p) => formatDate(p.operation_date),
  },
  {
    key: 'source',
    label: 'Origen',
    render: (p) => SOURCE_LABEL[p.source] ?? p.source,
    exportValue: (p) => SOURCE_LABEL[p.source] ?? p.source,
    hiddenByDefault: true,
  },
  {
    key: 'receipt_number',
    label: 'Recibo',
    render: (p) => p.receipt_number ?? '—',
    exportValue: (p) => p.receipt_number ?? '',
    hiddenByDefault: true,
  },
  { key: 'status', label: 'Estado', render: (p) => statusTag(p.status), exportValue: (p) => PAYMENT_STATUS_LABELS[p.status] },
];

const hasReceipt = (p: Payment) => p.status === 'APROBADO' || p.status === 'ANULADO';

export function PaymentsScreen() {
  const machines = use(useServices().machines.payments());
  const notifications = useSession((s) => s.children.notifications) ?? null;
  return <PaymentsPage machines={machines} notifications={notifications} />;
}

export function PaymentsPage({ machines, notifications = null }: { machines: PaymentsMachines; notifications?: AnyActorRef | null }) {
  const search = useSearch();
  const { today } = useServices();
  const query = useMemo(
    () =>
      listQueryFromSearchParams(search, {
        allowedFilters: ['status', 'method', 'source', 'from', 'to', 'sale_id', 'reservation_id', 'customer_id'],
      }),
    // The URL is read once, when the screen opens; afterwards the list keeps it in sync.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const page = useActorRef(machines.page, {
    input: { list: { columns: COLUMNS, exportName: 'pagos', query }, today: today() },
    ...inspectOption(),
  });
  const { list, detail, approve, reject, annul, receipt, form } = useSelector(page, (s) => s.context);
  const downloading = useSelector(receipt, (s) => s.context.paymentId);

  const rowActions: RowAction<Payment>[] = [
    { text: 'Ver', icon: 'eye-open', onClick: (p) => detail.send({ type: 'detail.open', id: p.id }) },
    {
      text: 'Aprobar',
      icon: 'tick-circle',
      intent: 'success',
      hidden: (p) => p.status !== 'PENDIENTE',
      onClick: (p) => approve.send({ type: 'approve.request', payment: p }),
    },
    {
      text: 'Rechazar',
      icon: 'cross',
      intent: 'danger',
      hidden: (p) => p.status !== 'PENDIENTE',
      onClick: (p) => reject.send({ type: 'reason.request', record: p }),
    },
    {
      text: 'Anular',
      icon: 'undo',
      intent: 'danger',
      hidden: (p) => p.status !== 'APROBADO',
      onClick: (p) => annul.send({ type: 'reason.request', record: p }),
    },
    {
      text: 'Recibo',
      icon: 'document',
      hidden: (p) => !hasReceipt(p) || downloading === p.id,
      onClick: (p) => receipt.send({ type: 'receipt.download', payment: p }),
    },
  ];
  const openForm = () => form.send({ type: 'form.open' });

  return (
    <section className="finance-page" aria-labelledby="pagos-title">
      <h1 id="pagos-title" className="bp6-heading finance-page-title">
        Pagos
      </h1>
      <PaymentNotices notifications={notifications} page={page} machines={machines} />
      <ResourceToolbar list={list} onNew={openForm} newLabel="Registrar pago" filters={<Filters list={list} today={today()} />} />
      <ResourceTable<Payment> list={list} columns={COLUMNS} rowKey={(p) => p.id} caption="Pagos" rowActions={rowActions} />
      <ListStates list={list} emptyAction={<Button icon="plus" intent="primary" text="Registrar pago" onClick={openForm} />} />
      <PaymentDrawer detail={detail} approve={approve} reject={reject} annul={annul} receipt={receipt} />
      <ApproveDialog approve={approve} />
      <ReasonAlert
        actor={reject}
        id="payment-reject-reason"
        confirmText="Rechazar pago"
        label="Motivo del rechazo (lo verá el cliente)"
        question={(p) => `¿Rechazar el pago de ${money(p, p.amount)} de ${p.customer.display_name} (${targetText(p)})?`}
      />
      <ReasonAlert
        actor={annul}
        id="payment-annul-reason"
        confirmText="Anular pago"
        label="Motivo de la anulación"
        question={(p) =>
          `¿Anular el pago aprobado de ${money(p, p.amount)} de ${p.customer.display_name} (${targetText(p)})? Se revertirá lo aplicado a las cuotas.`
        }
      />
      <PaymentFormDialog form={form} />
    </section>
  );
}

/** Starts the watcher of PAYMENT notifications while the session's notifications machine runs (keyed by it). */
function PaymentNotices({
  notifications,
  page,
  machines,
}: {
  notifications: AnyActorRef | null;
  page: ActorRefFrom<PaymentsPageMachine>;
  machines: PaymentsMachines;
}) {
  return notifications ? (
    <NoticesWatcher key={notifications.id} notifications={notifications} page={page} logic={machines.notices} />
  ) : null;
}

function NoticesWatcher({
  notifications,
  page,
  logic,
}: {
  notifications: AnyActorRef;
  page: AnyActorRef;
  logic: PaymentsMachines['notices'];
}) {
  useActorRef(logic, { input: { notifications, page } });
  return null;
}

/** Estado, Medio, Desde, Hasta (in the URL through the list machine). */
function Filters({ list, today }: { list: ResourceListRef<Payment>; today: string }) {
  return (
    <>
      <FilterSelect
        list={list}
        field="status"
        label="Estado"
        allLabel="Todos los estados"
        options={PAYMENT_STATUSES.map((s) => ({ value: s, label: PAYMENT_STATUS_LABELS[s] }))}
      />
      <FilterSelect
        list={list}
        field="method"
        label="Medio de pago"
        allLabel="Todos los medios"
        options={PAYMENT_METHODS.map((m) => ({ value: m, label: PAYMENT_METHOD_LABELS[m] }))}
      />
      <DateRangeFilter
        list={list}
        fromField="from"
        toField="to"
        labels={['Desde', 'Hasta']}
        idPrefix="payments"
        minDate="2020-01-01"
        maxDate={today}
        className="payments-date-filter"
      />
    </>
  );
}

/** The allocation rows: cuota, vencimiento, a mora, a capital, and their totals. */
function AllocationTable({
  rows,
  currency,
  caption,
}: {
  rows: readonly PaymentAllocation[];
  currency: Payment['currency'];
  caption: string;
}) {
  const m = (cents: number) => formatMoney(cents, currency);
  const totals = allocationTotals(rows);
  return (
    <HTMLTable compact striped className="payment-allocation">
      <caption className={Classes.TEXT_MUTED}>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Cuota</th>
          <th scope="col">Vencimiento</th>
          <th scope="col" className="num">
            A mora
          </th>
          <th scope="col" className="num">
            A cuota
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.instalment_id}>
            <td>{r.kind === 'INICIAL' ? `Inicial ${r.number}` : `Cuota ${r.number}`}</td>
            <td>{r.due_date ? formatDate(r.due_date) : '—'}</td>
            <td className="num">{m(r.to_late_fee)}</td>
            <td className="num">{m(r.to_capital)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row" colSpan={2}>
            Total
          </th>
          <td className="num">{m(totals.lateFee)}</td>
          <td className="num">{m(totals.capital)}</td>
        </tr>
        <tr>
          <th scope="row" colSpan={3}>
            Total aplicado
          </th>
          <td className="num">
            <strong>{m(totals.total)}</strong>
          </td>
        </tr>
      </tfoot>
    </HTMLTable>
  );
}

/** "Aprobar": the payment read again, its allocation preview, and the confirmation. */
function ApproveDialog({ approve }: { approve: ActorRefFrom<PaymentApproveMachine> }) {
  const open = useSelector(approve, (s) => !s.matches('idle'));
  const payment = useSelector(approve, (s) => s.context.payment);
  const error = useSelector(approve, (s) => s.context.error);
  const loading = useSelector(approve, (s) => s.matches('loading') || s.matches('reloading'));
  const approving = useSelector(approve, (s) => s.matches('approving'));
  const overrideReason = useSelector(approve, (s) => s.context.overrideReason);
  const canConfirm = useSelector(
    approve,
    (s) => s.matches('confirming') && canConfirmApproval(s.context.payment, s.context.overrideReason),
  );
  const cancel = () => approve.send({ type: 'approve.cancel' });
  const barred = !loading && payment?.status === 'PENDIENTE' ? payment.self_approval : null;
  return (
    <Dialog
      isOpen={open}
      onClose={cancel}
      title="Aprobar pago"
      icon="tick-circle"
      canEscapeKeyClose={!approving}
      canOutsideClickClose={false}
      isCloseButtonShown={!approving}
      className="editor-dialog payment-approve-dialog"
    >
      <DialogBody>
        {error ? (
          <Callout intent="danger" role="alert" className="editor-form-error">
            {error}
          </Callout>
        ) : null}
        {payment ? (
          <p>
            Pago de <strong>{money(payment, payment.amount)}</strong> de {payment.customer.display_name} ({methodLabel(payment.method)}
            {payment.operation_number ? `, operación ${payment.operation_number}` : ''}) para {targetText(payment)}.
          </p>
        ) : null}
        {barred ? (
          <Callout intent={barred.may_override ? 'warning' : 'danger'} title="Segregación de funciones" className="payment-approve-barred">
            <p>{barred.message}.</p>
            {barred.may_override ? (
              <p>Como administrador puede aprobarlo como excepción, indicando el motivo; quedará en el historial.</p>
            ) : null}
          </Callout>
        ) : null}
        {barred?.may_override ? (
          <FormGroup
            label="Motivo de la excepción"
            labelFor="payment-override-reason"
            helperText={`Al menos ${OVERRIDE_REASON_MIN} caracteres`}
          >
            <TextArea
              id="payment-override-reason"
              fill
              maxLength={OVERRIDE_REASON_MAX}
              value={overrideReason}
              disabled={approving}
              onChange={(e) => approve.send({ type: 'approve.reason', value: e.currentTarget.value })}
            />
          </FormGroup>
        ) : null}
        {loading ? <Spinner size={24} aria-label="Calculando la aplicación" /> : null}
        {!loading && payment && payment.status !== 'PENDIENTE' ? (
          <Callout intent="warning">Este pago ya está {PAYMENT_STATUS_LABELS[payment.status].toLowerCase()}.</Callout>
        ) : null}
        {!loading && payment?.status === 'PENDIENTE' && payment.sale && payment.allocation_preview ? (
          <>
            <p>Al aprobarlo se aplicará así (primero la mora, luego la cuota, desde la más antigua):</p>
            <AllocationTable rows={payment.allocation_preview} currency={payment.currency} caption="Aplicación del pago" />
            {payment.late_fee_changes.length > 0 ? (
              <LateFeeChangesTable changes={payment.late_fee_changes} currency={payment.currency} operationDate={payment.operation_date} />
            ) : null}
          </>
        ) : null}
        {!loading && payment?.status === 'PENDIENTE' && payment.sale && !payment.allocation_preview ? (
          <Callout intent="danger">{payment.preview_error ?? 'No se puede calcular la aplicación de este pago.'}</Callout>
        ) : null}
        {!loading && payment?.status === 'PENDIENTE' && payment.reservation ? (
          <p>Al aprobarlo, la separación {payment.reservation.lot_code} quedará pagada.</p>
        ) : null}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancelar" onClick={cancel} disabled={approving} />
            <Button
              intent="success"
              icon="tick"
              text="Aprobar y aplicar"
              loading={approving}
              disabled={!canConfirm}
              onClick={() => approve.send({ type: 'approve.confirm' })}
            />
          </>
        }
      />
    </Dialog>
  );
}

/** One payment: its vouchers (zoomable), who paid what for what, its review and what it applied. */
function PaymentDrawer({
  detail,
  approve,
  reject,
  annul,
  receipt,
}: {
  detail: ActorRefFrom<PaymentDetailMachine>;
  approve: ActorRefFrom<PaymentApproveMachine>;
  reject: PaymentsActionRef;
  annul: PaymentsActionRef;
  receipt: ActorRefFrom<PaymentReceiptMachine>;
}) {
  const isOpen = useSelector(detail, (s) => !s.matches('closed'));
  const payment = useSelector(detail, (s) => s.context.payment);
  const error = useSelector(detail, (s) => s.context.error);
  const loading = useSelector(detail, (s) => s.matches('loading'));
  const downloading = useSelector(receipt, (s) => s.context.paymentId !== null);
  return (
    <SideDrawer
      isOpen={isOpen}
      onClose={() => detail.send({ type: 'detail.close' })}
      size="640px"
      title={payment ? `Pago de ${payment.customer.display_name}` : 'Pago'}
    >
      <div className={Classes.DIALOG_BODY}>
        {error ? (
          <Callout intent="danger" className="crm-callout">
            {error} <Button variant="minimal" size="small" text="Reintentar" onClick={() => detail.send({ type: 'detail.refresh' })} />
          </Callout>
        ) : null}
        {!payment && loading ? <p className={Classes.SKELETON}>Cargando…</p> : null}
        {payment ? (
          <>
            <div className="payment-status">
              {statusTag(payment.status)}
              {payment.receipt_number ? <span className="finance-mono">Recibo {payment.receipt_number}</span> : null}
            </div>
            {payment.reject_reason ? (
              <Callout intent="danger" compact className="crm-callout">
                Rechazado: {payment.reject_reason}
              </Callout>
            ) : null}
            {payment.annul_reason ? (
              <Callout intent="warning" compact className="crm-callout">
                Anulado: {payment.annul_reason}
              </Callout>
            ) : null}
            <div className="payment-actions">
              {payment.status === 'PENDIENTE' ? (
                <>
                  <Button
                    intent="success"
                    icon="tick-circle"
                    text="Aprobar"
                    onClick={() => approve.send({ type: 'approve.request', payment })}
                  />
                  <Button
                    intent="danger"
                    icon="cross"
                    text="Rechazar"
                    onClick={() => reject.send({ type: 'reason.request', record: payment })}
                  />
                </>
              ) : null}
              {payment.status === 'APROBADO' ? (
                <Button intent="danger" icon="undo" text="Anular" onClick={() => annul.send({ type: 'reason.request', record: payment })} />
              ) : null}
              {hasReceipt(payment) ? (
                <Button
                  icon="document"
                  text="Recibo"
                  loading={downloading}
                  onClick={() => receipt.send({ type: 'receipt.download', payment })}
                />
              ) : null}
            </div>
            <dl className="payment-facts">
              <dt>Cliente</dt>
              <dd>
                {payment.customer.display_name}
                {payment.customer.document_number ? ` · ${payment.customer.document_number}` : ''}
              </dd>
              <dt>{payment.sale ? 'Venta' : 'Separación'}</dt>
              <dd>
                {targetText(payment)}
                {subdivisionOf(payment) ? ` · ${subdivisionOf(payment)}` : ''}
              </dd>
              {payment.credited_sale ? (
                <>
                  <dt>Abonado a</dt>
                  <dd>La venta {payment.credited_sale.number} (cuota inicial)</dd>
                </>
              ) : null}
              <dt>Monto</dt>
              <dd>
                <strong>{money(payment, payment.amount)}</strong>
              </dd>
              <dt>Medio</dt>
              <dd>{methodLabel(payment.method)}</dd>
              <dt>Destino</dt>
              <dd>{payment.destination?.label ?? '—'}</dd>
              <dt>N.º de operación</dt>
              <dd className="finance-mono">{payment.operation_number ?? '—'}</dd>
              <dt>Fecha de operación</dt>
              <dd>{formatDate(payment.operation_date)}</dd>
              <dt>Registrado</dt>
              <dd>
                {formatDateTime(payment.created_at)} · {SOURCE_LABEL[payment.source] ?? payment.source}
                {payment.registered_by && payment.registered_by !== SOURCE_LABEL[payment.source] ? ` · ${payment.registered_by}` : ''}
              </dd>
              {payment.reviewed_by ? (
                <>
                  <dt>Revisado</dt>
                  <dd>
                    {payment.reviewed_by}
                    {payment.reviewed_at ? ` · ${formatDateTime(payment.reviewed_at)}` : ''}
                  </dd>
                </>
              ) : null}
              {payment.note ? (
                <>
                  <dt>Nota</dt>
                  <dd>{payment.note}</dd>
                </>
              ) : null}
            </dl>
            <h3 className={Classes.HEADING}>Comprobantes</h3>
            <Vouchers detail={detail} payment={payment} />
            {payment.allocations.length > 0 ? (
              <>
                <h3 className={Classes.HEADING}>{payment.status === 'ANULADO' ? 'Aplicación revertida' : 'Aplicación'}</h3>
                <AllocationTable rows={payment.allocations} currency={payment.currency} caption="Lo que aplicó la aprobación" />
              </>
            ) : null}
          </>
        ) : null}
      </div>
    </SideDrawer>
  );
}
type PaymentsActionRef = ActorRefFrom<ReasonActionMachine<Payment>>;

/** The voucher thumbnails (a click shows one large), and, while PENDIENTE, "Adjuntar comprobante". */
function Vouchers({ detail, payment }: { detail: ActorRefFrom<PaymentDetailMachine>; payment: Payment }) {
  const images = useSelector(detail, (s) => s.context.images);
  const imagesLoading = useSelector(detail, (s) => s.matches({ ready: { images: 'loading' } }));
  const imagesError = useSelector(detail, (s) => s.context.imagesError);
  const zoomed = useSelector(detail, (s) => s.context.zoomed);
  const uploading = useSelector(detail, (s) => s.matches({ ready: { upload: 'uploading' } }));
  const uploadError = useSelector(detail, (s) => s.context.uploadError);
  const zoomedIndex = payment.vouchers.findIndex((v) => v.id === zoomed);
  return (
    <>
      {payment.vouchers.length === 0 ? <p className={Classes.TEXT_MUTED}>Sin comprobantes adjuntos.</p> : null}
      {imagesLoading ? <Spinner size={24} aria-label="Cargando comprobantes" /> : null}
      {imagesError ? (
        <Callout intent="danger" compact className="crm-callout">
          {imagesError} <Button variant="minimal" size="small" text="Reintentar" onClick={() => detail.send({ type: 'images.retry' })} />
        </Callout>
      ) : null}
      <div className="voucher-thumbs">
        {payment.vouchers.map((v, i) =>
          images[v.id] ? (
            <button
              key={v.id}
              type="button"
              className="voucher-thumb"
              aria-label={`Ampliar comprobante ${i + 1}`}
              onClick={() => detail.send({ type: 'voucher.zoom', id: v.id })}
            >
              <img src={images[v.id]} alt={`Comprobante ${i + 1}`} />
            </button>
          ) : null,
        )}
      </div>
      {payment.status === 'PENDIENTE' && payment.vouchers.length < MAX_VOUCHERS ? (
        <FieldGroup
          label="Adjuntar comprobante (PNG, JPEG o WebP, hasta 5 MB)"
          labelFor="payment-voucher-upload"
          error={uploadError ?? undefined}
        >
          <FileInput
            text={uploading ? 'Subiendo…' : 'Elegir imagen…'}
            buttonText="Examinar"
            disabled={uploading}
            inputProps={{ id: 'payment-voucher-upload', accept: 'image/png,image/jpeg,image/webp', 'aria-label': 'Adjuntar comprobante' }}
            onInputChange={(e) => {
              const file = (e.target as HTMLInputElement).files?.[0];
              if (file) detail.send({ type: 'voucher.upload', file });
            }}
          />
        </FieldGroup>
      ) : null}
      <Dialog
        isOpen={zoomed !== null && images[zoomed] !== undefined}
        onClose={() => detail.send({ type: 'voucher.unzoom' })}
        title={`Comprobante ${zoomedIndex + 1} de ${payment.vouchers.length}`}
        className="voucher-zoom-dialog"
      >
        <DialogBody className="voucher-zoom-body">
          {zoomed !== null && images[zoomed] ? <img src={images[zoomed]} alt={`Comprobante ${zoomedIndex + 1} (ampliado)`} /> : null}
        </DialogBody>
      </Dialog>
    </>
  );
}

const SALE_TEXT: LookupSuggestText<SaleOption> = {
  label: (s) => `${s.number} · ${s.lot_code}`,
  detail: (s) => `${s.holders[0]?.display_name ?? ''} · saldo ${formatMoney(s.balance, s.currency)}`,
  placeholder: 'Buscar venta (número, cliente, documento, lote)…',
  none: 'No se encontraron ventas',
};
const RESERVATION_TEXT: LookupSuggestText<ReservationOption> = {
  label: (r) => `${r.number} · ${r.lot_code}`,
  detail: (r) => `${r.customer.display_name} · ${formatMoney(r.amount, r.currency)}`,
  placeholder: 'Buscar separación pendiente de pago…',
  none: 'No se encontraron separaciones pendientes de pago',
};

/**
 * "Registrar pago": what is paid, who, how much, how, where to, the operation and the voucher images.
 * Closing with typed data asks "¿Descartar los cambios?"; closing gives focus back to the button that
 * opened it (docs/decisions.md "Keyboard and focus").
 */
function PaymentFormDialog({ form }: { form: ActorRefFrom<PaymentFormMachine> }) {
  const open = useSelector(form, (s) => !s.matches('closed'));
  const busy = useSelector(form, (s) => s.matches({ open: { form: 'submitting' } }));
  const c = useSelector(form, (s) => s.context);
  const loadingOptions = useSelector(form, (s) => s.matches({ open: { options: 'loading' } }));
  const close = () => form.send({ type: 'form.close' });
  const confirmingDiscard = useSelector(form, (s) => s.matches({ open: { form: 'confirmingDiscard' } }));
  useReturnFocus(open);
  const currency = targetCurrency(c);
  const destination = destinationOf(c.method);
  const banks = bankAccountChoices(c.options, currency);
  const wallets = walletChoices(c.options, c.method);
  const holders = c.target === 'sale' ? (c.sale?.holders ?? []) : [];
  return (
    <Dialog
      isOpen={open}
      onClose={close}
      title="Registrar pago"
      canEscapeKeyClose={!busy}
      canOutsideClickClose={false}
      isCloseButtonShown={!busy}
      className="editor-dialog payment-form-dialog"
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          form.send({ type: 'form.submit' });
        }}
      >
        <DialogBody>
          {c.formError ? (
            <Callout intent="danger" role="alert" className="editor-form-error">
              {c.formError}
            </Callout>
          ) : null}
          {c.optionsError ? (
            <Callout intent="warning" className="editor-form-error">
              No se pudieron cargar las cuentas y billeteras: {c.optionsError}
            </Callout>
          ) : null}
          <RadioGroup
            inline
            label="Se paga"
            selectedValue={c.target}
            disabled={busy}
            onChange={(e) => form.send({ type: 'form.target', target: e.currentTarget.value === 'reservation' ? 'reservation' : 'sale' })}
          >
            <Radio label="Una venta (cuotas)" value="sale" />
            <Radio label="Una separación" value="reservation" />
          </RadioGroup>
          {c.target === 'sale' ? (
            <FieldGroup
              label="Venta"
              labelFor="payment-sale"
              error={c.errors.sale_id}
              hint={c.sale ? `${c.sale.subdivision_name} · saldo ${formatMoney(c.sale.balance, c.sale.currency)}` : undefined}
            >
              <LookupSuggest<SaleOption>
                id="payment-sale"
                lookup={c.sales}
                selected={c.sale}
                onSelect={(s) => form.send({ type: 'form.sale', sale: s })}
                disabled={busy}
                invalid={Boolean(c.errors.sale_id)}
                text={SALE_TEXT}
              />
            </FieldGroup>
          ) : (
            <FieldGroup
              label="Separación"
              labelFor="payment-reservation"
              error={c.errors.reservation_id}
              hint={c.reservation ? `${c.reservation.customer.display_name} · se paga por su monto exacto` : undefined}
            >
              <LookupSuggest<ReservationOption>
                id="payment-reservation"
                lookup={c.reservations}
                selected={c.reservation}
                onSelect={(r) => form.send({ type: 'form.reservation', reservation: r })}
                disabled={busy}
                invalid={Boolean(c.errors.reservation_id)}
                text={RESERVATION_TEXT}
              />
            </FieldGroup>
          )}
          {holders.length > 1 ? (
            <FieldGroup label="Pagador" labelFor="payment-customer" error={c.errors.customer_id}>
              <HTMLSelect
                id="payment-customer"
                fill
                value={c.customerId ?? ''}
                disabled={busy}
                onChange={(e) => form.send({ type: 'form.customer', id: Number(e.target.value) })}
                options={holders.map((h) => ({ value: h.id, label: `${h.display_name} (${h.document_number})` }))}
              />
            </FieldGroup>
          ) : null}
          <div className="form-grid">
            <FieldGroup label="Monto" labelFor="payment-amount" error={c.errors.amount}>
              <InputGroup
                id="payment-amount"
                inputMode="decimal"
                leftElement={<span className="payment-currency">{CURRENCY_SYMBOL[currency ?? 'PEN']}</span>}
                value={c.amountText}
                onValueChange={(v) => form.send({ type: 'form.amount', text: v })}
                disabled={busy || c.target === 'reservation'}
                intent={c.errors.amount ? 'danger' : 'none'}
                aria-invalid={Boolean(c.errors.amount)}
                aria-describedby={c.errors.amount ? 'payment-amount-error' : undefined}
              />
            </FieldGroup>
            <FieldGroup label="Medio de pago" labelFor="payment-method" error={c.errors.method}>
              <HTMLSelect
                id="payment-method"
                fill
                value={c.method}
                disabled={busy}
                onChange={(e) => form.send({ type: 'form.method', method: e.target.value as PaymentMethod | '' })}
                options={[
                  { value: '', label: 'Seleccione…' },
                  ...PAYMENT_METHODS.map((m) => ({ value: m, label: PAYMENT_METHOD_LABELS[m] })),
                ]}
              />
            </FieldGroup>
          </div>
          {destination === 'bank' || destination === 'optionalBank' ? (
            <FieldGroup
              label={destination === 'bank' ? 'Cuenta de destino' : 'Cuenta de destino (opcional)'}
              labelFor="payment-bank-account"
              error={c.errors.bank_account_id}
              hint={loadingOptions ? 'Cargando cuentas…' : banks.length === 0 ? 'No hay cuentas activas en esta moneda' : undefined}
            >
              <HTMLSelect
                id="payment-bank-account"
                fill
                value={c.bankAccountId ?? ''}
                disabled={busy}
                onChange={(e) => form.send({ type: 'form.bankAccount', id: e.target.value ? Number(e.target.value) : null })}
                options={[
                  { value: '', label: destination === 'bank' ? 'Seleccione…' : 'Ninguna' },
                  ...banks.map((a) => ({
                    value: a.id,
                    label: `${bankName(a.bank)} ${CURRENCY_SYMBOL[a.currency]} ${a.number} · ${a.holder}`,
                  })),
                ]}
              />
            </FieldGroup>
          ) : null}
          {destination === 'wallet' ? (
            <FieldGroup
              label="Billetera de destino"
              labelFor="payment-wallet"
              error={c.errors.wallet_id}
              hint={
                loadingOptions
                  ? 'Cargando billeteras…'
                  : wallets.length === 0
                    ? `No hay billeteras ${methodLabel(c.method)} activas`
                    : undefined
              }
            >
              <HTMLSelect
                id="payment-wallet"
                fill
                value={c.walletId ?? ''}
                disabled={busy}
                onChange={(e) => form.send({ type: 'form.wallet', id: e.target.value ? Number(e.target.value) : null })}
                options={[
                  { value: '', label: 'Seleccione…' },
                  ...wallets.map((w) => ({ value: w.id, label: `${methodLabel(w.kind)} ${w.phone} · ${w.holder}` })),
                ]}
              />
            </FieldGroup>
          ) : null}
          <div className="form-grid">
            {c.method !== 'EFECTIVO' ? (
              <FieldGroup label="N.º de operación" labelFor="payment-operation" error={c.errors.operation_number}>
                <InputGroup
                  id="payment-operation"
                  autoComplete="off"
                  value={c.operationNumber}
                  onValueChange={(v) => form.send({ type: 'form.operationNumber', text: v })}
                  disabled={busy}
                  intent={c.errors.operation_number ? 'danger' : 'none'}
                  aria-invalid={Boolean(c.errors.operation_number)}
                  aria-describedby={c.errors.operation_number ? 'payment-operation-error' : undefined}
                />
              </FieldGroup>
            ) : null}
            <FieldGroup label="Fecha de la operación" labelFor="payment-date" error={c.errors.operation_date}>
              <IsoDateInput
                id="payment-date"
                value={c.operationDate}
                onChange={(v) => form.send({ type: 'form.operationDate', date: v })}
                minDate="2020-01-01"
                maxDate={c.today}
                disabled={busy}
                hasError={Boolean(c.errors.operation_date)}
                describedBy={c.errors.operation_date ? 'payment-date-error' : undefined}
              />
            </FieldGroup>
          </div>
          <FieldGroup label="Nota (opcional)" labelFor="payment-note" error={c.errors.note}>
            <TextArea
              id="payment-note"
              fill
              value={c.note}
              disabled={busy}
              onChange={(e) => form.send({ type: 'form.note', text: e.target.value })}
            />
          </FieldGroup>
          <FieldGroup
            label={`Comprobantes (PNG, JPEG o WebP, hasta 5 MB; máximo ${MAX_VOUCHERS})`}
            labelFor="payment-vouchers"
            error={c.errors.vouchers}
            hint="También puede adjuntarlos después, desde el detalle del pago."
          >
            <FileInput
              fill
              text={c.files.length === 0 ? 'Elegir imágenes…' : `${c.files.length} imagen(es) elegida(s)`}
              buttonText="Examinar"
              disabled={busy || c.files.length >= MAX_VOUCHERS}
              inputProps={{
                id: 'payment-vouchers',
                multiple: true,
                accept: 'image/png,image/jpeg,image/webp',
                'aria-label': 'Comprobantes',
              }}
              onInputChange={(e) => {
                const input = e.target as HTMLInputElement;
                const files = Array.from(input.files ?? []);
                if (files.length > 0) form.send({ type: 'form.addFiles', files });
                input.value = '';
              }}
            />
          </FieldGroup>
          {c.files.length > 0 ? (
            <ul className="payment-files">
              {c.files.map((f, i) => (
                <li key={`${f.name}-${i}`}>
                  {f.name}
                  <Button
                    variant="minimal"
                    size="small"
                    icon="cross"
                    aria-label={`Quitar ${f.name}`}
                    disabled={busy}
                    onClick={() => form.send({ type: 'form.removeFile', index: i })}
                  />
                </li>
              ))}
            </ul>
          ) : null}
          <FormGroup className={Classes.TEXT_MUTED}>El pago queda pendiente de revisión hasta que se apruebe.</FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancelar" onClick={close} disabled={busy} />
              <Button type="submit" intent="primary" text="Registrar" loading={busy} />
            </>
          }
        />
      </form>
      {/* Blueprint's Alert draws in its own portal, stacked over the dialog. */}
      <DiscardChangesAlert
        isOpen={confirmingDiscard}
        onDiscard={() => form.send({ type: 'form.discard' })}
        onKeepEditing={() => form.send({ type: 'form.keepEditing' })}
      />
    </Dialog>
  );
}
