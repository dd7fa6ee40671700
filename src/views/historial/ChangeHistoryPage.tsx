import { use, useMemo } from 'react';
import { Button, Classes, FormGroup, HTMLTable, InputGroup, Menu, MenuItem, PopoverNext, Tag } from '@blueprintjs/core';
import { Drawer, HTMLSelect } from '../shared/BlueprintEs';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { useSearch } from 'wouter';
import { useServices } from '../services';
import { inspectOption } from '../../machines/inspect';
import type { ChangeHistoryMachines } from '../../machines/historial/change-history.actors';
import type { ChangeDetailMachine } from '../../machines/historial/change-detail.machine';
import { selectOpenEntry } from '../../machines/historial/change-detail.selectors';
import { LIMA_TIME_ZONE, todayInLima } from '../../lib/dates';
import { listQueryFromSearchParams } from '../../schemas/list';
import type { ChangeAction, ChangeHistoryEntry } from '../../schemas/historial/change-history';
import { ResourceTable, type TableColumn } from '../shared/ResourceTable';
import { ResourceToolbar } from '../shared/ResourceToolbar';
import { ListStates } from '../shared/ListStates';
import { IsoDateInput, INVALID_DATE_VALUE } from '../shared/IsoDateInput';
import { useResourceList, useResourceListEvents, type ResourceListRef } from '../shared/resource-hooks';
import '../../styles/change-history.css';
import { ENTITY_LABELS, entityLabel, fieldLabel, showValue } from './labels';

/**
 * /HistorialDeCambios "Historial de Cambios" (issue "Configuración"; docs/decisions.md): the change
 * history as a read-only list of the CRUD pattern (server paging, newest first), filters (date
 * range in Lima, usuario, entidad, registro, acción), a Drawer with the before/after table of one
 * change (which one is the `detail` machine's state), CSV from the server's export.csv (same
 * filters) and Excel from the shared export.
 */

export const ACTION_LABEL: Record<ChangeAction, string> = { CREATE: 'Creación', UPDATE: 'Actualización', DELETE: 'Eliminación' };
const ACTION_INTENT: Record<ChangeAction, 'success' | 'primary' | 'danger'> = { CREATE: 'success', UPDATE: 'primary', DELETE: 'danger' };

export const FILTERS = ['from', 'to', 'actor_type', 'actor_id', 'entity', 'record_id', 'action'] as const;

const dateTimeFormat = new Intl.DateTimeFormat('es-PE', {
  timeZone: LIMA_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** An instant as `dd/mm/yyyy HH:mm` in America/Lima. */
export function formatDateTimeLima(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const part = (type: Intl.DateTimeFormatPartTypes) => dateTimeFormat.formatToParts(date).find((p) => p.type === type)?.value ?? '';
  return `${part('day')}/${part('month')}/${part('year')} ${part('hour')}:${part('minute')}`;
}

const actorName = (e: ChangeHistoryEntry) => (e.actor ? (e.actor.name ?? `#${e.actor.id}`) : 'Sistema');
/** The record by its business label ("V-000344", "MZ B - LT 8"…) when the server knows it, else its id. */
const recordName = (e: ChangeHistoryEntry) => e.record_label ?? e.record_id;

export const COLUMNS: TableColumn<ChangeHistoryEntry>[] = [
  {
    key: 'occurred_at',
    label: 'Fecha',
    sortable: true,
    render: (e) => formatDateTimeLima(e.occurred_at),
    exportValue: (e) => formatDateTimeLima(e.occurred_at),
  },
  { key: 'actor', label: 'Usuario', render: actorName, exportValue: actorName },
  { key: 'ip', label: 'IP', render: (e) => e.ip ?? '—', exportValue: (e) => e.ip ?? '' },
  { key: 'entity', label: 'Entidad', render: (e) => entityLabel(e.entity), exportValue: (e) => entityLabel(e.entity) },
  { key: 'record_id', label: 'Registro', render: recordName, exportValue: recordName },
  {
    key: 'action',
    label: 'Acción',
    render: (e) => (
      <Tag minimal intent={ACTION_INTENT[e.action]}>
        {ACTION_LABEL[e.action]}
      </Tag>
    ),
    exportValue: (e) => ACTION_LABEL[e.action],
  },
  {
    key: 'changed_fields',
    label: 'Cambios',
    align: 'right',
    render: (e) => e.changed_fields.length,
    exportValue: (e) => e.changed_fields.length,
  },
];

/** The lazy screen: waits for its machines (loaded with its code), then renders the page. */
export function ChangeHistoryScreen() {
  const machines = use(useServices().machines.changeHistory());
  return <ChangeHistoryPage machines={machines} />;
}

/** Named intents of the drawer's `detail` machine: show a change's before/after table, close it. */
export function useChangeDetailEvents(detail: ActorRefFrom<ChangeDetailMachine>) {
  return useMemo(
    () => ({
      openDetail: (entry: ChangeHistoryEntry) => detail.send({ type: 'detail.open', entry }),
      closeDetail: () => detail.send({ type: 'detail.close' }),
    }),
    [detail],
  );
}

/** The page over its machines (list, CSV export, user options, detail drawer), each started here. */
export function ChangeHistoryPage({ machines }: { machines: ChangeHistoryMachines }) {
  const search = useSearch();
  const initialQuery = useMemo(
    () => {
      const parsed = listQueryFromSearchParams(search, { allowedFilters: FILTERS });
      return { ...parsed, sort: parsed.sort ?? '-occurred_at' };
    },
    // The URL is read once, when the screen opens; afterwards the machine keeps it in sync.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const list = useActorRef(machines.list, {
    input: { columns: COLUMNS, exportName: 'historial-de-cambios', query: initialQuery },
    ...inspectOption(),
  });
  const csv = useActorRef(machines.csvExport, inspectOption());
  const users = useActorRef(machines.userOptions, inspectOption());
  const userOptions = useSelector(users, (s) => s.output ?? []);
  const query = useResourceList(list, (s) => s.context.query);
  const exportingCsv = useSelector(csv, (s) => s.matches('exporting'));
  const exportingXlsx = useResourceList(list, (s) => s.matches({ export: 'exporting' }));
  const { exportAs } = useResourceListEvents(list);
  const detail = useActorRef(machines.detail, inspectOption());
  const open = useSelector(detail, selectOpenEntry);
  const { openDetail, closeDetail } = useChangeDetailEvents(detail);

  return (
    <section className="change-history" aria-labelledby="change-history-title">
      <h1 id="change-history-title" className="change-history__title">
        Historial de Cambios
      </h1>
      <ResourceToolbar list={list} canExport={false} filters={<Filters list={list} users={userOptions} />} />
      <div className="change-history__export">
        <PopoverNext
          placement="bottom-end"
          content={
            <Menu>
              <MenuItem icon="th" text="Exportar a Excel" onClick={() => exportAs('xlsx')} />
              <MenuItem icon="document" text="Exportar a CSV" onClick={() => csv.send({ type: 'csv.export', query })} />
            </Menu>
          }
        >
          <Button icon="export" text="Exportar" endIcon="caret-down" loading={exportingCsv || exportingXlsx} />
        </PopoverNext>
      </div>
      <div className="change-history__table">
        <ResourceTable<ChangeHistoryEntry>
          list={list}
          columns={COLUMNS}
          rowKey={(e) => e.id}
          caption="Historial de Cambios"
          rowActions={[{ text: 'Ver cambios', icon: 'eye-open', onClick: (e) => openDetail(e) }]}
        />
      </div>
      <ListStates list={list} />
      <ChangeDrawer entry={open} onClose={closeDetail} />
    </section>
  );
}

function Filters({ list, users }: { list: ResourceListRef<ChangeHistoryEntry>; users: readonly { id: number; name: string }[] }) {
  const filters = useResourceList(list, (s) => s.context.query.filters);
  const { changeFilter } = useResourceListEvents(list);
  const today = todayInLima();
  // An inverted range would be refused by the server (422): moving one end past the other clears the other.
  const setDate = (field: 'from' | 'to', value: string) => {
    const next = value === INVALID_DATE_VALUE || value === '' ? undefined : value;
    const other = field === 'from' ? filters.to : filters.from;
    if (next && other && (field === 'from' ? next > other : next < other)) changeFilter(field === 'from' ? 'to' : 'from', undefined);
    changeFilter(field, next);
  };
  const actorValue = filters.actor_type && filters.actor_id ? `${filters.actor_type}:${filters.actor_id}` : '';
  return (
    <div className="change-history__filters">
      <FormGroup label="Desde" labelFor="ch-from" inline={false}>
        <IsoDateInput id="ch-from" value={filters.from ?? ''} onChange={(v) => setDate('from', v)} minDate="2020-01-01" maxDate={today} />
      </FormGroup>
      <FormGroup label="Hasta" labelFor="ch-to">
        <IsoDateInput id="ch-to" value={filters.to ?? ''} onChange={(v) => setDate('to', v)} minDate="2020-01-01" maxDate={today} />
      </FormGroup>
      <FormGroup label="Usuario" labelFor="ch-user">
        <HTMLSelect
          id="ch-user"
          value={actorValue}
          onChange={(e) => {
            const [type, id] = e.currentTarget.value.split(':');
            changeFilter('actor_type', type || undefined);
            changeFilter('actor_id', id || undefined);
          }}
        >
          <option value="">Todos</option>
          {users.map((u) => (
            <option key={u.id} value={`COLLABORATOR:${u.id}`}>
              {u.name}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <FormGroup label="Entidad" labelFor="ch-entity">
        <HTMLSelect
          id="ch-entity"
          value={filters.entity ?? ''}
          onChange={(e) => changeFilter('entity', e.currentTarget.value || undefined)}
        >
          <option value="">Todas</option>
          {Object.entries(ENTITY_LABELS).map(([entity, label]) => (
            <option key={entity} value={entity}>
              {label}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <FormGroup label="Registro" labelFor="ch-record">
        <InputGroup
          id="ch-record"
          defaultValue={filters.record_id ?? ''}
          onBlur={(e) => changeFilter('record_id', e.currentTarget.value.trim() || undefined)}
          onKeyDown={(e) => e.key === 'Enter' && changeFilter('record_id', e.currentTarget.value.trim() || undefined)}
        />
      </FormGroup>
      <FormGroup label="Acción" labelFor="ch-action">
        <HTMLSelect
          id="ch-action"
          value={filters.action ?? ''}
          onChange={(e) => changeFilter('action', e.currentTarget.value || undefined)}
        >
          <option value="">Todas</option>
          {(Object.keys(ACTION_LABEL) as ChangeAction[]).map((a) => (
            <option key={a} value={a}>
              {ACTION_LABEL[a]}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
    </div>
  );
}

const show = (value: unknown): string => showValue(value, formatDateTimeLima);

/** The before/after table of one change; changed fields are highlighted. */
function ChangeDrawer({ entry, onClose }: { entry: ChangeHistoryEntry | null; onClose: () => void }) {
  const fields = entry ? [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])].sort() : [];
  const changed = new Set(entry?.changed_fields ?? []);
  return (
    <Drawer isOpen={entry !== null} onClose={onClose} title="Detalle del cambio" size="min(640px, 100%)" icon="history">
      {entry ? (
        // A long change scrolls: the body is a named region in the tab order, so the keyboard reaches
        // and scrolls it (axe `scrollable-region-focusable`, as src/views/shared/ScrollRegion.tsx).
        <div className={`${Classes.DRAWER_BODY} change-history__drawer`} role="region" aria-label="Detalle del cambio" tabIndex={0}>
          <p>
            <strong>{ACTION_LABEL[entry.action]}</strong> de {entityLabel(entry.entity)} {entry.record_label ?? `#${entry.record_id}`} ·{' '}
            {formatDateTimeLima(entry.occurred_at)} · {actorName(entry)}
            {entry.ip ? ` · ${entry.ip}` : ''}
          </p>
          <HTMLTable compact className="change-history__diff" aria-label="Cambios del registro">
            <thead>
              <tr>
                <th scope="col">Campo</th>
                <th scope="col">Antes</th>
                <th scope="col">Después</th>
              </tr>
            </thead>
            <tbody>
              {fields.map((field) => (
                <tr key={field} className={changed.has(field) ? 'is-changed' : undefined} data-changed={changed.has(field) || undefined}>
                  <th scope="row">{fieldLabel(field)}</th>
                  <td>{show(entry.before?.[field])}</td>
                  <td>{show(entry.after?.[field])}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      ) : null}
    </Drawer>
  );
}
