import { use, useEffect, useMemo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Button, Callout, Classes, Tab, Tabs, Tag, type Intent } from '@blueprintjs/core';
import { useSearch } from 'wouter';
import { OutsideTabPanel } from '../shared/BlueprintEs';
import { listQueryFromSearchParams } from '../../schemas/list';
import {
  HOLDER_ROLE_LABELS,
  isEndedSale,
  SALE_STATUSES,
  SALE_STATUS_LABELS,
  SALE_TYPES,
  SALE_TYPE_LABELS,
  type HolderRole,
  type Sale,
  type SaleStatus,
  type SaleType,
} from '../../schemas/comercio/sales';
import type { SaleDocumentLink } from '../../schemas/comercio/rescissions';
import { QUOTE_METHOD_LABELS, QUOTE_STATUSES, QUOTE_STATUS_LABELS, type Quote, type QuoteStatus } from '../../schemas/comercio/quotes';
import { formatMoney } from '../../lib/money';
import { formatDate } from '../../lib/dates';
import type { SaleSchedule } from '../../schemas/comercio/rescissions';
import { ContractStateTag } from '../administracion/shared/ContractStateTag';
import { SALES_TABS, type QuoteActionKind, type SalesMachines, type SalesTab } from '../../machines/comercio/sales.actors';
import {
  LIVE_RESERVATION_STATUSES,
  RESERVATION_STATUSES,
  RESERVATION_STATUS_LABELS,
  type Reservation,
  type ReservationStatus,
} from '../../schemas/comercio/reservations';
import { formatDateTime } from '../../lib/dates';
import type { SaleDetailMachine } from '../../machines/comercio/sale-detail.machine';
import { inspectOption } from '../../machines/inspect';
import { useServices, useSession } from '../services';
import { AUTH_ROUTES, generateContractPath } from '../../config/paths';
import { ResourceTable, type RowAction, type TableColumn } from '../shared/ResourceTable';
import { ResourceToolbar } from '../shared/ResourceToolbar';
import { ListStates } from '../shared/ListStates';
import { FilterSelect } from '../shared/FilterSelect';
import { ReasonAlert } from '../shared/ReasonAlert';
import { SideDrawer } from '../shared/SideDrawer';
import { useResourceListEvents } from '../shared/resource-hooks';
import { RecordActionAlert, useRecordActions, type ActionConfirmation } from '../shared/RecordActions';
import { SaleCreditCostRows, SaleScheduleTable } from './sale-parts';
import { AnnulSaleDialog } from './AnnulSaleDialog';
import { RescindSaleDialog } from './RescindSaleDialog';
import { RescheduleSaleDialog } from './RescheduleSaleDialog';
import { hasPermissions, selectPermissions } from '../../machines/session/session.selectors';
import { ACTION } from '../../schemas/permissions';
import '../../styles/comercio.css';

/**
 * Comercial → Ventas (/COMERCIO/ventas; issue "CRM and sales"): the sales with number, date,
 * buyer, lot, subdivision, agent, type, final price, paid, balance and status; search, filters
 * (estado, tipo, lotización), sorting and export. "Ver" opens the sale with its buyers and its
 * schedule; "Anular" asks the reason (the lot is freed, the sale kept). The "Separaciones" tab lists
 * the reservations (number, date, customer, lot, amount, expiry, status) with "Anular" (the lot
 * freed). The "Cotizaciones" tab lists the quotes (number, date, customer, lot, final price, valid
 * until, status; search, estado, lotización) with "Descargar PDF", "Marcar como enviada" (Borrador)
 * and "Anular" (Borrador or Enviada), the last two asked first. Sales, reservations and quotes are
 * made from the map's lot panel. `?vista=separaciones|cotizaciones` opens that tab.
 */

const STATUS_INTENT: Record<SaleStatus, Intent> = {
  REGISTRADA: 'none',
  INICIAL_PENDIENTE: 'warning',
  EN_CUOTAS: 'primary',
  CANCELADA: 'success',
  ANULADA: 'danger',
  RESUELTA: 'danger',
};
const statusTag = (status: SaleStatus) => (
  <Tag minimal intent={STATUS_INTENT[status]}>
    {SALE_STATUS_LABELS[status]}
  </Tag>
);
const titular = (s: Sale) => s.holders.find((h) => h.role === 'TITULAR') ?? s.holders[0];
const buyers = (s: Sale) => s.holders.map((h) => h.display_name).join(', ');
const money = (s: Sale, cents: number) => formatMoney(cents, s.currency);
const typeLabel = (t: string) => SALE_TYPE_LABELS[t as SaleType] ?? t;

const nowrap = (text: string) => <span className="nowrap">{text}</span>;

const COLUMNS: TableColumn<Sale>[] = [
  { key: 'number', label: 'Número', render: (s) => nowrap(s.number), exportValue: (s) => s.number },
  { key: 'sale_date', label: 'Fecha', sortable: true, render: (s) => formatDate(s.sale_date), exportValue: (s) => formatDate(s.sale_date) },
  { key: 'customer', label: 'Cliente', render: (s) => titular(s)?.display_name ?? '', exportValue: buyers },
  { key: 'lot', label: 'Lote', render: (s) => nowrap(s.lot.code), exportValue: (s) => s.lot.code },
  { key: 'subdivision', label: 'Lotización', render: (s) => s.lot.subdivision_name, exportValue: (s) => s.lot.subdivision_name },
  {
    key: 'agent',
    label: 'Asesor',
    render: (s) => (s.agent ? `${s.agent.name} ${s.agent.surname}` : ''),
    exportValue: (s) => (s.agent ? `${s.agent.name} ${s.agent.surname}` : ''),
    hiddenByDefault: true,
  },
  { key: 'type', label: 'Tipo', render: (s) => typeLabel(s.type), exportValue: (s) => typeLabel(s.type) },
  {
    key: 'final_price',
    label: 'Precio final',
    sortable: true,
    align: 'right',
    render: (s) => nowrap(money(s, s.final_price)),
    exportValue: (s) => s.final_price / 100,
  },
  { key: 'paid', label: 'Pagado', align: 'right', render: (s) => nowrap(money(s, s.paid)), exportValue: (s) => s.paid / 100 },
  { key: 'balance', label: 'Saldo', align: 'right', render: (s) => nowrap(money(s, s.balance)), exportValue: (s) => s.balance / 100 },
  { key: 'status', label: 'Estado', render: (s) => statusTag(s.status), exportValue: (s) => SALE_STATUS_LABELS[s.status] },
];

export function SalesScreen() {
  const machines = use(useServices().machines.sales());
  return <SalesPage machines={machines} />;
}

export function SalesPage({ machines }: { machines: SalesMachines }) {
  const search = useSearch();
  const asked = new URLSearchParams(search).get('vista');
  const tabActor = useActorRef(machines.tab, {
    input: { tab: SALES_TABS.find((t) => t === asked) ?? 'ventas' },
    ...inspectOption(),
  });
  const tab = useSelector(tabActor, (s) => s.context.tab);
  return (
    <section className="comercio-page" aria-labelledby="ventas-title">
      <h1 id="ventas-title" className="bp6-heading comercio-page-title">
        Ventas
      </h1>
      <Tabs
        id="sales-tabs"
        selectedTabId={tab}
        onChange={(id) => tabActor.send({ type: 'tab.changed', tab: id as SalesTab })}
        className="lead-tabs"
      >
        <Tab id="ventas" title="Ventas" />
        <Tab id="separaciones" title="Separaciones" />
        <Tab id="cotizaciones" title="Cotizaciones" />
      </Tabs>
      <OutsideTabPanel tabsId="sales-tabs" selectedTabId={tab}>
        {tab === 'ventas' ? <SalesList machines={machines} /> : null}
        {tab === 'separaciones' ? <ReservationsList machines={machines} /> : null}
        {tab === 'cotizaciones' ? <QuotesList machines={machines} /> : null}
      </OutsideTabPanel>
    </section>
  );
}

/** The sales tab: list, drawer and "Anular". */
function SalesList({ machines }: { machines: SalesMachines }) {
  const search = useSearch();
  const initialQuery = useMemo(
    () => {
      const parsed = listQueryFromSearchParams(search, { allowedFilters: ['status', 'type', 'subdivision_id', 'customer_id', 'lot_id'] });
      return { ...parsed, sort: parsed.sort ?? '-sale_date' };
    },
    // The URL is read once, when the tab opens; afterwards the list keeps it in sync.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const list = useActorRef(machines.list, { input: { columns: COLUMNS, exportName: 'ventas', query: initialQuery }, ...inspectOption() });
  const detail = useActorRef(machines.detail, inspectOption());
  const annul = useActorRef(machines.annul, inspectOption());
  const rescind = useActorRef(machines.rescind, inspectOption());
  const reschedule = useActorRef(machines.reschedule, inspectOption());
  const permissions = useSession(selectPermissions);
  const canRescind = hasPermissions(permissions, [ACTION.resolverContratos]);
  const canReschedule = hasPermissions(permissions, [ACTION.reprogramarVentas]);
  const subdivisionsActor = useActorRef(machines.subdivisions, inspectOption());
  const subdivisions = useSelector(subdivisionsActor, (s) => s.context.value);
  const { refresh } = useResourceListEvents(list);
  // An annulled sale: the list and an open drawer show it as it is now.
  useEffect(() => {
    const after = () => {
      refresh();
      detail.send({ type: 'detail.refresh' });
    };
    const subscriptions = [annul.on('done', after), rescind.on('done', after), reschedule.on('done', after)];
    return () => subscriptions.forEach((s) => s.unsubscribe());
  }, [annul, rescind, reschedule, detail, refresh]);

  const rowActions: RowAction<Sale>[] = [
    { text: 'Ver', icon: 'eye-open', onClick: (s) => detail.send({ type: 'detail.open', id: s.id }) },
    {
      text: 'Anular',
      icon: 'disable',
      intent: 'danger',
      hidden: (s) => isEndedSale(s.status) || s.status === 'CANCELADA',
      onClick: (s) => annul.send({ type: 'reason.request', record: s }),
    },
  ];

  return (
    <>
      <ResourceToolbar
        list={list}
        filters={
          <>
            <FilterSelect
              list={list}
              field="status"
              label="Estado"
              allLabel="Todos los estados"
              options={SALE_STATUSES.map((s) => ({ value: s, label: SALE_STATUS_LABELS[s] }))}
            />
            <FilterSelect
              list={list}
              field="type"
              label="Tipo"
              allLabel="Contado y financiado"
              options={SALE_TYPES.map((t) => ({ value: t, label: SALE_TYPE_LABELS[t] }))}
            />
            <FilterSelect
              list={list}
              field="subdivision_id"
              label="Lotización"
              allLabel="Todas las lotizaciones"
              options={subdivisions.map((s) => ({ value: String(s.id), label: s.name }))}
            />
          </>
        }
      />
      <ResourceTable<Sale> list={list} columns={COLUMNS} rowKey={(s) => s.id} caption="Ventas" rowActions={rowActions} />
      <ListStates list={list} />
      <SaleDrawer
        detail={detail}
        onAnnul={(s) => annul.send({ type: 'reason.request', record: s })}
        {...(canRescind ? { onRescind: (s: Sale) => rescind.send({ type: 'rescind.request', record: s }) } : {})}
        {...(canReschedule ? { onReschedule: (s: Sale) => reschedule.send({ type: 'reschedule.request', record: s }) } : {})}
      />
      <AnnulSaleDialog actor={annul} />
      <RescindSaleDialog actor={rescind} />
      <RescheduleSaleDialog actor={reschedule} />
    </>
  );
}

const RESERVATION_INTENT: Record<ReservationStatus, Intent> = {
  PENDIENTE_PAGO: 'warning',
  VIGENTE: 'primary',
  CONVERTIDA: 'success',
  VENCIDA: 'none',
  ANULADA: 'danger',
};
const RESERVATION_COLUMNS: TableColumn<Reservation>[] = [
  { key: 'number', label: 'Número', render: (r) => nowrap(r.number), exportValue: (r) => r.number },
  {
    key: 'created_at',
    label: 'Fecha',
    sortable: true,
    render: (r) => formatDate(r.created_at),
    exportValue: (r) => formatDate(r.created_at),
  },
  { key: 'customer', label: 'Cliente', render: (r) => r.customer.display_name, exportValue: (r) => r.customer.display_name },
  { key: 'lot', label: 'Lote', render: (r) => nowrap(r.lot.code), exportValue: (r) => r.lot.code },
  { key: 'subdivision', label: 'Lotización', render: (r) => r.lot.subdivision_name, exportValue: (r) => r.lot.subdivision_name },
  {
    key: 'amount',
    label: 'Monto',
    sortable: true,
    align: 'right',
    render: (r) => nowrap(formatMoney(r.amount, r.currency)),
    exportValue: (r) => r.amount / 100,
  },
  {
    key: 'expires_at',
    label: 'Vence',
    sortable: true,
    render: (r) => nowrap(formatDateTime(r.expires_at)),
    exportValue: (r) => formatDateTime(r.expires_at),
  },
  {
    key: 'status',
    label: 'Estado',
    render: (r) => (
      <Tag minimal intent={RESERVATION_INTENT[r.status]}>
        {RESERVATION_STATUS_LABELS[r.status]}
      </Tag>
    ),
    exportValue: (r) => RESERVATION_STATUS_LABELS[r.status],
  },
];

/** The reservations tab: list with its status filter and "Anular" (the lot freed). */
function ReservationsList({ machines }: { machines: SalesMachines }) {
  const list = useActorRef(machines.reservations, {
    input: { columns: RESERVATION_COLUMNS, exportName: 'separaciones', query: { page: 1, per_page: 20, sort: '-created_at', filters: {} } },
    ...inspectOption(),
  });
  const cancel = useActorRef(machines.cancelReservation, inspectOption());
  const { refresh } = useResourceListEvents(list);
  useEffect(() => {
    const subscription = cancel.on('done', () => refresh());
    return () => subscription.unsubscribe();
  }, [cancel, refresh]);
  const rowActions: RowAction<Reservation>[] = [
    {
      text: 'Anular',
      icon: 'disable',
      intent: 'danger',
      hidden: (r) => !LIVE_RESERVATION_STATUSES.includes(r.status),
      onClick: (r) => cancel.send({ type: 'reason.request', record: r }),
    },
  ];
  return (
    <>
      <ResourceToolbar
        list={list}
        filters={
          <FilterSelect
            list={list}
            field="status"
            label="Estado"
            allLabel="Todos los estados"
            options={RESERVATION_STATUSES.map((s) => ({ value: s, label: RESERVATION_STATUS_LABELS[s] }))}
          />
        }
      />
      <ResourceTable<Reservation>
        list={list}
        columns={RESERVATION_COLUMNS}
        rowKey={(r) => r.id}
        caption="Separaciones"
        rowActions={rowActions}
      />
      <ListStates list={list} />
      <ReasonAlert
        actor={cancel}
        confirmText="Anular separación"
        label="Motivo de la anulación"
        question={(r) => `¿Anular la separación ${r.number} de ${r.customer.display_name} (${r.lot.code})? El lote quedará disponible.`}
      />
    </>
  );
}

const QUOTE_INTENT: Record<QuoteStatus, Intent> = {
  BORRADOR: 'none',
  ENVIADA: 'primary',
  ACEPTADA: 'success',
  VENCIDA: 'warning',
  ANULADA: 'danger',
};
const QUOTE_COLUMNS: TableColumn<Quote>[] = [
  { key: 'number', label: 'Número', render: (q) => nowrap(q.number), exportValue: (q) => q.number },
  {
    key: 'created_at',
    label: 'Fecha',
    sortable: true,
    render: (q) => formatDate(q.created_at),
    exportValue: (q) => formatDate(q.created_at),
  },
  { key: 'customer', label: 'Cliente', render: (q) => q.customer.display_name, exportValue: (q) => q.customer.display_name },
  { key: 'lot', label: 'Lote', render: (q) => nowrap(q.lot.code), exportValue: (q) => q.lot.code },
  {
    key: 'subdivision',
    label: 'Lotización',
    render: (q) => q.lot.subdivision_name,
    exportValue: (q) => q.lot.subdivision_name,
    hiddenByDefault: true,
  },
  {
    key: 'final_price',
    label: 'Precio final',
    sortable: true,
    align: 'right',
    render: (q) => nowrap(formatMoney(q.final_price, q.currency)),
    exportValue: (q) => q.final_price / 100,
  },
  {
    key: 'valid_until',
    label: 'Válida hasta',
    sortable: true,
    render: (q) => nowrap(formatDate(q.valid_until)),
    exportValue: (q) => formatDate(q.valid_until),
  },
  {
    key: 'status',
    label: 'Estado',
    render: (q) => (
      <Tag minimal intent={QUOTE_INTENT[q.status]}>
        {QUOTE_STATUS_LABELS[q.status]}
      </Tag>
    ),
    exportValue: (q) => QUOTE_STATUS_LABELS[q.status],
  },
];

const QUOTE_CONFIRM: Record<QuoteActionKind, ActionConfirmation<Quote>> = {
  markSent: {
    text: 'Marcar como enviada',
    intent: 'primary',
    question: (q) => `¿Marcar la cotización ${q.number} de ${q.customer.display_name} (${q.lot.code}) como enviada?`,
  },
  annul: {
    text: 'Anular cotización',
    intent: 'danger',
    question: (q) => `¿Anular la cotización ${q.number} de ${q.customer.display_name} (${q.lot.code})?`,
  },
};

/** The quotes tab: list with search, estado and lotización; "Descargar PDF", "Marcar como enviada" and "Anular". */
function QuotesList({ machines }: { machines: SalesMachines }) {
  const list = useActorRef(machines.quotes, {
    input: { columns: QUOTE_COLUMNS, exportName: 'cotizaciones', query: { page: 1, per_page: 20, sort: '-created_at', filters: {} } },
    ...inspectOption(),
  });
  const { actions, request } = useRecordActions(machines.quoteActions, list);
  const pdf = useActorRef(machines.quotePdf, inspectOption());
  const subdivisionsActor = useActorRef(machines.subdivisions, inspectOption());
  const subdivisions = useSelector(subdivisionsActor, (s) => s.context.value);
  const rowActions: RowAction<Quote>[] = [
    {
      text: 'Descargar PDF',
      icon: 'document',
      onClick: (q) => pdf.send({ type: 'pdf.download', quote: q }),
    },
    { text: 'Marcar como enviada', icon: 'send-message', hidden: (q) => q.status !== 'BORRADOR', onClick: request('markSent') },
    {
      text: 'Anular',
      icon: 'disable',
      intent: 'danger',
      hidden: (q) => q.status !== 'BORRADOR' && q.status !== 'ENVIADA',
      onClick: request('annul'),
    },
  ];
  return (
    <>
      <ResourceToolbar
        list={list}
        filters={
          <>
            <FilterSelect
              list={list}
              field="status"
              label="Estado"
              allLabel="Todos los estados"
              options={QUOTE_STATUSES.map((s) => ({ value: s, label: QUOTE_STATUS_LABELS[s] }))}
            />
            <FilterSelect
              list={list}
              field="subdivision_id"
              label="Lotización"
              allLabel="Todas las lotizaciones"
              options={subdivisions.map((s) => ({ value: String(s.id), label: s.name }))}
            />
          </>
        }
      />
      <ResourceTable<Quote> list={list} columns={QUOTE_COLUMNS} rowKey={(q) => q.id} caption="Cotizaciones" rowActions={rowActions} />
      <ListStates list={list} />
      <RecordActionAlert actions={actions} confirmations={QUOTE_CONFIRM} />
    </>
  );
}

/** One sale: buyers, lot, terms and its schedule with what was paid. */
/** "Pagado S/ … · Reembolso S/ … · Penalidad S/ …" or "… · Acreditado a V-…: S/ …" of an annulled sale's settlement. */
function settlementLine(sale: Sale): string {
  const st = sale.settlement!;
  const money = (cents: number) => formatMoney(cents, sale.currency);
  const where =
    st.mode === 'REEMBOLSO'
      ? `Reembolso ${money(st.refund)}`
      : `Acreditado a ${st.target_sale?.number ?? 'otra venta'}: ${money(st.credited)}`;
  return `Pagado ${money(st.paid)} · ${where} · Penalidad ${money(st.penalty)}`;
}

/** "Resuelta: motivo" and "Pagado S/ … · Penalidad S/ … (10 %) · A devolver S/ …" of a resolved sale. */
function rescissionLine(sale: Sale): string {
  const r = sale.rescission!;
  const money = (cents: number) => formatMoney(cents, sale.currency);
  return `${r.overdue_instalments} cuotas vencidas (mínimo ${r.required_overdue}) · Pagado ${money(r.paid)} · Penalidad ${money(r.penalty)} · A devolver ${money(r.refund)}${r.approved_by ? ` · Aprobó ${r.approved_by}` : ''}`;
}

function SaleDrawer({
  detail,
  onAnnul,
  onRescind,
  onReschedule,
}: {
  detail: ActorRefFrom<SaleDetailMachine>;
  onAnnul: (s: Sale) => void;
  /** "Resolver contrato": only for a user holding 'Resolver contratos'. */
  onRescind?: (s: Sale) => void;
  /** "Reprogramar": only for a user holding 'Reprogramar ventas'. */
  onReschedule?: (s: Sale) => void;
}) {
  const isOpen = useSelector(detail, (s) => !s.matches('closed'));
  const sale = useSelector(detail, (s) => s.context.sale);
  const error = useSelector(detail, (s) => s.context.error);
  const loading = useSelector(detail, (s) => s.matches('loading'));
  const contract = useSelector(detail, (s) => s.context.contract);
  const oldSchedules = useSelector(detail, (s) => s.context.oldSchedules);
  const downloading = useSelector(detail, (s) => s.matches({ ready: 'downloading' }));
  const canGenerateContract = hasPermissions(useSession(selectPermissions), AUTH_ROUTES.generarContrato.permissions);
  const { navigate } = useServices();
  return (
    <SideDrawer
      isOpen={isOpen}
      onClose={() => detail.send({ type: 'detail.close' })}
      size="640px"
      title={sale ? `Venta ${sale.number}` : 'Venta'}
    >
      <div className={Classes.DIALOG_BODY}>
        {error ? (
          <Callout intent="danger" className="crm-callout">
            {error} <Button variant="minimal" size="small" text="Reintentar" onClick={() => detail.send({ type: 'detail.refresh' })} />
          </Callout>
        ) : null}
        {!sale && loading ? <p className={Classes.SKELETON}>Cargando…</p> : null}
        {sale ? (
          <>
            <div className="sale-status">
              {statusTag(sale.status)} <span className={Classes.TEXT_MUTED}>{formatDate(sale.sale_date)}</span>
            </div>
            {sale.annul_reason ? (
              <Callout intent="danger" compact className="crm-callout">
                Anulada: {sale.annul_reason}
                {sale.settlement ? <p>{settlementLine(sale)}</p> : null}
              </Callout>
            ) : null}
            {sale.rescission ? (
              <Callout intent="danger" compact className="crm-callout">
                Resuelta: {sale.rescission.reason}
                <p data-testid="sale-rescission">{rescissionLine(sale)}</p>
                <SaleDocumentRow
                  link={sale.rescission.letter}
                  pending={sale.rescission.letter_pending}
                  text="Descargar carta de resolución"
                  fileName={`carta-resolucion-${sale.number}.pdf`}
                  downloading={downloading}
                  onDownload={(path, fileName) => detail.send({ type: 'detail.download', path, fileName })}
                  testId="sale-letter"
                />
              </Callout>
            ) : null}
            {sale.adenda ? (
              <Callout compact className="crm-callout">
                Reprogramada: cronograma N.º {sale.adenda.schedule_number}
                <SaleDocumentRow
                  link={sale.adenda.document}
                  pending={sale.adenda.document_pending}
                  text="Descargar adenda"
                  fileName={`adenda-${sale.number}-${sale.adenda.schedule_number}.pdf`}
                  downloading={downloading}
                  onDownload={(path, fileName) => detail.send({ type: 'detail.download', path, fileName })}
                  testId="sale-adenda"
                />
              </Callout>
            ) : null}
            <dl className="quote-totals">
              <dt>Lote</dt>
              <dd>
                {sale.lot.code} · {sale.lot.subdivision_name}
              </dd>
              {sale.holders.map((h) => (
                <FragmentRow
                  key={h.id}
                  label={HOLDER_ROLE_LABELS[h.role as HolderRole] ?? h.role}
                  value={`${h.display_name} (${h.share_percent} %)`}
                />
              ))}
              {sale.guarantor ? <FragmentRow label="Garante" value={sale.guarantor.display_name} /> : null}
              <dt>Tipo</dt>
              <dd>
                {typeLabel(sale.type)}
                {sale.instalments > 0
                  ? ` · ${sale.instalments} cuotas · ${QUOTE_METHOD_LABELS[sale.method as keyof typeof QUOTE_METHOD_LABELS] ?? sale.method} · ${sale.monthly_rate_percent} % mensual`
                  : ''}
              </dd>
              <dt>Precio final</dt>
              <dd>{money(sale, sale.final_price)}</dd>
              <dt>Cuota inicial</dt>
              <dd>
                {money(sale, sale.down_payment)}
                {sale.reservation_credit > 0 ? ` (separación abonada: ${money(sale, sale.reservation_credit)})` : ''}
              </dd>
              <dt>Intereses</dt>
              <dd>{money(sale, sale.total_interest)}</dd>
              <SaleCreditCostRows sale={sale} />
              <dt>Pagado</dt>
              <dd>{money(sale, sale.paid)}</dd>
              <dt>Saldo</dt>
              <dd>
                <strong>{money(sale, sale.balance)}</strong>
              </dd>
              {contract ? (
                <>
                  <dt>Contrato</dt>
                  <dd data-testid="sale-contract">
                    {contract.number ?? 'Sin número (borrador)'} · <ContractStateTag state={contract.state} />
                  </dd>
                </>
              ) : null}
            </dl>
            <div className="sale-drawer-actions">
              {canGenerateContract && !isEndedSale(sale.status) ? (
                <Button icon="document" text="Contrato" onClick={() => navigate(generateContractPath(sale.id))} />
              ) : null}
              {!isEndedSale(sale.status) && sale.status !== 'CANCELADA' ? (
                <>
                  <Button icon="disable" intent="danger" text="Anular venta" onClick={() => onAnnul(sale)} />
                  {onRescind && sale.schedule.some((r) => r.status === 'VENCIDA') ? (
                    <Button
                      icon="take-action"
                      intent="danger"
                      variant="outlined"
                      text="Resolver contrato"
                      onClick={() => onRescind(sale)}
                    />
                  ) : null}
                  {onReschedule && sale.status === 'EN_CUOTAS' && sale.type === 'FINANCIADO' ? (
                    <Button icon="calendar" text="Reprogramar" onClick={() => onReschedule(sale)} />
                  ) : null}
                </>
              ) : null}
            </div>
            <h3 className={Classes.HEADING}>Cronograma</h3>
            <SaleScheduleTable sale={sale} />
            {oldSchedules.length > 0 ? <OldSchedules schedules={oldSchedules} currency={sale.currency} /> : null}
          </>
        ) : null}
      </div>
    </SideDrawer>
  );
}

/**
 * The schedules an adenda superseded (docs/domain.md "Rescheduling (adenda)"), newest first, each
 * folded under the adenda that replaced it: read-only, as they stood then.
 */
function OldSchedules({ schedules, currency }: { schedules: SaleSchedule[]; currency: Sale['currency'] }) {
  return (
    <section aria-labelledby="sale-old-schedules" className="sale-old-schedules">
      <h3 id="sale-old-schedules" className={Classes.HEADING}>
        Cronogramas anteriores
      </h3>
      {schedules.map((s) => (
        <details key={s.number}>
          <summary>
            Cronograma {s.number}
            {s.superseded_at ? ` · reemplazado el ${formatDate(s.superseded_at.slice(0, 10))}` : ''}
            {s.replaced_by ? ` por la adenda: ${s.replaced_by.reason}` : ''}
          </summary>
          <SaleScheduleTable sale={{ schedule: s.rows as Sale['schedule'], currency }} label={`Cronograma ${s.number} (reemplazado)`} />
        </details>
      ))}
    </section>
  );
}

/**
 * A generated document of the sale (the letter of resolution, the adenda; docs/domain.md "Rescission
 * and rescheduling: their documents"): "Descargar …" once issued (with its number), else the Spanish
 * notice of why it is pending.
 */
function SaleDocumentRow({
  link,
  pending,
  text,
  fileName,
  downloading,
  onDownload,
  testId,
}: {
  link: SaleDocumentLink | null;
  pending: string | null;
  text: string;
  fileName: string;
  downloading: boolean;
  onDownload: (path: string, fileName: string) => void;
  testId: string;
}) {
  const path = link?.download_path;
  if (path)
    return (
      <p data-testid={testId}>
        <Button icon="download" size="small" text={text} loading={downloading} onClick={() => onDownload(path, fileName)} />{' '}
        <span className={Classes.TEXT_MUTED}>{link.number}</span>
      </p>
    );
  return pending ? (
    <p className={Classes.TEXT_MUTED} data-testid={testId}>
      {pending}
    </p>
  ) : null;
}

function FragmentRow({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  );
}
