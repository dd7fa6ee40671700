import { Tag } from '@blueprintjs/core';
import { formatDate } from '../../../lib/dates';
import { CONTRACT_KIND_LABELS, type ContractKind } from '../../../schemas/administracion/contract-templates';
import { CONTRACT_STATE_LABELS, type Contract, type ContractState } from '../../../schemas/administracion/contracts';
import type { TableColumn } from '../../shared/ResourceTable';
import { ContractStateTag } from '../shared/ContractStateTag';

/** Whole days from `from` to `to` (ISO calendar days). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to.slice(0, 10)}T00:00:00Z`) - Date.parse(`${from.slice(0, 10)}T00:00:00Z`)) / 86_400_000);
}

/** "Firma pendiente · N días": an EMITIDO contract past its signature window without the scan. */
export function OverdueTag({ contract, today }: { contract: Pick<Contract, 'signature_overdue' | 'signature_due_on'>; today: string }) {
  if (!contract.signature_overdue) return null;
  const days = contract.signature_due_on ? Math.max(1, daysBetween(contract.signature_due_on, today)) : null;
  return (
    <Tag intent="warning" icon="time" className="contract-overdue-tag">
      Firma pendiente{days !== null ? ` · ${days} ${days === 1 ? 'día' : 'días'}` : ''}
    </Tag>
  );
}

/** The register's columns (the Excel export uses the same, with `exportValue`). */
export function contractColumns(today: string): TableColumn<Contract>[] {
  return [
    {
      key: 'number',
      label: 'Número',
      sortable: true,
      render: (c) => <span className="contract-nowrap">{c.number ?? '—'}</span>,
      exportValue: (c) => c.number ?? '',
    },
    {
      key: 'sale',
      label: 'Venta',
      render: (c) => <span className="contract-nowrap">{c.sale.number}</span>,
      exportValue: (c) => c.sale.number,
    },
    { key: 'titular', label: 'Titular', render: (c) => c.sale.titular, exportValue: (c) => c.sale.titular },
    {
      key: 'lot',
      label: 'Lote',
      render: (c) => `${c.lot.code} (${c.lot.subdivision_name})`,
      exportValue: (c) => `${c.lot.code} (${c.lot.subdivision_name})`,
    },
    {
      key: 'kind',
      label: 'Tipo',
      render: (c) => CONTRACT_KIND_LABELS[c.kind as ContractKind] ?? c.kind,
      exportValue: (c) => CONTRACT_KIND_LABELS[c.kind as ContractKind] ?? c.kind,
    },
    { key: 'agent', label: 'Asesor', render: (c) => c.sale.agent?.name ?? '—', exportValue: (c) => c.sale.agent?.name ?? '' },
    {
      key: 'issued_at',
      label: 'Emitido',
      sortable: true,
      render: (c) => <span className="contract-nowrap">{c.issued_at ? formatDate(c.issued_at.slice(0, 10)) : '—'}</span>,
      exportValue: (c) => (c.issued_at ? formatDate(c.issued_at.slice(0, 10)) : ''),
    },
    {
      key: 'state',
      label: 'Estado',
      sortable: true,
      render: (c) => (
        <>
          <ContractStateTag state={c.state} />
          <OverdueTag contract={c} today={today} />
        </>
      ),
      exportValue: (c) => `${CONTRACT_STATE_LABELS[c.state as ContractState] ?? c.state}${c.signature_overdue ? ' (firma pendiente)' : ''}`,
    },
  ];
}
