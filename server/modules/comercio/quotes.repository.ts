import type { Kysely } from 'kysely';
import type { QuotesQuery } from '../../../src/schemas/comercio/quotes';
import type { DB } from '../../db/database';
import { displayNameSql } from '../crm/customers.repository';
import { paginate, parseSort, type Page } from '../../db/paging';
import { searchPatternSql } from '../../db/text-search';

/** SQL of quotes (`quotes`). */

/** "COT-000123" of a quote id. */
export const quoteNumber = (id: number) => `COT-${String(id).padStart(6, '0')}`;

/**
 * The status as shown: BORRADOR or ENVIADA past `valid_until` (before `today`, Lima) reads VENCIDA.
 * The same rule the list's status filter applies in SQL.
 */
export const effectiveQuoteStatus = (stored: string, validUntil: string, today: string): string =>
  (stored === 'BORRADOR' || stored === 'ENVIADA') && validUntil < today ? 'VENCIDA' : stored;

/** One page of quote ids in order, and the total. `q` matches the customer's names, document, the lot's code or the number. */
export function listQuoteIds(db: Kysely<DB>, filters: QuotesQuery, today: string): Promise<Page<{ id: number }>> {
  let query = db
    .selectFrom('quotes')
    .innerJoin('customers', 'customers.id', 'quotes.customer_id')
    .innerJoin('lots', 'lots.id', 'quotes.lot_id');
  const text = filters.q;
  if (text) {
    const pattern = searchPatternSql(text);
    const digits = text.replace(/\D/g, '');
    query = query.where((eb) =>
      eb.or([
        eb(displayNameSql, 'like', pattern),
        eb('customers.document_number', 'like', pattern),
        eb('lots.search_text', 'like', pattern),
        ...(digits && /^cot/i.test(text.trim()) ? [eb('quotes.id', '=', Number(digits))] : []),
      ]),
    );
  }
  if (filters.status === 'VENCIDA') {
    query = query.where((eb) =>
      eb.or([
        eb('quotes.status', '=', 'VENCIDA'),
        eb.and([eb('quotes.status', 'in', ['BORRADOR', 'ENVIADA']), eb('quotes.valid_until', '<', today)]),
      ]),
    );
  } else if (filters.status === 'BORRADOR' || filters.status === 'ENVIADA') {
    query = query.where('quotes.status', '=', filters.status).where('quotes.valid_until', '>=', today);
  } else if (filters.status) query = query.where('quotes.status', '=', filters.status);
  if (filters.customer_id !== undefined) query = query.where('quotes.customer_id', '=', filters.customer_id);
  if (filters.lot_id !== undefined) query = query.where('quotes.lot_id', '=', filters.lot_id);
  if (filters.subdivision_id !== undefined) query = query.where('lots.subdivision_id', '=', filters.subdivision_id);
  const { field, direction } = parseSort<'created_at' | 'valid_until' | 'final_price'>(filters.sort, '-created_at');
  return paginate(query, filters, (q) => q.select('quotes.id').orderBy(`quotes.${field}`, direction).orderBy('quotes.id', direction));
}

/** Quotes by id with their customer, lot and agent, in the order of `ids`. */
export async function quoteRowsByIds(db: Kysely<DB>, ids: readonly number[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('quotes')
    .innerJoin('customers', 'customers.id', 'quotes.customer_id')
    .innerJoin('lots', 'lots.id', 'quotes.lot_id')
    .innerJoin('subdivisions', 'subdivisions.id', 'lots.subdivision_id')
    .leftJoin('users as agent', 'agent.id', 'quotes.agent_id')
    .selectAll('quotes')
    .select([
      'customers.name as customer_name',
      'customers.surname as customer_surname',
      'customers.document_number',
      'lots.code as lot_code',
      'lots.area_m2',
      'subdivisions.name as subdivision_name',
      'agent.name as agent_name',
      'agent.surname as agent_surname',
    ])
    .where('quotes.id', 'in', [...ids])
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [r] : [];
  });
}

/** The stored row of a quote (for the change history). */
export function quoteRow(db: Kysely<DB>, id: number) {
  return db.selectFrom('quotes').selectAll().where('id', '=', id).executeTakeFirst();
}
