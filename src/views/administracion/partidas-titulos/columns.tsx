import { Classes } from '@blueprintjs/core';
import { dateCell } from '../../../lib/csv';
import { formatDate } from '../../../lib/dates';
import { TITLE_STATE_LABELS, type TitleProcess } from '../../../schemas/administracion/titles';
import type { TableColumn } from '../../shared/ResourceTable';
import { DeadlineCell, TitleStateTag, daysText } from './title-parts';

/** The list's columns (and the export's): sale, lot, titular, state, days in state, asiento deadline. */
export const TITLE_COLUMNS: TableColumn<TitleProcess>[] = [
  { key: 'sale', label: 'Venta', render: (r) => <span className="titles-nowrap">{r.sale.number}</span>, exportValue: (r) => r.sale.number },
  {
    key: 'lot',
    label: 'Lote',
    render: (r) => (
      <>
        <span className="titles-nowrap">{r.lot.code}</span>
        <div className={Classes.TEXT_MUTED}>{r.lot.subdivision_name}</div>
      </>
    ),
    exportValue: (r) => `${r.lot.code} · ${r.lot.subdivision_name}`,
  },
  { key: 'titular', label: 'Titular', render: (r) => r.sale.titular || '—', exportValue: (r) => r.sale.titular },
  { key: 'state', label: 'Estado', render: (r) => <TitleStateTag state={r.state} />, exportValue: (r) => TITLE_STATE_LABELS[r.state] },
  {
    key: 'state_since',
    label: 'Días en el estado',
    sortable: true,
    align: 'right',
    render: (r) => (
      <span className="titles-nowrap" title={`Desde el ${formatDate(r.state_since)}`}>
        {daysText(r.days_in_state)}
      </span>
    ),
    exportValue: (r) => r.days_in_state,
  },
  {
    key: 'deadline',
    label: 'Vence el asiento',
    sortable: true,
    render: (r) => <DeadlineCell process={r} />,
    exportValue: (r) => dateCell(r.presentation?.deadline),
  },
  {
    key: 'titulo_number',
    label: 'Título',
    render: (r) => r.titulo_number ?? '—',
    exportValue: (r) => r.titulo_number ?? '',
    hiddenByDefault: true,
  },
  { key: 'partida', label: 'Partida', render: (r) => r.partida ?? '—', exportValue: (r) => r.partida ?? '', hiddenByDefault: true },
  {
    key: 'created_at',
    label: 'Creado',
    sortable: true,
    hiddenByDefault: true,
    render: (r) => formatDate(r.created_at.slice(0, 10)),
    exportValue: (r) => dateCell(r.created_at.slice(0, 10)),
  },
];
