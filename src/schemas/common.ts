import * as z from 'zod/mini';

/**
 * Body of every non-2xx response on every base (design API.md "Errors").
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

/** ISO calendar date `YYYY-MM-DD` (wire format of every date, design API.md). */
export const isoDateSchema = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Fecha inválida'));
