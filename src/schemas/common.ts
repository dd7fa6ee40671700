import * as z from 'zod/mini';
import type * as zc from 'zod/v4/core';

/**
 * Body of every non-2xx response on every base (docs/api.md "Errors").
 * `message` is Spanish and fit for a toast; `errors` maps a field path to its Spanish messages.
 */
export const errorBodySchema = z.object({
  message: z.string(),
  errors: z.optional(z.record(z.string(), z.array(z.string()))),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** A response that only carries a Spanish `message` (reset requests, logout, password change). */
export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

/**
 * ISO calendar date `YYYY-MM-DD` (wire format of every date, docs/api.md), checked for its form
 * only: for RESPONSES, which must not refuse what another backend sends. Requests use
 * `calendarDateSchema` (src/schemas/dates.ts: a real day within {@link CALENDAR_DATE_BOUNDS}).
 */
export const isoDateSchema = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Fecha inválida'));

/**
 * The days a request's date may name (docs/domain.md "Dates"): 1900-01-01 … 2100-12-31, both
 * included — birthdays of living people, licences, sales and their schedules (up to 30 years
 * ahead). Here, without Temporal, so that the registration schema (login bundle) shares them.
 */
export const CALENDAR_DATE_BOUNDS = { min: '1900-01-01', max: '2100-12-31' } as const;

/** Spanish messages of the request dates. */
export const CALENDAR_DATE_MESSAGES = {
  /** Not `YYYY-MM-DD`, or no such day (2027-02-30); fields with a message of their own use it instead. */
  invalid: 'Fecha inválida',
  outOfRange: 'La fecha debe estar entre el 01/01/1900 y el 31/12/2100',
} as const;

/**
 * Characters refused in every text field (issue 11 item 14): C0 controls except tab, line feed and
 * carriage return (multi-line fields such as notes keep them), DEL, C1 controls, and the Unicode
 * bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069: "U+202E" makes
 * a name read backwards). NUL also failed on PostgreSQL text columns (a 500).
 */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

/** Spanish message of a text field holding a {@link CONTROL_CHARACTERS} character. */
export const CONTROL_CHARACTERS_MESSAGE = 'El texto contiene caracteres de control o de dirección no permitidos';

/** Keys whose values are secrets, hashed and never shown: exempt (a password may hold any character). */
const EXEMPT_KEY = /password/i;

/**
 * The shared refinement: adds one issue per string (at any depth of objects and arrays) that holds
 * a {@link CONTROL_CHARACTERS} character, at that string's path. The server applies it to every
 * route's body, querystring and params schema (server/app.ts); forms may add it with
 * `.check(z.superRefine(refuseControlCharacters))`.
 */
export function refuseControlCharacters(value: unknown, ctx: zc.$RefinementCtx): void {
  const visit = (node: unknown, path: Array<string | number>, depth: number) => {
    if (typeof node === 'string') {
      if (CONTROL_CHARACTERS.test(node)) ctx.addIssue({ code: 'custom', path, message: CONTROL_CHARACTERS_MESSAGE });
    } else if (Array.isArray(node) && depth < 20) {
      node.forEach((item, i) => visit(item, [...path, i], depth + 1));
    } else if (node !== null && typeof node === 'object' && depth < 20 && !(node instanceof Date)) {
      for (const [key, item] of Object.entries(node)) if (!EXEMPT_KEY.test(key)) visit(item, [...path, key], depth + 1);
    }
  };
  visit(value, [], 0);
}
