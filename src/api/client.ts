import * as z from 'zod/mini';
import type * as zc from 'zod/v4/core';
import { toApiError } from './errors';
import { ApiError } from './http';

/**
 * The api client as the api modules use it (docs/architecture.md "api"): the bases, errors and
 * session statuses of ./http.ts (the part in the login page's entry chunk), the error
 * normalisation of ./errors.ts, and the parsing of answers with their zod schemas.
 */
export * from './http';
export { apiErrorOf, toApiError } from './errors';

/**
 * Runs a request and parses its JSON body with `schema`.
 * @throws ApiError on any non-2xx, network failure, or a body that does not match the schema.
 */
export async function request<S extends zc.$ZodType>(schema: S, run: () => Promise<unknown>): Promise<zc.output<S>> {
  let body: unknown;
  try {
    body = await run();
  } catch (error) {
    throw toApiError(error);
  }
  return parseBody(schema, body);
}

/**
 * Parses a 2xx answer's body with `schema`.
 * @throws ApiError (status 0, "Respuesta inesperada del servidor") when it does not match.
 */
export function parseBody<S extends zc.$ZodType>(schema: S, body: unknown): zc.output<S> {
  const parsed = z.safeParse(schema, body);
  if (!parsed.success) throw new ApiError(0, 'Respuesta inesperada del servidor');
  return parsed.data;
}

/** URL-encoded form body (docs/product.md §7 rows 7, 8, 14, 15 send forms). */
export function formBody(fields: Record<string, string>): URLSearchParams {
  return new URLSearchParams(fields);
}
