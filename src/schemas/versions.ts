import { z } from 'zod';

/**
 * Record versions (issue 11 item 9, "lost updates"; docs/decisions.md "Record versions"). Every
 * record staff edit through a form — users, roles, the company, locals, subdivisions, stages,
 * blocks, lots — carries `version`: 1 when created, +1 on every change. An edit (PATCH) sends back
 * the `version` it was read at in its JSON body; when the record has changed since, the server
 * answers 409 `{ message: STALE_RECORD_MESSAGE, errors: { version: [STALE_RECORD_MESSAGE] } }` and
 * stores nothing. A PATCH without `version` is still accepted and applied as before (last write
 * wins): scripts and providers that do not version yet keep working.
 */

/** Spanish message of a stale edit (the issue's text, word for word). */
export const STALE_RECORD_MESSAGE = 'El registro fue modificado por otro usuario; recargue para ver los cambios';

/** The field that carries the version in request bodies, answers and the 409's `errors`. */
export const VERSION_FIELD = 'version';

/** `version` of a PATCH body: the version the client read (a positive integer, at most 2^31 − 1). */
export const recordVersionSchema = z.number().int().min(1).max(2_147_483_647);

/**
 * `version` in answers: optional for the tolerant reader (docs/contracts.md), so an answer without
 * it is read as before and the next edit is sent without a version. Our server always sends it.
 */
export const versionInAnswerSchema = z.number().int().optional();

/** The "at least one field" rule of PATCH bodies, `version` not counting as a field. */
export const AT_LEAST_ONE_FIELD: { check: (body: object) => boolean; options: { message: string; path: string[] } } = {
  check: (body) => Object.keys(body).some((key) => key !== VERSION_FIELD),
  options: { message: 'Indique al menos un campo', path: ['body'] },
};

/** Whether an error is a stale-edit 409 (status 409 with an `errors.version` message). */
export function isStaleRecordError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { status, issues } = error as { status?: unknown; issues?: Record<string, unknown> };
  return status === 409 && Array.isArray(issues?.[VERSION_FIELD]);
}
