import { use, useMemo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Button, Callout, Classes, DialogBody, DialogFooter, HTMLTable, InputGroup, Tag, TextArea, type Intent } from '@blueprintjs/core';
import { Dialog } from '../shared/BlueprintEs';
import { DiscardChangesAlert } from '../shared/DiscardChangesAlert';
import { useReturnFocus } from '../shared/focus-return';
import { useSearch } from 'wouter';
import { listQueryFromSearchParams } from '../../schemas/list';
import {
  DAYS_LATE_BUCKETS,
  DAYS_LATE_BUCKET_LABELS,
  INSTALMENT_STATUSES,
  INSTALMENT_STATUS_LABELS,
  type InstalmentRow,
  type InstalmentStatusCode,
  type InstalmentTotals,
} from '../../schemas/finanzas/instalments';
import { formatMoney } from '../../lib/money';
import { dateCell } from '../../lib/csv';
import { formatDate } from '../../lib/dates';
import type { InstalmentsMachines } from '../../machines/finanzas/instalments.actors';
import type { WaiveLateFeeMachine } from '../../machines/finanzas/waive-late-fee.machine';
import { inspectOption } from '../../machines/inspect';
import { useServices } from '../services';
import { ResourceTable, type RowAction, type TableColumn } from '../shared/ResourceTable';
import { ResourceToolbar } from '../shared/ResourceToolbar';
import { ListStates } from '../shared/ListStates';
import { FilterSelect } from '../shared/FilterSelect';
import { FieldGroup } from '../shared/FieldGroup';
import { DateRangeFilter } from '../shared/DateRangeFilter';
import { useResourceList, useResourceListEvents, type ResourceListRef } from '../shared/resource-hooks';
import '../../styles/finanzas.css';

/**
 * Finanzas → Registro de Cuotas (/FINANZAS/RegistroCuotas; issue 16): every instalment of the sales
 * with its sale, customer, lot, due date, amount, paid, balance, status, days late and late fee
 * (generada, pagada, condonada, pendiente); search (cliente, documento, lote, venta), filters in the
 * URL (estado, días de atraso, lotización, vencimiento desde/hasta; `customer_id` and `sale_id` from
 * links, shown as removable tags), sorting (by default open instalments by due date, paid ones last), the totals of the whole filtered set per currency,
 * "Condonar mora" (amount and reason) and "Exportar" (the server's CSV or Excel of the filtered set).
 */

/** Query parameters the screen reads from the URL as filters. */
export const INSTALMENT_FILTERS = ['status', 'days_late', 'subdivision_id', 'customer_id', 'sale_id', 'due_from', 'due_to'] as const;

const STATUS_INTENT: Record<InstalmentStatusCode, Intent> = { PENDIENTE: 'none', PARCIAL: 'primary', PAGADA: 'success', VENCIDA: 'danger' };

const nowrap = (text: string) => <span className="finance-nowrap">{text}</span>;
const money = (cents: number, row: InstalmentRow) => nowrap(formatMoney(cents, row.currency));
const instalmentLabel = (r: Pick<InstalmentRow, 'kind' | 'number'>) => `${r.kind === 'INICIAL' ? 'Inicial' : 'Cuota'} ${r.number}`;

const COLUMNS: TableColumn<InstalmentRow>[] = [
  { key: 'sale', label: 'Venta', render: (r) => nowrap(r.sale.number), exportValue: (r) => r.sale.number },
  {
    key: 'customer',
    label: 'Cliente',
    render: (r) =>
      r.customer ? (
        <>
          {r.customer.display_name}
          <div className={Classes.TEXT_MUTED}>{r.customer.document_number}</div>
        </>
      ) : (
        '—'
      ),
    exportValue: (r) => r.customer?.display_name ?? '',
  },
  { key: 'lot_code', label: 'Lote', render: (r) => nowrap(r.lot_code) },
  {
    key: 'subdivision',
    label: 'Lotización',
    render: (r) => r.subdivision.name,
    exportValue: (r) => r.subdivision.name,
    hiddenByDefault: true,
  },
  { key: 'number', label: 'Cuota', render: (r) => nowrap(instalmentLabel(r)), exportValue: (r) => instalmentLabel(r) },
  {
    key: 'due_date',
    label: 'Vence',
    sortable: true,
    render: (r) => nowrap(formatDate(r.due_date)),
    exportValue: (r) => dateCell(r.due_date),
  },
  { key: 'amount', label: 'Monto', align: 'right', render: (r) => money(r.amount, r), exportValue: (r) => r.amount / 100 },
  { key: 'paid', label: 'Pagado', align: 'right', render: (r) => money(r.paid, r), exportValue: (r) => r.paid / 100 },
  { key: 'balance', label: 'Saldo', align: 'right', render: (r) => money(r.balance, r), exportValue: (r) => r.balance / 100 },
  {
    key: 'status',
    label: 'Estado',
    render: (r) => (
      <Tag minimal intent={STATUS_INTENT[r.status]}>
        {INSTALMENT_STATUS_LABELS[r.status]}
      </Tag>
    ),
    exportValue: (r) => INSTALMENT_STATUS_LABELS[r.status],
  },
  { key: 'days_late', label: 'Días de atraso', align: 'right', render: (r) => (r.days_late > 0 ? String(r.days_late) : '—') },
  {
    key: 'late_fee_accrued',
    label: 'Mora generada',
    align: 'right',
    render: (r) => money(r.late_fee_accrued, r),
    exportValue: (r) => r.late_fee_accrued / 100,
  },
  {
    key: 'late_fee_paid',
    label: 'Mora pagada',
    align: 'right',
    render: (r) => money(r.late_fee_paid, r),
    exportValue: (r) => r.late_fee_paid / 100,
  },
  {
    key: 'late_fee_waived',
    label: 'Mora condonada',
    align: 'right',
    render: (r) => money(r.late_fee_waived, r),
    exportValue: (r) => r.late_fee_waived / 100,
  },
  {
    key: 'late_fee_due',
    label: 'Mora pendiente',
    align: 'right',
    render: (r) => (r.late_fee_due > 0 ? <strong>{formatMoney(r.late_fee_due, r.currency)}</strong> : money(0, r)),
    exportValue: (r) => r.late_fee_due / 100,
  },
];

export function InstalmentsScreen() {
  const machines = use(useServices().machines.instalments());
  return <InstalmentsPage machines={machines} />;
}

export function InstalmentsPage({ machines }: { machines: InstalmentsMachines }) {
  const search = useSearch();
  // No sort in the address: the server's default order, open instalments by due date and the
  // paid ones last (docs/domain.md "Registro de Cuotas"); the 'Vence' header sorts by due date alone.
  const initialQuery = useMemo(
    () => listQueryFromSearchParams(search, { allowedFilters: INSTALMENT_FILTERS }),
    // The URL is read once, when the screen opens; afterwards the list keeps it in sync.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const page = useActorRef(machines.page, {
    input: { list: { columns: COLUMNS, exportName: 'registro-cuotas', query: initialQuery } },
    ...inspectOption(),
  });
  const list = useSelector(page, (s) => s.context.list);
  const waive = useSelector(page, (s) => s.context.waive);
  const subdivisions = useSelector(
    useSelector(page, (s) => s.context.subdivisions),
    (s) => s.context.value,
  );
  const totals = useSelector(page, (s) => s.context.totals);
  const totalsLoading = useSelector(page, (s) => s.matches('loading'));
  const totalsError = useSelector(page, (s) => s.context.totalsError);

  const rowActions: RowAction<InstalmentRow>[] = [
    {
      text: 'Condonar mora',
      icon: 'undo',
      hidden: (r) => r.late_fee_due <= 0,
      onClick: (r) => waive.send({ type: 'waive.open', row: r }),
    },
  ];

  return (
    <section className="finance-page instalments-page" aria-labelledby="cuotas-title">
      <h1 id="cuotas-title" className="bp6-heading finance-page-title">
        Registro de Cuotas
      </h1>
      <ResourceToolbar
        list={list}
        filters={
          <>
            <FilterSelect
              list={list}
              field="status"
              label="Estado"
              allLabel="Todos los estados"
              options={INSTALMENT_STATUSES.map((s) => ({ value: s, label: INSTALMENT_STATUS_LABELS[s] }))}
            />
            <FilterSelect
              list={list}
              field="days_late"
              label="Días de atraso"
              allLabel="Cualquier atraso"
              options={DAYS_LATE_BUCKETS.map((b) => ({ value: b, label: DAYS_LATE_BUCKET_LABELS[b] }))}
            />
            <FilterSelect
              list={list}
              field="subdivision_id"
              label="Lotización"
              allLabel="Todas las lotizaciones"
              options={subdivisions.map((s) => ({ value: String(s.id), label: s.name }))}
            />
            <DueRange list={list} />
            <LinkFilters list={list} />
          </>
        }
      />
      <TotalsTable totals={totals} loading={totalsLoading} error={totalsError} onRetry={() => page.send({ type: 'totals.retry' })} />
      <ResourceTable<InstalmentRow> list={list} columns={COLUMNS} rowKey={(r) => r.id} caption="Cuotas" rowActions={rowActions} />
      <ListStates list={list} />
      <WaiveDialog actor={waive} />
    </section>
  );
}

/** "Vence desde / hasta": the due-date range (dd/mm/yyyy) writing `due_from` and `due_to`. */
function DueRange({ list }: { list: ResourceListRef<InstalmentRow> }) {
  return (
    <span className="instalments-due-range" role="group" aria-label="Vencimiento">
      <DateRangeFilter
        list={list}
        fromField="due_from"
        toField="due_to"
        labels={['Vence desde', 'hasta']}
        idPrefix="instalments-due"
        minDate={DUE_RANGE.min}
        maxDate={DUE_RANGE.max}
        className="instalments-due-end"
      />
    </span>
  );
}

/** Due dates a filter may name: schedules run up to 30 years (360 instalments). */
const DUE_RANGE = { min: '2000-01-01', max: '2099-12-31' } as const;

/** The filters that arrive with a link (a customer's or a sale's instalments), as removable tags. */
function LinkFilters({ list }: { list: ResourceListRef<InstalmentRow> }) {
  const customerId = useResourceList(list, (s) => s.context.query.filters.customer_id);
  const saleId = useResourceList(list, (s) => s.context.query.filters.sale_id);
  const { changeFilter } = useResourceListEvents(list);
  return (
    <>
      {customerId ? (
        <Tag large minimal onRemove={() => changeFilter('customer_id', undefined)}>
          Cliente n.º {customerId}
        </Tag>
      ) : null}
      {saleId ? (
        <Tag large minimal onRemove={() => changeFilter('sale_id', undefined)}>
          Venta V-{saleId.padStart(6, '0')}
        </Tag>
      ) : null}
    </>
  );
}

/** Totals of the whole filtered set, one row per currency. */
function TotalsTable({
  totals,
  loading,
  error,
  onRetry,
}: {
  totals: InstalmentTotals[] | null;
  loading: boolean;
  error: string | null;
  onRetry: () => void;
}) {
  if (error)
    return (
      <Callout intent="warning" className="instalments-totals" title="No se pudieron calcular los totales">
        {error} <Button size="small" variant="minimal" text="Reintentar" onClick={onRetry} />
      </Callout>
    );
  const rows = totals ?? [];
  return (
    <div className="instalments-totals" aria-busy={loading}>
      <HTMLTable compact className="instalments-totals-table">
        <caption>Totales del filtro</caption>
        <thead>
          <tr>
            <th scope="col">Moneda</th>
            <th scope="col">Cuotas</th>
            <th scope="col">Monto</th>
            <th scope="col">Pagado</th>
            <th scope="col">Saldo</th>
            <th scope="col">Mora generada</th>
            <th scope="col">Mora pagada</th>
            <th scope="col">Mora condonada</th>
            <th scope="col">Mora pendiente</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={9} className={Classes.TEXT_MUTED}>
                {loading ? 'Calculando…' : 'Sin cuotas'}
              </td>
            </tr>
          ) : (
            rows.map((t) => (
              <tr key={t.currency}>
                <th scope="row">{t.currency === 'PEN' ? 'Soles' : 'Dólares'}</th>
                <td>{t.count.toLocaleString('es-PE')}</td>
                <td>{formatMoney(t.amount, t.currency)}</td>
                <td>{formatMoney(t.paid, t.currency)}</td>
                <td>{formatMoney(t.balance, t.currency)}</td>
                <td>{formatMoney(t.late_fee_accrued, t.currency)}</td>
                <td>{formatMoney(t.late_fee_paid, t.currency)}</td>
                <td>{formatMoney(t.late_fee_waived, t.currency)}</td>
                <td>
                  <strong>{formatMoney(t.late_fee_due, t.currency)}</strong>
                </td>
              </tr>
            ))
          )}
        </tbody>
      </HTMLTable>
    </div>
  );
}

/**
 * "Condonar mora": the instalment, its late fee, the amount (prefilled with what is owed) and the reason.
 * Closing with typed data asks "¿Descartar los cambios?"; closing gives focus back to the row's
 * "Acciones" (docs/decisions.md "Keyboard and focus").
 */
function WaiveDialog({ actor }: { actor: ActorRefFrom<WaiveLateFeeMachine> }) {
  const row = useSelector(actor, (s) => (s.matches('closed') ? null : s.context.row));
  const amount = useSelector(actor, (s) => s.context.amountText);
  const reason = useSelector(actor, (s) => s.context.reason);
  const errors = useSelector(actor, (s) => s.context.errors);
  const error = useSelector(actor, (s) => s.context.error);
  const submitting = useSelector(actor, (s) => s.matches('submitting'));
  const close = () => actor.send({ type: 'waive.close' });
  const confirmingDiscard = useSelector(actor, (s) => s.matches('confirmingDiscard'));
  useReturnFocus(row !== null);
  return (
    <Dialog isOpen={row !== null} onClose={submitting ? undefined : close} title="Condonar mora" icon="undo">
      {row ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            actor.send({ type: 'waive.submit' });
          }}
        >
          <DialogBody>
            <p>
              {row.sale.number} · {instalmentLabel(row)} · vence el {formatDate(row.due_date)}
              {row.customer ? ` · ${row.customer.display_name}` : ''}
            </p>
            <HTMLTable compact className="instalments-waive-figures">
              <tbody>
                <tr>
                  <th scope="row">Mora generada</th>
                  <td>{formatMoney(row.late_fee_accrued, row.currency)}</td>
                </tr>
                <tr>
                  <th scope="row">Mora pagada</th>
                  <td>{formatMoney(row.late_fee_paid, row.currency)}</td>
                </tr>
                <tr>
                  <th scope="row">Mora condonada</th>
                  <td>{formatMoney(row.late_fee_waived, row.currency)}</td>
                </tr>
                <tr>
                  <th scope="row">Mora pendiente</th>
                  <td>
                    <strong>{formatMoney(row.late_fee_due, row.currency)}</strong>
                  </td>
                </tr>
              </tbody>
            </HTMLTable>
            {error ? (
              <Callout intent="danger" className="finance-hint">
                {error}
              </Callout>
            ) : null}
            <FieldGroup label={`Monto a condonar (${row.currency === 'PEN' ? 'S/' : 'US$'})`} labelFor="waive-amount" error={errors.amount}>
              <InputGroup
                id="waive-amount"
                inputMode="decimal"
                autoComplete="off"
                value={amount}
                intent={errors.amount ? 'danger' : 'none'}
                aria-invalid={Boolean(errors.amount)}
                aria-describedby={errors.amount ? 'waive-amount-error' : undefined}
                onValueChange={(value) => actor.send({ type: 'waive.changed', field: 'amount', value })}
              />
            </FieldGroup>
            <FieldGroup label="Motivo" labelFor="waive-reason" error={errors.reason}>
              <TextArea
                id="waive-reason"
                fill
                value={reason}
                intent={errors.reason ? 'danger' : 'none'}
                aria-invalid={Boolean(errors.reason)}
                aria-describedby={errors.reason ? 'waive-reason-error' : undefined}
                onChange={(e) => actor.send({ type: 'waive.changed', field: 'reason', value: e.target.value })}
              />
            </FieldGroup>
          </DialogBody>
          <DialogFooter
            actions={
              <>
                <Button text="Cancelar" onClick={close} disabled={submitting} />
                <Button type="submit" intent="primary" text="Condonar" loading={submitting} />
              </>
            }
          />
        </form>
      ) : null}
      {/* Blueprint's Alert draws in its own portal, stacked over the dialog. */}
      <DiscardChangesAlert
        isOpen={confirmingDiscard}
        onDiscard={() => actor.send({ type: 'waive.discard' })}
        onKeepEditing={() => actor.send({ type: 'waive.keepEditing' })}
      />
    </Dialog>
  );
}
