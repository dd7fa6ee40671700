import { z } from 'zod';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from './list';

/**
 * Server-side query schemas of paged lists (docs/api.md "Business resources"): strict per-route
 * querystrings built from {@link listQueryShape}; the answer shapes come from `./list`.
 */

export { MAX_PER_PAGE, DEFAULT_PER_PAGE, pageMetaSchema, pagedResponseSchema, type PageMeta } from './list';

/** Query members common to every list (numbers arrive as strings and are coerced). */
export const listQueryShape = {
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(MAX_PER_PAGE).default(DEFAULT_PER_PAGE),
  sort: z.string().max(60).optional(),
  q: z.string().trim().max(100).optional(),
};

/** `{ data: item }` (GET one, POST create, PATCH update). */
export function dataResponseSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: item });
}

/** A `sort` value restricted to `fields`, ascending or with a leading '-' for descending. */
export function sortSchema<const F extends readonly [string, ...string[]]>(fields: F) {
  const allowed = new Set<string>(fields.flatMap((f) => [f, `-${f}`]));
  return z
    .string()
    .refine((value) => allowed.has(value), { message: `Orden no válido; use uno de: ${fields.join(', ')}` })
    .optional();
}
