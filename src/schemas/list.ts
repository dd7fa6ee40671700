import { z } from 'zod';

/**
 * Paged lists (docs/api.md "Business resources": `GET` list takes `page` (1-based), `per_page`
 * (≤ 100), `sort` (`field` or `-field`), `q` and filters by field name, and answers
 * `{ data: [...], meta: { page, per_page, total } }`). Shared by the api modules, the list machine,
 * the server routes and the Pact tests. The server's per-route query schemas are in `./paging`.
 */

/** Largest `per_page` a list accepts (docs/api.md). */
export const MAX_PER_PAGE = 100;
/** `per_page` used when the URL does not say. */
export const DEFAULT_PER_PAGE = 20;

/** `meta` of every paged answer. */
export const pageMetaSchema = z.object({
  page: z.number().int().min(1),
  per_page: z.number().int().min(1).max(MAX_PER_PAGE),
  total: z.number().int().min(0),
});
export type PageMeta = z.infer<typeof pageMetaSchema>;

/** Schema of a paged answer whose items match `itemSchema`. */
export function pagedResponseSchema<T extends z.ZodType>(itemSchema: T) {
  return z.object({ data: z.array(itemSchema), meta: pageMetaSchema });
}

/** A paged answer with items of type `T`. */
export interface Paged<T> {
  data: T[];
  meta: PageMeta;
}

/** What a list shows: page, size, order, search text and filters by field name. */
export interface ListQuery {
  page: number;
  per_page: number;
  /** `field` (ascending) or `-field` (descending). */
  sort?: string | undefined;
  q?: string | undefined;
  filters: Record<string, string>;
}

/** Query parameter names that are not filters. */
const RESERVED = new Set(['page', 'per_page', 'sort', 'q']);

/** A field name or `-field`: letters, digits, `_` and `.`. */
const SORT_PATTERN = /^-?[A-Za-z_][A-Za-z0-9_.]*$/;

/** The first page of an unfiltered list. */
export function defaultListQuery(perPage: number = DEFAULT_PER_PAGE): ListQuery {
  return { page: 1, per_page: perPage, filters: {} };
}

/**
 * ListQuery → URL query (the api call and the browser's address use the same parameters).
 * Defaults (page 1, empty text, empty filters) are left out, so a plain link stays plain;
 * filters are written sorted by name so the same view always gives the same URL.
 */
export function listQueryToSearchParams(query: ListQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.page !== 1) params.set('page', String(query.page));
  params.set('per_page', String(query.per_page));
  if (query.sort) params.set('sort', query.sort);
  if (query.q && query.q.trim() !== '') params.set('q', query.q);
  for (const key of Object.keys(query.filters).sort()) {
    const value = query.filters[key];
    if (value !== undefined && value !== '' && !RESERVED.has(key)) params.set(key, value);
  }
  return params;
}

/**
 * URL query → ListQuery. Anything unreadable falls back to its default (page 1, `perPage`, no sort),
 * `per_page` is capped at {@link MAX_PER_PAGE}, and every other parameter becomes a filter.
 * @param allowedFilters when given, only these parameter names are kept as filters.
 */
export function listQueryFromSearchParams(
  input: URLSearchParams | string,
  options: { perPage?: number; allowedFilters?: readonly string[] } = {},
): ListQuery {
  const params = typeof input === 'string' ? new URLSearchParams(input) : input;
  const int = (raw: string | null) => (raw !== null && /^\d+$/.test(raw) ? Number(raw) : NaN);
  const page = int(params.get('page'));
  const perPage = int(params.get('per_page'));
  const sort = params.get('sort');
  const q = params.get('q');
  const filters: Record<string, string> = {};
  for (const [key, value] of params) {
    if (RESERVED.has(key) || value === '') continue;
    if (options.allowedFilters && !options.allowedFilters.includes(key)) continue;
    filters[key] = value;
  }
  return {
    page: page >= 1 ? page : 1,
    per_page: perPage >= 1 ? Math.min(perPage, MAX_PER_PAGE) : (options.perPage ?? DEFAULT_PER_PAGE),
    sort: sort && SORT_PATTERN.test(sort) ? sort : undefined,
    q: q && q.trim() !== '' ? q : undefined,
    filters,
  };
}
