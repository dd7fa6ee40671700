import type { SelectQueryBuilder } from 'kysely';
import type { PageMeta } from '../../src/schemas/paging';

/** Server side of list paging (docs/api.md "Business resources"). */

/** A requested page. */
export interface PageRequest {
  page: number;
  per_page: number;
}

/** One page of rows and its meta. */
export interface Page<T> {
  data: T[];
  meta: PageMeta;
}

/**
 * Counts the rows of `filtered` (a query with FROM/JOIN/WHERE but no ORDER BY, no SELECT) and
 * runs `rows` on it limited to the requested page.
 * @param rows adds the selection and ORDER BY (must order by a unique key last for stable pages).
 * @param counted the same rows as `filtered` in a cheaper query to count, when there is one (e.g.
 *   without joins that add no rows); default `filtered`.
 */
export async function paginate<DB, TB extends keyof DB, R, CTB extends keyof DB = TB>(
  filtered: SelectQueryBuilder<DB, TB, object>,
  request: PageRequest,
  rows: (query: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, R>,
  counted?: SelectQueryBuilder<DB, CTB, object>,
): Promise<Page<R>> {
  const toCount = (counted ?? filtered) as SelectQueryBuilder<DB, TB, object>;
  const count = (await toCount.select((eb) => eb.fn.countAll<number | string | bigint>().as('total')).executeTakeFirst()) as
    { total: number | string | bigint } | undefined;
  const total = Number(count?.total ?? 0);
  const data = await rows(filtered)
    .limit(request.per_page)
    .offset((request.page - 1) * request.per_page)
    .execute();
  return { data, meta: { page: request.page, per_page: request.per_page, total } };
}

/** `sort` query (`field` / `-field`) → column and direction; `fallback` when absent. */
export function parseSort<F extends string>(sort: string | undefined, fallback: `${F}` | `-${F}`): { field: F; direction: 'asc' | 'desc' } {
  const value = sort ?? fallback;
  return value.startsWith('-') ? { field: value.slice(1) as F, direction: 'desc' } : { field: value as F, direction: 'asc' };
}

/** Escapes LIKE wildcards of a user's search text and wraps it as `%text%` (lower-cased). */
export function likePattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
