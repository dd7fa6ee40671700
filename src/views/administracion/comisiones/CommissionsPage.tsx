import { use, useMemo, useState, type ReactNode } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import {
  Button,
  Callout,
  Checkbox,
  Classes,
  FileInput,
  FormGroup,
  HTMLTable,
  InputGroup,
  Tab,
  Tabs,
  Tag,
  type Intent,
} from '@blueprintjs/core';
import {
  COMMISSION_BASE_LABELS,
  COMMISSION_ROLE_LABELS,
  COMMISSION_ROLES,
  COMMISSION_STATE_LABELS,
  COMMISSION_STATES,
  COMMISSION_TRIGGER_LABELS,
  SETTLEMENT_STATE_LABELS,
  SETTLEMENT_STATES,
  TRANCHE_MOMENT_LABELS,
  type Commission,
  type CommissionAgent,
  type CommissionPolicy,
  type CommissionState,
  type Settlement,
  type SettlementDetail,
  type SettlementState,
} from '../../../schemas/administracion/commissions';
import { defaultListQuery } from '../../../schemas/list';
import { formatMoney } from '../../../lib/money';
import { formatDate } from '../../../lib/dates';
import { dateCell } from '../../../lib/csv';
import { todayInLima } from '../../../lib/lima-today';
import type { CommissionsMachines } from '../../../machines/administracion/commissions.actors';
import type { SettlementMachine } from '../../../machines/administracion/settlement.machine';
import { inspectOption } from '../../../machines/inspect';
import { useServices, useSession } from '../../services';
import { hasPermissions, selectPermissions } from '../../../machines/session/session.selectors';
import { ACTION } from '../../../schemas/permissions';
import { ResourceTable, type RowAction, type TableColumn } from '../../shared/ResourceTable';
import { ResourceToolbar } from '../../shared/ResourceToolbar';
import { ListStates } from '../../shared/ListStates';
import { FilterSelect } from '../../shared/FilterSelect';
import { DateRangeFilter } from '../../shared/DateRangeFilter';
import { IsoDateInput } from '../../shared/IsoDateInput';
import { SideDrawer } from '../../shared/SideDrawer';
import { HTMLSelect } from '../../shared/BlueprintEs';
import { useResourceActors, useResourceEditorEvents, type ResourceListRef } from '../../shared/resource-hooks';
import { EMPTY_POLICY, POLICY_FIELDS, policyFormSchema, policyValues } from '../../../machines/administracion/policy-form';
import { PolicyDialog } from './PolicyDialog';
import '../../../styles/finanzas.css';
import '../../../styles/commissions.css';

/**
 * Administración → Comisiones y Pagos (/ADMINISTRACION/ComisionesPagos; docs/domain.md
 * "Commissions"): three tabs — Comisiones (every commission with filters by estado, asesor,
 * lotización and periodo; an agent sees theirs and their team's), Liquidaciones (create one for a
 * period and agents, see its agents' totals and lines, approve, attach the voucher, pay, Excel, the
 * PDF per agent) and Políticas (per lotización and rol).
 */

const STATE_INTENT: Record<CommissionState, Intent> = {
  PROYECTADA: 'none',
  DEVENGADA: 'primary',
  LIQUIDADA: 'warning',
  PAGADA: 'success',
  ANULADA: 'none',
  REVERTIDA: 'danger',
};
const SETTLEMENT_INTENT: Record<SettlementState, Intent> = { BORRADOR: 'none', APROBADA: 'warning', PAGADA: 'success' };
const nowrap = (text: string) => <span className="finance-nowrap">{text}</span>;
const percent = (bp: number | null) => (bp === null ? '—' : `${(bp / 100).toLocaleString('es-PE', { maximumFractionDigits: 2 })} %`);
/** The "Estado" column: the state's label in a tag of its colour. */
function stateColumn<Row extends { state: S }, S extends string>(labels: Record<S, string>, intents: Record<S, Intent>): TableColumn<Row> {
  return {
    key: 'state',
    label: 'Estado',
    render: (r) => (
      <Tag minimal intent={intents[r.state]}>
        {labels[r.state]}
      </Tag>
    ),
    exportValue: (r) => labels[r.state],
  };
}

/** An amount column in the row's currency (exported in soles / dollars). */
function moneyColumn<Row extends { currency: 'PEN' | 'USD' }>(key: string, label: string, amount: (r: Row) => number): TableColumn<Row> {
  return { key, label, align: 'right', render: (r) => nowrap(formatMoney(amount(r), r.currency)), exportValue: (r) => amount(r) / 100 };
}

/** A tab's body: the toolbar with its filters, the table and the empty / failed states. */
function ListTab<Row>({
  list,
  columns,
  caption,
  filters,
  rowActions,
  rowKey,
}: {
  list: ResourceListRef<Row>;
  columns: TableColumn<Row>[];
  caption: string;
  filters: ReactNode;
  rowActions?: RowAction<Row>[];
  rowKey: (row: Row) => number;
}) {
  return (
    <>
      <ResourceToolbar list={list} filters={filters} />
      <ResourceTable<Row> list={list} columns={columns} rowKey={rowKey} caption={caption} {...(rowActions ? { rowActions } : {})} />
      <ListStates list={list} />
    </>
  );
}

/** The "Lotización" filter of a tab. */
function SubdivisionFilter<Row>({ list, subdivisions }: { list: ResourceListRef<Row>; subdivisions: Options }) {
  return (
    <FilterSelect
      list={list}
      field="subdivision_id"
      label="Lotización"
      allLabel="Todas las lotizaciones"
      options={subdivisions.map((s) => ({ value: String(s.id), label: s.name }))}
    />
  );
}

/** A cell of two lines: the value, and under it a muted detail (the sale's lot, the beneficiary's role). */
const twoLines = (main: string, detail: string) => (
  <>
    <span className="finance-nowrap">{main}</span>
    <br />
    <span className={`${Classes.TEXT_MUTED} commissions-cell-detail`}>{detail}</span>
  </>
);

/**
 * The Comisiones tab's columns, eight so that the table fits beside the menu at 1280 px (docs/decisions.md
 * "No page scrolls sideways"; a narrower screen scrolls it inside its box): the lot goes under its sale,
 * the role under the beneficiary, and the tranche's moment under its number.
 */
const COMMISSION_COLUMNS: TableColumn<Commission>[] = [
  {
    key: 'sale',
    label: 'Venta',
    render: (r) => twoLines(r.sale.number, r.sale.lot_code),
    exportValue: (r) => `${r.sale.number} · ${r.sale.lot_code}`,
  },
  { key: 'subdivision', label: 'Lotización', render: (r) => r.sale.subdivision_name, exportValue: (r) => r.sale.subdivision_name },
  {
    key: 'agent',
    label: 'Beneficiario',
    render: (r) => (
      <>
        {r.agent.name}
        <br />
        <span className={`${Classes.TEXT_MUTED} commissions-cell-detail`}>{COMMISSION_ROLE_LABELS[r.role]}</span>
      </>
    ),
    exportValue: (r) => `${r.agent.name} · ${COMMISSION_ROLE_LABELS[r.role]}`,
  },
  {
    key: 'tranche',
    label: 'Tramo',
    render: (r) => twoLines(`${r.tranche}/${r.tranche_count}`, TRANCHE_MOMENT_LABELS[r.tranche_at]),
    exportValue: (r) => `${r.tranche}/${r.tranche_count} · ${TRANCHE_MOMENT_LABELS[r.tranche_at]}`,
  },
  { ...moneyColumn<Commission>('amount', 'Monto', (r) => r.amount), sortable: true },
  stateColumn<Commission, CommissionState>(COMMISSION_STATE_LABELS, STATE_INTENT),
  {
    key: 'accrued_on',
    label: 'Devengada',
    sortable: true,
    render: (r) => nowrap(r.accrued_on ? formatDate(r.accrued_on) : '—'),
    exportValue: (r) => dateCell(r.accrued_on),
  },
  {
    key: 'settlement',
    label: 'Liquidación',
    render: (r) => nowrap(r.settlement?.number ?? '—'),
    exportValue: (r) => r.settlement?.number ?? '',
  },
];

const SETTLEMENT_COLUMNS: TableColumn<Settlement>[] = [
  { key: 'number', label: 'Liquidación', render: (r) => nowrap(r.number) },
  {
    key: 'period',
    label: 'Periodo',
    render: (r) => nowrap(`${formatDate(r.period_from)} – ${formatDate(r.period_to)}`),
    exportValue: (r) => `${r.period_from} – ${r.period_to}`,
  },
  { key: 'agents_count', label: 'Asesores', align: 'right', render: (r) => String(r.agents_count) },
  moneyColumn<Settlement>('total', 'Total', (r) => r.total),
  moneyColumn<Settlement>('withholding', 'Retención', (r) => r.withholding),
  stateColumn<Settlement, SettlementState>(SETTLEMENT_STATE_LABELS, SETTLEMENT_INTENT),
  {
    key: 'paid_on',
    label: 'Pagada',
    render: (r) => nowrap(r.paid_on ? formatDate(r.paid_on) : '—'),
    exportValue: (r) => dateCell(r.paid_on),
  },
];

const POLICY_COLUMNS: TableColumn<CommissionPolicy>[] = [
  { key: 'subdivision', label: 'Lotización', render: (r) => r.subdivision.name, exportValue: (r) => r.subdivision.name },
  { key: 'role', label: 'Rol', render: (r) => COMMISSION_ROLE_LABELS[r.role], exportValue: (r) => COMMISSION_ROLE_LABELS[r.role] },
  { key: 'base', label: 'Base', render: (r) => COMMISSION_BASE_LABELS[r.base], exportValue: (r) => COMMISSION_BASE_LABELS[r.base] },
  {
    key: 'figure',
    label: 'Comisión',
    align: 'right',
    render: (r) => nowrap(r.base === 'PORCENTAJE' ? percent(r.percent_bp) : formatMoney(r.amount ?? 0, r.subdivision.currency)),
  },
  {
    key: 'trigger',
    label: 'Disparador',
    render: (r) =>
      `${COMMISSION_TRIGGER_LABELS[r.trigger]}${r.trigger === 'PORCENTAJE_COBRADO' ? ` (${percent(r.trigger_percent_bp)})` : ''}`,
  },
  {
    key: 'tranches',
    label: 'Tramos',
    render: (r) => r.tranches.map((t) => `${percent(t.share_bp)} ${TRANCHE_MOMENT_LABELS[t.at].toLowerCase()}`).join(' · '),
  },
  { key: 'active', label: 'Activa', render: (r) => (r.active ? 'Sí' : 'No') },
];

export function CommissionsScreen() {
  const machines = use(useServices().machines.commissions());
  const canManage = hasPermissions(useSession(selectPermissions), [ACTION.gestionarComisiones]);
  return <CommissionsPage machines={machines} canManage={canManage} />;
}

/**
 * @param canManage the user has "Gestionar comisiones y liquidaciones": Liquidaciones and Políticas
 *   are theirs (the server answers them to no one else); an agent with only their own or their
 *   team's commissions sees the Comisiones tab alone.
 */
export function CommissionsPage({ machines, canManage }: { machines: CommissionsMachines; canManage: boolean }) {
  const [tab, setTab] = useState<'comisiones' | 'liquidaciones' | 'politicas'>('comisiones');
  const subdivisionsRef = useActorRef(machines.subdivisions, inspectOption());
  const agentsRef = useActorRef(machines.agents, inspectOption());
  const subdivisions = useSelector(subdivisionsRef, (s) => s.context.value);
  const agents = useSelector(agentsRef, (s) => s.context.value);
  return (
    <section className="finance-page commissions-page" aria-labelledby="comisiones-title">
      <h1 id="comisiones-title" className="bp6-heading finance-page-title">
        Comisiones y Pagos
      </h1>
      <Tabs id="comisiones-tabs" selectedTabId={tab} onChange={(id) => setTab(id as typeof tab)} renderActiveTabPanelOnly>
        <Tab
          id="comisiones"
          title="Comisiones"
          panel={<CommissionsTab machines={machines} subdivisions={subdivisions} agents={agents} />}
        />
        {canManage ? <Tab id="liquidaciones" title="Liquidaciones" panel={<SettlementsTab machines={machines} agents={agents} />} /> : null}
        {canManage ? (
          <Tab id="politicas" title="Políticas" panel={<PoliciesTab machines={machines} subdivisions={subdivisions} />} />
        ) : null}
      </Tabs>
    </section>
  );
}

type Options = { id: number; name: string }[];

function CommissionsTab({
  machines,
  subdivisions,
  agents,
}: {
  machines: CommissionsMachines;
  subdivisions: Options;
  agents: CommissionAgent[];
}) {
  const query = useMemo(() => ({ ...defaultListQuery(), sort: '-id' }), []);
  const list = useActorRef(machines.commissions, {
    input: { columns: COMMISSION_COLUMNS, exportName: 'comisiones', query },
    ...inspectOption(),
  });
  return (
    <ListTab<Commission>
      list={list}
      columns={COMMISSION_COLUMNS}
      caption="Comisiones"
      rowKey={(r) => r.id}
      filters={
        <>
          <FilterSelect
            list={list}
            field="state"
            label="Estado"
            allLabel="Todos los estados"
            options={COMMISSION_STATES.map((s) => ({ value: s, label: COMMISSION_STATE_LABELS[s] }))}
          />
          {agents.length > 0 ? (
            <FilterSelect
              list={list}
              field="agent_id"
              label="Asesor"
              allLabel="Todos los asesores"
              options={agents.map((a) => ({ value: String(a.id), label: a.name }))}
            />
          ) : null}
          <SubdivisionFilter list={list} subdivisions={subdivisions} />
          <FilterSelect
            list={list}
            field="role"
            label="Rol"
            allLabel="Todos los roles"
            options={COMMISSION_ROLES.map((r) => ({ value: r, label: COMMISSION_ROLE_LABELS[r] }))}
          />
          <DateRangeFilter
            list={list}
            fromField="period_from"
            toField="period_to"
            labels={['Desde', 'hasta']}
            idPrefix="commissions-period"
            minDate="2000-01-01"
            maxDate="2100-12-31"
            className="commissions-period-end"
          />
        </>
      }
    />
  );
}

function PoliciesTab({ machines, subdivisions }: { machines: CommissionsMachines; subdivisions: Options }) {
  const query = useMemo(() => defaultListQuery(50), []);
  const { list, editor } = useResourceActors(
    { page: machines.policiesPage },
    {
      list: { columns: POLICY_COLUMNS, exportName: 'politicas-comisiones', query },
      editor: { schema: policyFormSchema, fields: POLICY_FIELDS, empty: EMPTY_POLICY, toValues: policyValues },
    },
  );
  const { openCreate, openEdit } = useResourceEditorEvents(editor);
  const rowActions: RowAction<CommissionPolicy>[] = [{ text: 'Editar', icon: 'edit', onClick: (r) => openEdit(r) }];
  return (
    <>
      <ListTab<CommissionPolicy>
        list={list}
        columns={POLICY_COLUMNS}
        caption="Políticas de comisiones"
        rowKey={(r) => r.id}
        rowActions={rowActions}
        filters={
          <>
            <SubdivisionFilter list={list} subdivisions={subdivisions} />
            <Button intent="primary" icon="add" text="Nueva política" onClick={() => openCreate()} />
          </>
        }
      />
      <PolicyDialog editor={editor} subdivisions={subdivisions} />
    </>
  );
}

function SettlementsTab({ machines, agents }: { machines: CommissionsMachines; agents: CommissionAgent[] }) {
  const query = useMemo(() => ({ ...defaultListQuery(), sort: '-id' }), []);
  const page = useActorRef(machines.settlementsPage, {
    input: { list: { columns: SETTLEMENT_COLUMNS, exportName: 'liquidaciones', query } },
    ...inspectOption(),
  });
  const list = useSelector(page, (s) => s.context.list);
  const settlement = useSelector(page, (s) => s.context.settlement);
  const rowActions: RowAction<Settlement>[] = [
    { text: 'Ver', icon: 'eye-open', onClick: (r) => settlement.send({ type: 'settlement.open', id: r.id }) },
  ];
  return (
    <>
      <ListTab<Settlement>
        list={list}
        columns={SETTLEMENT_COLUMNS}
        caption="Liquidaciones"
        rowKey={(r) => r.id}
        rowActions={rowActions}
        filters={
          <>
            <FilterSelect
              list={list}
              field="state"
              label="Estado"
              allLabel="Todos los estados"
              options={SETTLEMENT_STATES.map((s) => ({ value: s, label: SETTLEMENT_STATE_LABELS[s] }))}
            />
            <Button intent="primary" icon="add" text="Nueva liquidación" onClick={() => settlement.send({ type: 'create.open' })} />
          </>
        }
      />
      <SettlementDrawer actor={settlement} agents={agents} />
    </>
  );
}

function SettlementDrawer({ actor, agents }: { actor: ActorRefFrom<SettlementMachine>; agents: CommissionAgent[] }) {
  const state = useSelector(actor, (s) => s.value as string);
  const s = useSelector(actor, (snap) => snap.context.settlement);
  const error = useSelector(actor, (snap) => snap.context.error);
  const fieldErrors = useSelector(actor, (snap) => snap.context.fieldErrors);
  const busy = state === 'working' || state === 'submitting' || state === 'loading';
  const creating = state === 'creating' || state === 'submitting';
  return (
    <SideDrawer
      isOpen={state !== 'closed'}
      title={creating ? 'Nueva liquidación' : (s?.number ?? 'Liquidación')}
      onClose={() => actor.send({ type: 'settlement.close' })}
      size="760px"
      busy={busy}
    >
      <div className="commissions-drawer">
        {error ? (
          <Callout intent="danger" className="commissions-error">
            {error}
          </Callout>
        ) : null}
        {creating ? <CreateForm actor={actor} agents={agents} busy={busy} fieldErrors={fieldErrors} /> : null}
        {s && !creating ? <SettlementDetailView actor={actor} settlement={s} busy={busy} fieldErrors={fieldErrors} /> : null}
      </div>
    </SideDrawer>
  );
}

function CreateForm({
  actor,
  agents,
  busy,
  fieldErrors,
}: {
  actor: ActorRefFrom<SettlementMachine>;
  agents: CommissionAgent[];
  busy: boolean;
  fieldErrors: Record<string, string>;
}) {
  const today = todayInLima();
  const [from, setFrom] = useState(`${today.slice(0, 7)}-01`);
  const [to, setTo] = useState(today);
  const [currency, setCurrency] = useState<'PEN' | 'USD'>('PEN');
  const [chosen, setChosen] = useState<number[]>([]);
  const toggle = (id: number) => setChosen((c) => (c.includes(id) ? c.filter((x) => x !== id) : [...c, id]));
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'create.submit', body: { currency, period_from: from, period_to: to, agent_ids: chosen } });
      }}
    >
      <FormGroup
        label="Desde"
        labelFor="settlement-from"
        helperText={fieldErrors.period_from}
        intent={fieldErrors.period_from ? 'danger' : 'none'}
      >
        <IsoDateInput id="settlement-from" value={from} onChange={setFrom} />
      </FormGroup>
      <FormGroup
        label="Hasta"
        labelFor="settlement-to"
        helperText={fieldErrors.period_to}
        intent={fieldErrors.period_to ? 'danger' : 'none'}
      >
        <IsoDateInput id="settlement-to" value={to} onChange={setTo} />
      </FormGroup>
      <FormGroup label="Moneda" labelFor="settlement-currency">
        <HTMLSelect id="settlement-currency" value={currency} onChange={(e) => setCurrency(e.currentTarget.value as 'PEN' | 'USD')}>
          <option value="PEN">Soles (S/)</option>
          <option value="USD">Dólares (US$)</option>
        </HTMLSelect>
      </FormGroup>
      <fieldset className="commissions-agents">
        <legend>Asesores</legend>
        {agents.map((a) => (
          <Checkbox
            key={a.id}
            checked={chosen.includes(a.id)}
            onChange={() => toggle(a.id)}
            labelElement={
              <>
                {a.name}
                {a.issues_fee_receipts ? <span className={Classes.TEXT_MUTED}> · recibos por honorarios</span> : null}
              </>
            }
          />
        ))}
        {fieldErrors.agent_ids ? <div className="bp6-form-helper-text commissions-field-error">{fieldErrors.agent_ids}</div> : null}
      </fieldset>
      <Button type="submit" intent="primary" text="Crear liquidación" loading={busy} disabled={chosen.length === 0} />
    </form>
  );
}

/**
 * The open settlement, given as a prop rather than read from the machine: when the drawer closes,
 * the machine forgets it while Blueprint keeps drawing the drawer's last content during its exit
 * transition (reading it here then found null and the screen broke).
 */
function SettlementDetailView({
  actor,
  settlement: s,
  busy,
  fieldErrors,
}: {
  actor: ActorRefFrom<SettlementMachine>;
  settlement: SettlementDetail;
  busy: boolean;
  fieldErrors: Record<string, string>;
}) {
  const [operation, setOperation] = useState('');
  const [paidOn, setPaidOn] = useState(todayInLima());
  const money = (cents: number) => formatMoney(cents, s.currency);
  return (
    <div className="commissions-detail">
      <p>
        <Tag minimal intent={SETTLEMENT_INTENT[s.state]}>
          {SETTLEMENT_STATE_LABELS[s.state]}
        </Tag>{' '}
        Periodo del {formatDate(s.period_from)} al {formatDate(s.period_to)}
        {s.paid_on ? ` · pagada el ${formatDate(s.paid_on)} (operación ${s.operation_number ?? ''})` : ''}
      </p>
      <HTMLTable compact striped className="commissions-agents-table">
        <caption className={Classes.TEXT_MUTED}>Totales por asesor</caption>
        <thead>
          <tr>
            <th>Asesor</th>
            <th className="commissions-amount">Comisiones</th>
            <th className="commissions-amount">Retención 4.ª</th>
            <th className="commissions-amount">Neto</th>
            <th>PDF</th>
          </tr>
        </thead>
        <tbody>
          {s.agents.map((a) => (
            <tr key={a.agent.id}>
              <td>{a.agent.name}</td>
              <td className="commissions-amount">{money(a.gross)}</td>
              <td className="commissions-amount">{a.withholding > 0 ? money(a.withholding) : '—'}</td>
              <td className="commissions-amount">
                <strong>{money(a.net)}</strong>
              </td>
              <td>
                <Button
                  small
                  minimal
                  icon="document"
                  aria-label={`PDF de ${a.agent.name}`}
                  disabled={busy}
                  onClick={() => actor.send({ type: 'settlement.pdf', agentId: a.agent.id })}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <HTMLTable compact className="commissions-lines-table">
        <caption className={Classes.TEXT_MUTED}>Líneas</caption>
        <thead>
          <tr>
            <th>Venta</th>
            <th>Lote</th>
            <th>Asesor</th>
            <th>Rol</th>
            <th>Estado</th>
            <th className="commissions-amount">Monto</th>
          </tr>
        </thead>
        <tbody>
          {s.lines.map((l) => (
            <tr key={l.id}>
              <td>{l.sale.number}</td>
              <td>{l.sale.lot_code}</td>
              <td>{l.agent.name}</td>
              <td>{COMMISSION_ROLE_LABELS[l.role]}</td>
              <td>
                <Tag minimal intent={STATE_INTENT[l.state]}>
                  {COMMISSION_STATE_LABELS[l.state]}
                </Tag>
              </td>
              <td className="commissions-amount">{money(l.amount)}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <div className="commissions-actions">
        <Button icon="th" text="Exportar a Excel" disabled={busy} onClick={() => actor.send({ type: 'settlement.excel' })} />
        {s.state === 'BORRADOR' ? (
          <>
            <Button intent="primary" icon="tick" text="Aprobar" loading={busy} onClick={() => actor.send({ type: 'settlement.approve' })} />
            <Button
              intent="danger"
              minimal
              icon="trash"
              text="Eliminar borrador"
              disabled={busy}
              onClick={() => actor.send({ type: 'settlement.delete' })}
            />
          </>
        ) : null}
      </div>
      {s.state === 'APROBADA' ? (
        <form
          className="commissions-pay"
          onSubmit={(e) => {
            e.preventDefault();
            actor.send({ type: 'settlement.pay', body: { operation_number: operation, paid_on: paidOn } });
          }}
        >
          <h3 className={Classes.HEADING}>Pagar</h3>
          <FormGroup
            label="Comprobante (PDF o imagen, hasta 10 MB)"
            labelFor="settlement-voucher"
            helperText={fieldErrors.voucher ?? (s.has_voucher ? 'Comprobante adjuntado' : undefined)}
            intent={fieldErrors.voucher ? 'danger' : 'none'}
          >
            <FileInput
              inputProps={{ id: 'settlement-voucher', accept: 'application/pdf,image/png,image/jpeg,image/webp' }}
              text={s.has_voucher ? 'Reemplazar comprobante…' : 'Elegir archivo…'}
              buttonText="Buscar"
              disabled={busy}
              onInputChange={(e) => {
                const file = (e.target as HTMLInputElement).files?.[0];
                if (file) actor.send({ type: 'settlement.voucher', file });
              }}
            />
          </FormGroup>
          <FormGroup
            label="N.º de operación"
            labelFor="settlement-operation"
            helperText={fieldErrors.operation_number}
            intent={fieldErrors.operation_number ? 'danger' : 'none'}
          >
            <InputGroup id="settlement-operation" value={operation} onChange={(e) => setOperation(e.currentTarget.value)} />
          </FormGroup>
          <FormGroup
            label="Fecha de pago"
            labelFor="settlement-paid-on"
            helperText={fieldErrors.paid_on}
            intent={fieldErrors.paid_on ? 'danger' : 'none'}
          >
            <IsoDateInput id="settlement-paid-on" value={paidOn} onChange={setPaidOn} />
          </FormGroup>
          <Button
            type="submit"
            intent="success"
            icon="bank-account"
            text="Marcar como pagada"
            loading={busy}
            disabled={!s.has_voucher || operation.trim() === ''}
          />
        </form>
      ) : null}
    </div>
  );
}
