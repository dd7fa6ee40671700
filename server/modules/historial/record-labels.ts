import type { Kysely } from 'kysely';
import type { DB } from '../../db/database';
import { displayName } from '../crm/customers.repository';
import { saleNumber } from '../comercio/sales.service';
import { quoteNumber } from '../comercio/quotes.repository';
import { reservationNumber } from '../comercio/reservations.repository';
import { receiptLabel } from '../finanzas/payments.repository';
import { settlementNumber } from '../../../src/schemas/administracion/commissions';

/**
 * The business label of each change-history entry's record (docs/decisions.md "Historial de
 * cambios: records by their business labels"): the code people use for it, not its internal id —
 * a sale "V-000344", a lot "MZ B - LT 8", a customer "Rosa Díaz Ccori (45550000)", a payment its
 * receipt "R001-00000123", a quote "COT-000012", a reservation "SEP-000007", a lead, user, role…
 * by its name.
 *
 * Resolved when read, in bulk: one query per kind of record on the page (at most ~20 rows each
 * page of 100), from the record as it is now, so a renamed lot or customer shows its current
 * name everywhere; a record since deleted takes the label its last snapshot gives (`before` of the
 * DELETE, or the entry's own `after`/`before`); null when neither tells (the screen shows the id).
 */

/** An entry as the labeller reads it. */
export interface LabelledRecord {
  entity: string;
  record_id: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

type Row = Record<string, unknown>;

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);
const num = (value: unknown): number | null =>
  typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : null;

/** The label of one kind of record from a row of its table (or a snapshot of it), null when the row lacks what it needs. */
const LABELS: Readonly<Record<string, (row: Row, id: number) => string | null>> = {
  sales: (_row, id) => saleNumber(id),
  quotes: (_row, id) => quoteNumber(id),
  reservations: (_row, id) => reservationNumber(id),
  lots: (row) => text(row.code),
  customers: (row) => {
    const name = text(row.name);
    if (!name) return null;
    const display = displayName({ name, surname: text(row.surname) });
    return text(row.document_number) ? `${display} (${String(row.document_number)})` : display;
  },
  payments: (row) => {
    const series = text(row.receipt_series);
    const number = num(row.receipt_number);
    return series && number !== null ? receiptLabel(series, number) : null;
  },
  sale_instalments: (row) => {
    const saleId = num(row.sale_id);
    const number = num(row.number);
    return saleId !== null && number !== null ? `${saleNumber(saleId)} · cuota ${number}` : null;
  },
  leads: (row) => text(row.name),
  users: (row) => (text(row.name) ? `${String(row.name)} ${text(row.surname) ?? ''}`.trim() : null),
  roles: (row) => text(row.name),
  locals: (row) => text(row.name),
  subdivisions: (row) => text(row.name),
  stages: (row) => text(row.name),
  blocks: (row) => (text(row.name) ? `MZ ${String(row.name)}` : null),
  companies: (row) => text(row.business_name),
  bank_accounts: (row) => (text(row.bank) && text(row.number) ? `${String(row.bank)} ${String(row.number)}` : null),
  wallets: (row) => (text(row.kind) && text(row.phone) ? `${String(row.kind)} ${String(row.phone)}` : null),
  title_processes: (row) => {
    const saleId = num(row.sale_id);
    return saleId !== null ? `Título de ${saleNumber(saleId)}` : null;
  },
  public_holidays: (row) => (text(row.name) && row.date ? `${String(row.name)} (${String(row.date).slice(0, 10)})` : null),
  contract_templates: (row) => {
    const versionNumber = num(row.version_number);
    return text(row.name) && versionNumber !== null ? `${String(row.name)} (v${versionNumber})` : null;
  },
  contracts: (row) => {
    const saleId = num(row.sale_id);
    return text(row.number) ?? (saleId !== null ? `Contrato de ${saleNumber(saleId)}` : null);
  },
  commission_settlements: (_row, id) => settlementNumber(id),
  commission_policies: (row) =>
    text(row.role) ? `Comisión ${String(row.role)} de la lotización ${String(row.subdivision_id ?? '')}`.trim() : null,
  expenses: (row) => (text(row.concept) && row.expense_date ? `${String(row.concept)} (${String(row.expense_date).slice(0, 10)})` : null),
};

/** The tables read for each kind of record (only what {@link LABELS} needs). */
type LabelledTable = keyof typeof COLUMNS;
const COLUMNS = {
  lots: ['code'],
  customers: ['name', 'surname', 'document_number'],
  payments: ['receipt_series', 'receipt_number'],
  sale_instalments: ['sale_id', 'number'],
  leads: ['name'],
  users: ['name', 'surname'],
  roles: ['name'],
  locals: ['name'],
  subdivisions: ['name'],
  stages: ['name'],
  blocks: ['name'],
  companies: ['business_name'],
  bank_accounts: ['bank', 'number'],
  wallets: ['kind', 'phone'],
  title_processes: ['sale_id'],
  public_holidays: ['name', 'date'],
  contract_templates: ['name', 'version_number'],
  contracts: ['number', 'sale_id'],
  commission_policies: ['role', 'subdivision_id'],
  expenses: ['concept', 'expense_date'],
} as const satisfies Partial<Record<keyof DB, readonly string[]>>;

/**
 * The business label of each of `entries`' records, in their order (null when unknown): current
 * rows read in bulk per table, snapshots for records no longer there. Entities without a label
 * rule (e.g. `lot_import_land_uses`) give null.
 */
export async function recordLabels(db: Kysely<DB>, entries: readonly LabelledRecord[]): Promise<Array<string | null>> {
  const idsByTable = new Map<LabelledTable, Set<number>>();
  for (const entry of entries) {
    const id = num(entry.record_id);
    if (id === null || !(entry.entity in COLUMNS)) continue;
    const table = entry.entity as LabelledTable;
    idsByTable.set(table, (idsByTable.get(table) ?? new Set()).add(id));
  }
  const current = new Map<string, Row>();
  for (const [table, ids] of idsByTable) {
    const rows = (await db
      .selectFrom(table)
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      .select(['id', ...COLUMNS[table]] as any)
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      .where('id' as any, 'in', [...ids])
      .execute()) as Row[];
    for (const row of rows) current.set(`${table}:${String(row.id)}`, row);
  }
  return entries.map((entry) => {
    const label = LABELS[entry.entity];
    const id = num(entry.record_id);
    if (!label || id === null) return null;
    const row = current.get(`${entry.entity}:${id}`);
    for (const source of [row, entry.after, entry.before]) {
      const value = source ? label(source, id) : null;
      if (value) return value;
    }
    return null;
  });
}
