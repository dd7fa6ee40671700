import { lazy, Suspense, use, useMemo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Button, ButtonGroup, Callout, DrawerSize, Icon, Spinner, Tab, Tabs, Tag } from '@blueprintjs/core';
import { Drawer, HTMLSelect } from '../shared/BlueprintEs';
import { ScrollRegion } from '../shared/ScrollRegion';
import { Link, useSearch } from 'wouter';
import { AUTH_ROUTES } from '../../config/paths';
import { formatArea, formatMetres, formatMoney, type CurrencyCode } from '../../lib/money';
import { formatDate } from '../../lib/dates';
import { listQueryFromSearchParams } from '../../schemas/list';
import { ACTION, MODULE, SUBMODULE } from '../../schemas/permissions';
import { LAND_USE_LABEL, LAND_USES, LOT_STATUSES, type Lot, type Subdivision } from '../../schemas/proyectos/projects';
import type { ProjectsScreenMachines } from '../../machines/proyectos/projects.actors';
import { hasPermissions, selectPermissions } from '../../machines/session/session.selectors';
import { inspectOption } from '../../machines/inspect';
import { useServices, useSession } from '../services';
import { ResourceTable, type RowAction, type TableColumn } from '../shared/ResourceTable';
import { ResourceToolbar } from '../shared/ResourceToolbar';
import { ListStates } from '../shared/ListStates';
import { EditorDialog } from '../shared/EditorDialog';
import { NumberField, SelectField, TextAreaField, TextField } from '../shared/FormField';
import { useResourceEditor, useResourceEditorEvents, useResourceListEvents } from '../shared/resource-hooks';
import { CheckboxField, SuggestTextField } from '../shared/EditorFields';
import { EMPTY_LOT, LOT_FIELDS, liveListPrice, lotFormSchema, lotToValues } from './lot-form';
import { LotStatusDialog, LotStatusTag } from './LotStatusDialog';
import { QuoteDialog } from '../comercio/QuoteDialog';
import { LotStatusHistory, lotHistoryKey } from './LotStatusHistory';
import { LotHoldsPanel } from './LotHoldsPanel';
import { BulkPriceDialog } from './BulkPriceDialog';
import { BlocksPanel, StagesPanel } from './LotsStructure';
import { LotsVirtualTable, type VirtualColumn } from './LotsVirtualTable';
import { LotCountTags, SoldProgress, subdivisionPath } from './SubdivisionsPage';
import { LOT_STATUS_LABEL, SUBDIVISION_STATUS_INTENT, SUBDIVISION_STATUS_LABEL } from './lot-status';
import '../../styles/proyectos.css';

/**
 * Proyectos → Lotes of one subdivision, /PROYECTOS/Lotes/{name}/{id_encrypted} (issue "Proyectos"):
 * the header (name, code, status, lots per status, sold progress; a 404 goes to the session's
 * not-found handling), tabs Lotes / Manzanas / Etapas, the lots table (paged, or "Ver todos":
 * virtualised, loading pages of 100 while scrolling) with filters estado / manzana / etapa in the
 * URL, sort and search; the lot editor (price typed in soles, list price computed live and
 * editable with a reason), delete (only Disponible), status change and history, bulk prices,
 * "Solicitudes de bloqueo" (a drawer: the hold requests to approve or reject, or one's own —
 * LotHoldsPanel, docs/domain.md "Lot holds") and "Importar lotes" (ImportLotsDialog, built separately).
 */

// The import dialog (and its parsers' code) loads on the first "Importar lotes".
const ImportLotsDialog = lazy(() => import('./ImportLotsDialog').then((m) => ({ default: m.ImportLotsDialog })));

const yesNo = (v: boolean) => (v ? 'Sí' : 'No');
const money = (cents: number, currency: CurrencyCode) => formatMoney(cents, currency);

export const LOT_COLUMNS: TableColumn<Lot>[] = [
  { key: 'code', label: 'Código', sortable: true },
  // The code already says "MZ A - LT 12": block and number (and perimeter, updated) are in the column chooser, so the
  // default view fits a 1366 px screen.
  { key: 'block', label: 'Manzana', sortable: true, hiddenByDefault: true },
  { key: 'number', label: 'Lote', sortable: true, hiddenByDefault: true },
  { key: 'area_m2', label: 'Área', sortable: true, align: 'right', render: (l) => formatArea(l.area_m2), exportValue: (l) => l.area_m2 },
  {
    key: 'perimeter_m',
    label: 'Perímetro',
    align: 'right',
    hiddenByDefault: true,
    render: (l) => (l.perimeter_m === null ? '—' : formatMetres(l.perimeter_m)),
    exportValue: (l) => l.perimeter_m ?? '',
  },
  {
    key: 'price_per_m2',
    label: 'Precio m²',
    sortable: true,
    align: 'right',
    render: (l) => money(l.price_per_m2, l.currency),
    exportValue: (l) => l.price_per_m2 / 100,
  },
  {
    key: 'list_price',
    label: 'Precio de lista',
    sortable: true,
    align: 'right',
    render: (l) => money(l.list_price, l.currency),
    exportValue: (l) => l.list_price / 100,
  },
  // Corner and facing park start hidden (the "Columnas" menu shows them) so the table with its Uso
  // column still fits 1 366 px with the actions in view.
  { key: 'is_corner', label: 'Esquina', hiddenByDefault: true, render: (l) => yesNo(l.is_corner), exportValue: (l) => yesNo(l.is_corner) },
  {
    key: 'facing_park',
    label: 'Frente a parque',
    hiddenByDefault: true,
    render: (l) => yesNo(l.facing_park),
    exportValue: (l) => yesNo(l.facing_park),
  },
  {
    key: 'status',
    label: 'Estado',
    sortable: true,
    render: (l) => <LotStatusTag status={l.status} />,
    exportValue: (l) => LOT_STATUS_LABEL[l.status],
  },
  { key: 'land_use', label: 'Uso', render: (l) => LAND_USE_LABEL[l.land_use], exportValue: (l) => LAND_USE_LABEL[l.land_use] },
  { key: 'stage', label: 'Etapa', hiddenByDefault: true, render: (l) => l.stage ?? '—', exportValue: (l) => l.stage ?? '' },
  {
    key: 'updated_at',
    label: 'Actualizado',
    sortable: true,
    hiddenByDefault: true,
    render: (l) => formatDate(l.updated_at),
    exportValue: (l) => formatDate(l.updated_at),
  },
];

const VIRTUAL_COLUMNS: VirtualColumn[] = [
  { key: 'code', label: 'Código', width: 'minmax(120px, 1.2fr)', value: (l) => l.code },
  { key: 'block', label: 'Manzana', width: '90px', value: (l) => l.block },
  { key: 'number', label: 'Lote', width: '60px', value: (l) => l.number },
  { key: 'area_m2', label: 'Área', width: '100px', align: 'right', value: (l) => formatArea(l.area_m2) },
  { key: 'price_per_m2', label: 'Precio m²', width: '110px', align: 'right', value: (l) => money(l.price_per_m2, l.currency) },
  { key: 'list_price', label: 'Precio de lista', width: '130px', align: 'right', value: (l) => money(l.list_price, l.currency) },
  { key: 'status', label: 'Estado', width: '140px', value: (l) => <LotStatusTag status={l.status} /> },
  { key: 'land_use', label: 'Uso', width: '120px', value: (l) => LAND_USE_LABEL[l.land_use] },
  { key: 'updated_at', label: 'Actualizado', width: '110px', value: (l) => formatDate(l.updated_at) },
];

/** The lots editor of one subdivision. */
type LotEditorRef = ActorRefFrom<ReturnType<ProjectsScreenMachines['lotsFor']>['editor']>;

/** The list price computed live from area × price per m², and the typed one when it differs. */
function ListPriceFields({ editor, currency }: { editor: LotEditorRef; currency: CurrencyCode }) {
  const values = useResourceEditor(editor, (s) => s.context.values);
  const live = liveListPrice(values, currency);
  return (
    <>
      <p className="lot-list-price" aria-live="polite">
        Precio de lista calculado (área × precio m²): <strong>{live.text}</strong>
      </p>
      <TextField
        editor={editor}
        field="list_price"
        label={`Precio de lista (${currency === 'PEN' ? 'S/' : 'US$'})`}
        hint="Déjelo vacío para usar el calculado"
      />
      {live.differs || String(values.list_price_reason ?? '') !== '' ? (
        <TextAreaField
          editor={editor}
          field="list_price_reason"
          label="Motivo del precio de lista"
          hint="Obligatorio cuando difiere del calculado"
        />
      ) : null}
    </>
  );
}

function Header({ subdivision, canMap, canSalesMap }: { subdivision: Subdivision; canMap: boolean; canSalesMap: boolean }) {
  return (
    <header className="lots-header">
      <div className="lots-header-title">
        <Link href={AUTH_ROUTES.lotizaciones.path} className="lots-back">
          <Icon icon="chevron-left" /> Lotizaciones
        </Link>
        <h1 id="lotes-title" className="bp6-heading">
          {subdivision.name}
        </h1>
        <Tag minimal>{subdivision.code}</Tag>{' '}
        <Tag minimal intent={SUBDIVISION_STATUS_INTENT[subdivision.status]}>
          {SUBDIVISION_STATUS_LABEL[subdivision.status]}
        </Tag>
      </div>
      <div className="lots-header-stats">
        <span>{subdivision.lots_total === 1 ? '1 lote' : `${subdivision.lots_total} lotes`}</span>
        <LotCountTags counts={subdivision.lot_counts} />
        <SoldProgress subdivision={subdivision} />
      </div>
      <ButtonGroup className="lots-header-links">
        {canMap ? (
          <Link href={subdivisionPath(AUTH_ROUTES.mapaProyectos.path, subdivision)} className="bp6-button">
            <Icon icon="map" /> Mapa
          </Link>
        ) : null}
        {canSalesMap ? (
          <>
            <Link href={subdivisionPath(AUTH_ROUTES.mapSales.path, subdivision)} className="bp6-button">
              <Icon icon="dollar" /> Mapa de ventas
            </Link>
            <Link href={subdivisionPath(AUTH_ROUTES.mapSalesHeat.path, subdivision)} className="bp6-button">
              <Icon icon="heatmap" /> Mapa de calor
            </Link>
          </>
        ) : null}
      </ButtonGroup>
    </header>
  );
}

export function LotsScreen({ params }: { params?: Record<string, string> }) {
  const machines = use(useServices().machines.projects());
  const key = params?.id_encrypted ?? '';
  return <LotsPage key={key} machines={machines} subdivisionKey={key} />;
}

export function LotsPage({ machines, subdivisionKey }: { machines: ProjectsScreenMachines; subdivisionKey: string }) {
  const search = useSearch();
  const permissions = useSession(selectPermissions);
  // One machine for the screen (lots-page.machine.ts): it spawns and coordinates the children below.
  const pageMachine = useMemo(() => machines.lotsPageFor(subdivisionKey), [machines, subdivisionKey]);
  const { today } = useServices();
  const quoteActor = useActorRef(machines.quote, inspectOption());
  const page = useActorRef(pageMachine, {
    input: {
      key: subdivisionKey,
      list: {
        columns: LOT_COLUMNS,
        exportName: 'lotes',
        query: listQueryFromSearchParams(search, { allowedFilters: ['status', 'block', 'stage_id'], perPage: 50 }),
      },
      editor: { schema: lotFormSchema, fields: LOT_FIELDS, empty: EMPTY_LOT, toValues: lotToValues },
    },
    ...inspectOption(),
  });
  const { detail, list, editor, window: windowActor, status: statusActor, bulk: bulkActor, lotImport } = page.getSnapshot().context;
  const view = useSelector(page, (s) => s.context.view);
  const importing = useSelector(page, (s) => s.hasTag('importing'));
  const historyLot = useSelector(page, (s) => s.context.historyLot);
  const holdsOpen = useSelector(page, (s) => s.context.holdsOpen);
  const subdivision = useSelector(detail, (s) => s.context.subdivision);
  const detailError = useSelector(detail, (s) => (s.matches({ subdivision: 'failure' }) ? s.context.error : null));
  const blocks = useSelector(detail, (s) => s.context.blocks);
  const stages = useSelector(detail, (s) => s.context.stages);
  const query = useSelector(list, (s) => s.context.query);
  const { openCreate, openEdit } = useResourceEditorEvents(editor);
  const { changeFilter } = useResourceListEvents(list);
  const editingLot = useResourceEditor(editor, (s) => (s.context.mode === 'edit' ? s.context.record : null));

  const canMap = hasPermissions(permissions, AUTH_ROUTES.mapaProyectos.permissions);
  const canSalesMap = hasPermissions(permissions, [MODULE.comercial, SUBMODULE.ventas]);
  // Quoting is the sales map's permission too (Comercial + Ventas).
  const canSell = canSalesMap;
  const canApproveHolds = hasPermissions(permissions, [ACTION.aprobarBloqueos]);
  const currency: CurrencyCode = subdivision?.currency ?? 'PEN';
  const symbol = currency === 'PEN' ? 'S/' : 'US$';

  const rowActions: RowAction<Lot>[] = [
    { text: 'Editar', icon: 'edit', onClick: (l) => openEdit(l) },
    {
      text: 'Cambiar estado',
      icon: 'exchange',
      onClick: (l) => statusActor.send({ type: 'status.open', lot: l }),
      hidden: (l) => l.status === 'CANJE',
    },
    { text: 'Historial de estados', icon: 'history', onClick: (l) => page.send({ type: 'history.open', lot: l }) },
    {
      text: 'Cotizar',
      icon: 'calculator',
      onClick: (l) =>
        quoteActor.send({
          type: 'quote.open',
          lot: { id: l.id, code: l.code, currency: l.currency, listPrice: l.list_price },
          today: today(),
        }),
      hidden: (l) => !canSell || (l.status !== 'DISPONIBLE' && l.status !== 'SEPARADO'),
    },
  ];

  if (detailError && !subdivision) {
    return (
      <section className="projects-page" aria-labelledby="lotes-title">
        <h1 id="lotes-title" className="bp6-heading projects-page-title">
          Lotes
        </h1>
        <Callout intent="danger" title="No se pudo cargar la lotización">
          {detailError} <Button variant="minimal" text="Reintentar" onClick={() => detail.send({ type: 'detail.retry' })} />
        </Callout>
      </section>
    );
  }

  const lotsTab = (
    <>
      <ResourceToolbar
        list={list}
        onNew={() => openCreate()}
        newLabel="Nuevo lote"
        filters={
          <>
            <HTMLSelect
              aria-label="Estado"
              value={query.filters.status ?? ''}
              onChange={(e) => changeFilter('status', e.target.value || undefined)}
              options={[{ value: '', label: 'Todos los estados' }, ...LOT_STATUSES.map((s) => ({ value: s, label: LOT_STATUS_LABEL[s] }))]}
            />
            <HTMLSelect
              aria-label="Manzana"
              value={query.filters.block ?? ''}
              onChange={(e) => changeFilter('block', e.target.value || undefined)}
              options={[{ value: '', label: 'Todas las manzanas' }, ...blocks.map((b) => ({ value: b.name, label: `Mz ${b.name}` }))]}
            />
            <HTMLSelect
              aria-label="Etapa"
              value={query.filters.stage_id ?? ''}
              onChange={(e) => changeFilter('stage_id', e.target.value || undefined)}
              options={[{ value: '', label: 'Todas las etapas' }, ...stages.map((s) => ({ value: String(s.id), label: s.name }))]}
            />
          </>
        }
      />
      <div className="lots-actions">
        <ButtonGroup>
          <Button icon="th" text="Paginado" active={view === 'paged'} onClick={() => page.send({ type: 'view.paged' })} />
          <Button icon="list" text="Ver todos" active={view === 'all'} onClick={() => page.send({ type: 'view.all' })} />
        </ButtonGroup>
        <Button icon="dollar" text="Actualizar precios" onClick={() => bulkActor.send({ type: 'bulk.open' })} />
        <Button icon="import" text="Importar lotes" onClick={() => page.send({ type: 'import.open' })} />
        <Button icon="lock" text="Solicitudes de bloqueo" onClick={() => page.send({ type: 'holds.open' })} />
      </div>
      {view === 'paged' ? (
        <>
          <ResourceTable<Lot> list={list} columns={LOT_COLUMNS} rowKey={(l) => l.id} caption="Lotes" rowActions={rowActions} />
          <ListStates list={list} emptyAction={<Button icon="plus" intent="primary" text="Nuevo lote" onClick={() => openCreate()} />} />
        </>
      ) : (
        <LotsVirtualTable actor={windowActor} columns={VIRTUAL_COLUMNS} onRowOpen={(l) => openEdit(l)} />
      )}
    </>
  );

  return (
    <section className="projects-page" aria-labelledby="lotes-title">
      {subdivision ? (
        <Header subdivision={subdivision} canMap={canMap} canSalesMap={canSalesMap} />
      ) : (
        <div className="lots-header">
          <h1 id="lotes-title" className="bp6-heading">
            Lotes
          </h1>
          <Spinner size={20} aria-label="Cargando lotización" />
        </div>
      )}
      <Tabs id="lots-tabs" renderActiveTabPanelOnly={false} large={false}>
        <Tab id="lotes" title="Lotes" panel={lotsTab} />
        <Tab id="manzanas" title={`Manzanas (${blocks.length})`} panel={<BlocksPanel actor={detail} />} />
        <Tab id="etapas" title={`Etapas (${stages.length})`} panel={<StagesPanel actor={detail} />} />
      </Tabs>
      <EditorDialog
        editor={editor}
        createTitle="Nuevo lote"
        editTitle={editingLot ? `Editar ${editingLot.code}` : 'Editar lote'}
        canDelete={editingLot?.status === 'DISPONIBLE' || editingLot?.status === 'NO_VENDIBLE'}
      >
        <datalist id="lot-blocks">
          {blocks.map((b) => (
            <option key={b.id} value={b.name} />
          ))}
        </datalist>
        <div className="projects-form-grid">
          <BlockField editor={editor} />
          <TextField editor={editor} field="number" label="Número de lote" />
          <NumberField editor={editor} field="area_m2" label="Área (m²)" min={0} />
          <NumberField editor={editor} field="perimeter_m" label="Perímetro (m)" min={0} />
          <NumberField editor={editor} field="front_m" label="Frente (m)" min={0} />
          <TextField editor={editor} field="front_neighbour" label="Colinda al frente con" />
          <NumberField editor={editor} field="back_m" label="Fondo (m)" min={0} />
          <TextField editor={editor} field="back_neighbour" label="Colinda al fondo con" />
          <NumberField editor={editor} field="right_m" label="Derecha (m)" min={0} />
          <TextField editor={editor} field="right_neighbour" label="Colinda a la derecha con" />
          <NumberField editor={editor} field="left_m" label="Izquierda (m)" min={0} />
          <TextField editor={editor} field="left_neighbour" label="Colinda a la izquierda con" />
          <TextField editor={editor} field="price_per_m2" label={`Precio por m² (${symbol})`} hint="Ej. 250.00" />
          <TextField editor={editor} field="registry_entry" label="Partida registral" />
          <SelectField
            editor={editor}
            field="land_use"
            label="Uso"
            hint="Parques, club house, equipamiento y aportes quedan como No vendible"
            options={LAND_USES.map((u) => ({ value: u, label: LAND_USE_LABEL[u] }))}
          />
        </div>
        <ListPriceFields editor={editor} currency={currency} />
        <CheckboxField editor={editor} field="is_corner" label="Esquina" />
        <CheckboxField editor={editor} field="facing_park" label="Frente a parque" />
        <TextAreaField editor={editor} field="notes" label="Notas" />
        {editingLot && editingLot.status !== 'DISPONIBLE' && editingLot.status !== 'NO_VENDIBLE' ? (
          <Callout compact>Solo se pueden eliminar lotes en estado Disponible o No vendible.</Callout>
        ) : null}
      </EditorDialog>
      <LotStatusDialog actor={statusActor} />
      <QuoteDialog actor={quoteActor} />
      <BulkPriceDialog actor={bulkActor} blocks={blocks} currency={currency} />
      <Drawer
        isOpen={historyLot !== null}
        onClose={() => page.send({ type: 'history.close' })}
        size={DrawerSize.SMALL}
        title={historyLot ? `Historial · ${historyLot.code}` : 'Historial'}
      >
        <ScrollRegion className="bp6-drawer-body lots-history-body" label="Historial de estados">
          {historyLot ? (
            <LotStatusHistory key={lotHistoryKey(historyLot)} machine={machines.lotStatus.history} lotId={historyLot.id} />
          ) : null}
        </ScrollRegion>
      </Drawer>
      <Drawer isOpen={holdsOpen} onClose={() => page.send({ type: 'holds.close' })} size={DrawerSize.LARGE} title="Solicitudes de bloqueo">
        <div className="bp6-drawer-body lots-holds-body">
          {holdsOpen && subdivision ? (
            <LotHoldsPanel
              machine={machines.lotHolds}
              subdivisionId={subdivision.id}
              subdivisionName={subdivision.name}
              canApprove={canApproveHolds}
            />
          ) : null}
        </div>
      </Drawer>
      {importing ? (
        // h2's dialog: it takes its machine from the app's Proyectos machines.
        <Suspense fallback={null}>
          <ImportLotsDialog actor={lotImport} isOpen={importing} onClose={() => page.send({ type: 'import.close' })} />
        </Suspense>
      ) : null}
    </section>
  );
}

/** The block: a text input suggesting the existing blocks (a new name creates the block). */
function BlockField({ editor }: { editor: LotEditorRef }) {
  return (
    <SuggestTextField editor={editor} field="block" label="Manzana" hint="Elija una existente o escriba una nueva" listId="lot-blocks" />
  );
}
