import { use } from 'react';
import { useSelector } from '@xstate/react';
import { Button, Callout, ProgressBar, Tag } from '@blueprintjs/core';
import { HTMLSelect } from '../shared/BlueprintEs';
import { useSearch } from 'wouter';
import { z } from 'zod';
import { AUTH_ROUTES, PUBLIC_ROUTES } from '../../config/paths';
import { centsToInput, formatArea, parseMoneyInput } from '../../lib/money';
import { LATE_FEE_KINDS, type LateFeeKind } from '../../schemas/finanzas/late-fees';
import { listQueryFromSearchParams } from '../../schemas/list';
import { MODULE, SUBMODULE } from '../../schemas/permissions';
import {
  createSubdivisionRequestSchema,
  LOT_STATUSES,
  OVERLAP_LIMIT_DEFAULT_M2,
  DEFAULT_RESCISSION_POLICY,
  MAX_RESCISSION_OVERDUE_INSTALMENTS,
  OVERLAP_LIMIT_MAX_M2,
  SUBDIVISION_STATUSES,
  type LotCounts,
  type Subdivision,
} from '../../schemas/proyectos/projects';
import type { ProjectsScreenMachines } from '../../machines/proyectos/projects.actors';
import { hasPermissions, selectPermissions } from '../../machines/session/session.selectors';
import { useServices, useSession } from '../services';
import { ResourceTable, type RowAction, type TableColumn } from '../shared/ResourceTable';
import { ResourceToolbar } from '../shared/ResourceToolbar';
import { ListStates } from '../shared/ListStates';
import { EditorDialog } from '../shared/EditorDialog';
import { NumberField, SelectField, TextField } from '../shared/FormField';
import { RecordImageField } from '../shared/RecordImageField';
import {
  useResourceActors,
  useResourceEditor,
  useResourceEditorEvents,
  useResourceListEvents,
  type ResourceEditorRef,
} from '../shared/resource-hooks';
import { CheckboxField, DateField, blankToNull } from '../shared/EditorFields';
import {
  LOT_STATUS_COLOR,
  LOT_STATUS_LABEL,
  lotStatusTextColor,
  nameSegment,
  SUBDIVISION_STATUS_INTENT,
  SUBDIVISION_STATUS_LABEL,
} from './lot-status';
import '../../styles/proyectos.css';

/**
 * Proyectos → Lotizaciones (issue "Proyectos"): the subdivisions with live lot counts per status
 * and the sold-area progress (sold_area_m2 / total_area_m2), search, filters estado / moneda in the
 * URL, the create / edit dialog (every field of createSubdivisionRequestSchema; plan image upload
 * when editing), delete after a confirmation (a 409 — it still has lots — shows as a toast and in
 * the dialog), and row actions to the lots and the maps, each only with its permissions.
 */

/** Sold area as a fraction 0…1 (0 when the total is 0). */
export function soldFraction(s: Pick<Subdivision, 'sold_area_m2' | 'total_area_m2'>): number {
  return s.total_area_m2 > 0 ? Math.min(1, s.sold_area_m2 / s.total_area_m2) : 0;
}

/** "37 %" (whole percent, es-PE). */
export function percentText(fraction: number): string {
  return `${Math.round(fraction * 100)} %`;
}

/** Small coloured tags with the lots per status (zero counts left out). */
export function LotCountTags({ counts, compact = false }: { counts: LotCounts; compact?: boolean }) {
  const present = LOT_STATUSES.filter((s) => counts[s] > 0);
  if (present.length === 0) return <span className="bp6-text-muted">Sin lotes</span>;
  return (
    <span className={compact ? 'lot-count-tags lot-count-tags--compact' : 'lot-count-tags'}>
      {present.map((s) => (
        <Tag
          key={s}
          round
          className="lot-count-tag"
          style={{ backgroundColor: LOT_STATUS_COLOR[s], color: lotStatusTextColor(s) }}
          title={LOT_STATUS_LABEL[s]}
        >
          {/* Compact (the Lotizaciones table): the colour and the number show, the label stays for screen readers and the tooltip. */}
          <span className={compact ? 'sr-only' : undefined}>{LOT_STATUS_LABEL[s]}: </span>
          {counts[s]}
        </Tag>
      ))}
    </span>
  );
}

/** Sold-area progress bar with its percent text. */
export function SoldProgress({ subdivision }: { subdivision: Pick<Subdivision, 'sold_area_m2' | 'total_area_m2'> }) {
  const fraction = soldFraction(subdivision);
  return (
    <span className="sold-progress" title={`${formatArea(subdivision.sold_area_m2)} vendidos de ${formatArea(subdivision.total_area_m2)}`}>
      <ProgressBar value={fraction} animate={false} stripes={false} intent="success" aria-label="Área vendida" />
      <span className="sold-progress-text">{percentText(fraction)}</span>
    </span>
  );
}

const CURRENCY_LABEL = { PEN: 'S/ (soles)', USD: 'US$ (dólares)' } as const;

const COLUMNS: TableColumn<Subdivision>[] = [
  { key: 'code', label: 'Código', sortable: true },
  { key: 'name', label: 'Nombre', sortable: true },
  {
    key: 'location',
    label: 'Ubicación',
    render: (s) => `${s.district}, ${s.province}`,
    exportValue: (s) => `${s.district}, ${s.province}`,
  },
  {
    key: 'currency',
    label: 'Moneda',
    hiddenByDefault: true,
    render: (s) => (s.currency === 'PEN' ? 'S/' : 'US$'),
    exportValue: (s) => s.currency,
  },
  {
    key: 'status',
    label: 'Estado',
    sortable: true,
    render: (s) => (
      <Tag minimal intent={SUBDIVISION_STATUS_INTENT[s.status]}>
        {SUBDIVISION_STATUS_LABEL[s.status]}
      </Tag>
    ),
    exportValue: (s) => SUBDIVISION_STATUS_LABEL[s.status],
  },
  { key: 'lots_total', label: 'Lotes', align: 'right' },
  { key: 'sold', label: 'Área vendida', render: (s) => <SoldProgress subdivision={s} />, exportValue: (s) => percentText(soldFraction(s)) },
  {
    key: 'lot_counts',
    label: 'Lotes por estado',
    render: (s) => <LotCountTags counts={s.lot_counts} compact />,
    exportValue: (s) => LOT_STATUSES.map((st) => `${LOT_STATUS_LABEL[st]}: ${s.lot_counts[st]}`).join('; '),
  },
  { key: 'created_at', label: 'Creado', sortable: true, hiddenByDefault: true, render: (s) => s.created_at.slice(0, 10) },
];

export const SUBDIVISION_FIELDS = [
  'code',
  'name',
  'department',
  'province',
  'district',
  'ubigeo',
  'address',
  'currency',
  'total_area_m2',
  'registry_entry',
  'licence_number',
  'licence_date',
  'status',
  'published',
  'public_prices',
  'overlap_limit_m2',
  'late_fee_grace_days',
  'late_fee_kind',
  'late_fee_daily_amount',
  'late_fee_monthly_percent',
  'late_fee_cap',
  'rescission_overdue_instalments',
  'rescission_paid_share_limit_pct',
  'rescission_penalty_pct',
] as const;

/** Labels of the late-fee kinds (DOMAIN.md "Late fee"). */
export const LATE_FEE_KIND_LABEL: Record<LateFeeKind, string> = {
  MONTO_DIARIO: 'Monto diario',
  PORCENTAJE_MENSUAL: 'Porcentaje mensual',
};

/** The late-fee amounts the form holds as money text ("5.00"), sent in céntimos. */
const LATE_FEE_MONEY = [
  ['late_fee_daily_amount', 'Monto diario no válido (ej. 5.00)'],
  ['late_fee_cap', 'Tope no válido (ej. 200.00)'],
] as const;

const EMPTY_SUBDIVISION = {
  code: '',
  name: '',
  department: 'Lima',
  province: 'Lima',
  district: '',
  ubigeo: '',
  address: '',
  currency: 'PEN',
  total_area_m2: null,
  registry_entry: '',
  licence_number: '',
  licence_date: '',
  status: 'EN_PREVENTA',
  published: false,
  public_prices: false,
  overlap_limit_m2: OVERLAP_LIMIT_DEFAULT_M2,
  late_fee_grace_days: 3,
  late_fee_kind: 'MONTO_DIARIO',
  late_fee_daily_amount: '5.00',
  late_fee_monthly_percent: '0',
  late_fee_cap: '',
  rescission_overdue_instalments: DEFAULT_RESCISSION_POLICY.overdueInstalments,
  rescission_paid_share_limit_pct: null,
  rescission_penalty_pct: DEFAULT_RESCISSION_POLICY.penaltyPct,
};

/**
 * Form values → POST/PATCH body: blank optional texts and date are null; the late fee's money
 * (typed in soles or dollars) → céntimos, a blank cap → null (no cap), a blank daily amount → 0.
 */
export const subdivisionFormSchema = z.preprocess((values, ctx) => {
  if (typeof values !== 'object' || values === null) return values;
  const v = values as Record<string, unknown>;
  const money: Record<string, number | null | undefined> = {};
  for (const [field, message] of LATE_FEE_MONEY) {
    const text = String(v[field] ?? '').trim();
    if (text === '') {
      money[field] = field === 'late_fee_cap' ? null : 0;
      continue;
    }
    const cents = parseMoneyInput(text);
    if (cents === null) ctx.addIssue({ code: 'custom', path: [field], message, input: text });
    money[field] = cents ?? undefined;
  }
  return {
    ...v,
    ...money,
    ubigeo: blankToNull(v.ubigeo),
    address: blankToNull(v.address),
    registry_entry: blankToNull(v.registry_entry),
    licence_number: blankToNull(v.licence_number),
    licence_date: blankToNull(v.licence_date),
    // Blank → omitted: the server keeps (or starts with) 0.05 m².
    overlap_limit_m2: v.overlap_limit_m2 === null || v.overlap_limit_m2 === '' ? undefined : v.overlap_limit_m2,
    // Blank → null: no share limit (Código Civil art. 1562 does not apply).
    rescission_paid_share_limit_pct: v.rescission_paid_share_limit_pct === '' ? null : v.rescission_paid_share_limit_pct,
  };
}, createSubdivisionRequestSchema);

function toValues(s: Subdivision) {
  return Object.fromEntries(
    SUBDIVISION_FIELDS.map((f) => {
      const value = s[f];
      if (f === 'late_fee_daily_amount' || f === 'late_fee_cap') return [f, value === null ? '' : centsToInput(value as number)];
      return [f, value === null ? (f === 'total_area_m2' ? null : '') : value];
    }),
  );
}

/** The late-fee policy's fields: the amount of its kind (a day, or a percent a month), the grace and the cap. */
function LateFeeFields<R extends object, C extends object, U extends object>({
  editor,
  currency,
}: {
  editor: ResourceEditorRef<R, C, U>;
  currency: string;
}) {
  const kind = useResourceEditor(editor, (s) => s.context.values.late_fee_kind);
  const symbol = currency === 'USD' ? 'US$' : 'S/';
  return (
    <fieldset className="projects-form-fieldset">
      <legend>Mora por atraso</legend>
      <div className="projects-form-grid">
        <NumberField
          editor={editor}
          field="late_fee_grace_days"
          label="Días de gracia"
          hint="Días después del vencimiento sin mora"
          min={0}
          max={60}
        />
        <SelectField
          editor={editor}
          field="late_fee_kind"
          label="Tipo de mora"
          options={LATE_FEE_KINDS.map((k) => ({ value: k, label: LATE_FEE_KIND_LABEL[k] }))}
        />
        {kind === 'PORCENTAJE_MENSUAL' ? (
          <TextField
            editor={editor}
            field="late_fee_monthly_percent"
            label="Porcentaje mensual (%)"
            hint="Del monto impago, por día (÷ 30)"
          />
        ) : (
          <TextField editor={editor} field="late_fee_daily_amount" label={`Monto por día (${symbol})`} />
        )}
        <TextField editor={editor} field="late_fee_cap" label={`Tope por cuota (${symbol})`} hint="Vacío: sin tope" />
      </div>
    </fieldset>
  );
}

/**
 * The rescission policy's fields (docs/domain.md "Contract variables"): the overdue instalments
 * that allow resolving the contract (art. 1561), the share paid after which only the balance can be
 * claimed (art. 1562; blank: no limit) and the penalty percent (art. 1563).
 */
function RescissionFields<R extends object, C extends object, U extends object>({ editor }: { editor: ResourceEditorRef<R, C, U> }) {
  return (
    <fieldset className="projects-form-fieldset">
      <legend>Resolución del contrato</legend>
      <div className="projects-form-grid">
        <NumberField
          editor={editor}
          field="rescission_overdue_instalments"
          label="Cuotas vencidas para resolver"
          hint="Cuotas impagas que permiten resolver (art. 1561 del Código Civil)"
          min={1}
          max={MAX_RESCISSION_OVERDUE_INSTALMENTS}
        />
        <NumberField
          editor={editor}
          field="rescission_paid_share_limit_pct"
          label="Límite de lo pagado (%)"
          hint="Pagado este porcentaje del precio, solo se exige el saldo (art. 1562). Vacío: sin límite"
          min={1}
          max={100}
        />
        <NumberField
          editor={editor}
          field="rescission_penalty_pct"
          label="Penalidad por resolución (%)"
          hint="Del monto pagado (art. 1563)"
          min={0}
          max={100}
        />
      </div>
    </fieldset>
  );
}

/** The link of a subdivision's screen: `/PROYECTOS/Lotes/{name}/{key}` etc. */
export function subdivisionPath(pattern: string, s: Pick<Subdivision, 'name' | 'key'>): string {
  return pattern.replace(':name', nameSegment(s.name)).replace(':id_encrypted', encodeURIComponent(s.key));
}

export function SubdivisionsScreen() {
  const machines = use(useServices().machines.projects());
  return <SubdivisionsPage machines={machines} />;
}

export function SubdivisionsPage({ machines }: { machines: Pick<ProjectsScreenMachines, 'subdivisions' | 'planImage'> }) {
  const search = useSearch();
  const { navigate, today } = useServices();
  const permissions = useSession(selectPermissions);
  const { list, editor } = useResourceActors(machines.subdivisions, {
    list: {
      columns: COLUMNS,
      exportName: 'lotizaciones',
      query: listQueryFromSearchParams(search, { allowedFilters: ['status', 'currency'] }),
    },
    editor: { schema: subdivisionFormSchema, fields: SUBDIVISION_FIELDS, empty: EMPTY_SUBDIVISION, toValues },
  });
  const filters = useSelector(list, (s) => s.context.query.filters);
  const editing = useResourceEditor(editor, (s) => (s.context.mode === 'edit' ? s.context.record : null));
  const { openCreate, openEdit } = useResourceEditorEvents(editor);
  const { changeFilter } = useResourceListEvents(list);

  const canMap = hasPermissions(permissions, AUTH_ROUTES.mapaProyectos.permissions);
  const canSalesMap = hasPermissions(permissions, [MODULE.comercial, SUBMODULE.ventas]);
  const canLots = hasPermissions(permissions, AUTH_ROUTES.lotes.permissions);
  const rowActions: RowAction<Subdivision>[] = [
    { text: 'Editar', icon: 'edit', onClick: (s) => openEdit(s) },
    ...(canLots
      ? [{ text: 'Lotes', icon: 'grid-view' as const, onClick: (s: Subdivision) => navigate(subdivisionPath(AUTH_ROUTES.lotes.path, s)) }]
      : []),
    ...(canMap
      ? [{ text: 'Mapa', icon: 'map' as const, onClick: (s: Subdivision) => navigate(subdivisionPath(AUTH_ROUTES.mapaProyectos.path, s)) }]
      : []),
    ...(canSalesMap
      ? [
          {
            text: 'Mapa de ventas',
            icon: 'dollar' as const,
            onClick: (s: Subdivision) => navigate(subdivisionPath(AUTH_ROUTES.mapSales.path, s)),
          },
          {
            text: 'Mapa de calor',
            icon: 'heatmap' as const,
            onClick: (s: Subdivision) => navigate(subdivisionPath(AUTH_ROUTES.mapSalesHeat.path, s)),
          },
        ]
      : []),
    {
      text: 'Mapa público',
      icon: 'globe-network',
      hidden: (s) => !s.published,
      onClick: (s) => window.open(subdivisionPath(PUBLIC_ROUTES.publicMap.path, s), '_blank', 'noopener'),
    },
  ];

  return (
    <section className="projects-page" aria-labelledby="lotizaciones-title">
      <h1 id="lotizaciones-title" className="bp6-heading projects-page-title">
        Lotizaciones
      </h1>
      <ResourceToolbar
        list={list}
        onNew={() => openCreate()}
        newLabel="Nueva lotización"
        filters={
          <>
            <HTMLSelect
              aria-label="Estado"
              value={filters.status ?? ''}
              onChange={(e) => changeFilter('status', e.target.value || undefined)}
              options={[
                { value: '', label: 'Todos los estados' },
                ...SUBDIVISION_STATUSES.map((s) => ({ value: s, label: SUBDIVISION_STATUS_LABEL[s] })),
              ]}
            />
            <HTMLSelect
              aria-label="Moneda"
              value={filters.currency ?? ''}
              onChange={(e) => changeFilter('currency', e.target.value || undefined)}
              options={[
                { value: '', label: 'Todas las monedas' },
                { value: 'PEN', label: 'S/' },
                { value: 'USD', label: 'US$' },
              ]}
            />
          </>
        }
      />
      <ResourceTable<Subdivision> list={list} columns={COLUMNS} rowKey={(s) => s.key} caption="Lotizaciones" rowActions={rowActions} />
      <ListStates list={list} emptyAction={<Button icon="plus" intent="primary" text="Nueva lotización" onClick={() => openCreate()} />} />
      <EditorDialog editor={editor} createTitle="Nueva lotización" editTitle="Editar lotización" canDelete>
        <div className="projects-form-grid">
          <TextField editor={editor} field="code" label="Código" />
          <TextField editor={editor} field="name" label="Nombre" />
          <TextField editor={editor} field="department" label="Departamento" />
          <TextField editor={editor} field="province" label="Provincia" />
          <TextField editor={editor} field="district" label="Distrito" />
          <TextField editor={editor} field="ubigeo" label="Ubigeo" hint="6 dígitos (opcional)" />
          <TextField editor={editor} field="address" label="Dirección" />
          <SelectField
            editor={editor}
            field="currency"
            label="Moneda"
            options={(['PEN', 'USD'] as const).map((c) => ({ value: c, label: CURRENCY_LABEL[c] }))}
          />
          <NumberField editor={editor} field="total_area_m2" label="Área total (m²)" min={0} />
          <SelectField
            editor={editor}
            field="status"
            label="Estado"
            options={SUBDIVISION_STATUSES.map((s) => ({ value: s, label: SUBDIVISION_STATUS_LABEL[s] }))}
          />
          <TextField editor={editor} field="registry_entry" label="Partida registral matriz" />
          <TextField editor={editor} field="licence_number" label="Licencia de habilitación urbana" />
          <DateField editor={editor} field="licence_date" label="Fecha de la licencia" minDate="1990-01-01" maxDate={today()} />
          <NumberField
            editor={editor}
            field="overlap_limit_m2"
            label="Superposición admitida al importar (m²)"
            hint="Área que dos lotes de un archivo pueden compartir sin que sea un error"
            min={0}
            max={OVERLAP_LIMIT_MAX_M2}
          />
        </div>
        <LateFeeFields editor={editor} currency={String(editing?.currency ?? 'PEN')} />
        <RescissionFields editor={editor} />
        <CheckboxField editor={editor} field="published" label="Publicado en web" />
        <CheckboxField editor={editor} field="public_prices" label="Mostrar precios en el mapa público" />
        {editing ? (
          <RecordImageField
            key={editing.key}
            machine={machines.planImage}
            target={editing.key}
            url={editing.plan_url}
            list={list}
            id="plan-file"
            className="plan"
            label="Plano (PNG o JPEG, hasta 5 MB)"
            alt={`Plano de ${editing.name}`}
            noun="plano"
          />
        ) : (
          <Callout compact className="projects-hint">
            Podrá subir el plano después de guardar la lotización.
          </Callout>
        )}
      </EditorDialog>
    </section>
  );
}
