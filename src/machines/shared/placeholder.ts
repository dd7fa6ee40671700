import { fromPromise } from 'xstate';
import { ApiError, NETWORK_ERROR_MESSAGE } from '../../api/client';

/**
 * Helpers shared by every machine (design ARCHITECTURE.md "machines/": every effect is named in
 * `setup()` and supplied with `.provide()`).
 */

/**
 * A promise actor that only fails: declares a named actor's types in `setup()` while the real
 * implementation is supplied with `.provide()` (the api call in the app, a fake in tests).
 */
export function placeholder<TOutput, TInput = void>(name: string) {
  return fromPromise<TOutput, TInput>(async () => {
    throw new Error(`actor "${name}" was not provided`);
  });
}

/** Spanish message of any error: the server's message for an ApiError (SPEC §8), else a network message. */
export function errorMessage(error: unknown): string {
  return error instanceof ApiError ? error.message : NETWORK_ERROR_MESSAGE;
}

/** HTTP status of an ApiError, else null. */
export function errorStatus(error: unknown): number | null {
  return error instanceof ApiError ? error.status : null;
}

/**
 * First message per field of a 422's `issues` (design API.md "Errors").
 * @param fields the form's field names; issues on other paths are returned under `rest`.
 */
export function fieldErrorsFrom<F extends string>(
  error: unknown,
  fields: readonly F[],
): { fields: Partial<Record<F, string>>; rest: string[] } {
  const out: Partial<Record<F, string>> = {};
  const rest: string[] = [];
  if (!(error instanceof ApiError)) return { fields: out, rest };
  for (const [path, messages] of Object.entries(error.issues)) {
    const first = messages[0];
    if (!first) continue;
    if ((fields as readonly string[]).includes(path)) out[path as F] = first;
    else rest.push(first);
  }
  return { fields: out, rest };
}
