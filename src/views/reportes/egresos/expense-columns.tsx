import { formatDate } from '../../../lib/dates';
import { formatMoney } from '../../../lib/money';
import type { Expense } from '../../../schemas/reportes/expenses';
import type { TableColumn } from '../../shared/ResourceTable';

/**
 * The columns of the Egresos list (ExpensesTab.tsx): Fecha (dd/mm/yyyy, sortable, newest first by
 * default), Lotización, Concepto, Comprobante ('—' when none) and Monto (the subdivision's currency
 * symbol, from céntimos; sortable). Exports carry the ISO date, the currency and the amount in
 * currency units.
 */
export const EXPENSE_COLUMNS: TableColumn<Expense>[] = [
  {
    key: 'expense_date',
    label: 'Fecha',
    sortable: true,
    render: (e) => formatDate(e.expense_date),
    exportValue: (e) => e.expense_date,
  },
  {
    key: 'subdivision',
    label: 'Lotización',
    render: (e) => e.subdivision.name,
    exportValue: (e) => e.subdivision.name,
  },
  { key: 'concept', label: 'Concepto' },
  {
    key: 'voucher',
    label: 'Comprobante',
    render: (e) => e.voucher ?? '—',
    exportValue: (e) => e.voucher ?? '',
  },
  {
    key: 'amount',
    label: 'Monto',
    sortable: true,
    align: 'right',
    render: (e) => formatMoney(e.amount, e.currency),
    exportValue: (e) => `${e.currency} ${(e.amount / 100).toFixed(2)}`,
  },
];
