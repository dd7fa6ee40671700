import { ApiError, NETWORK_ERROR_MESSAGE, isSessionStatus } from '../../api/http';

/**
 * How machines read a failed call's {@link ApiError} (issue 10 item 4: one home for the shared
 * API-error transitions, docs/api.md "Errors").
 *
 * The global 401/402/404 rule of docs/product.md §7 ("every response passes a global check") is not applied
 * here: the api client hands every such answer to the session (`ApiClientOptions.onSessionError`,
 * installed by app-services.ts), whatever machine made the call. A machine only decides how its
 * own screen reacts to an error the session already handles — usually by staying quiet
 * ({@link isSessionError} as a guard) instead of showing a toast over the page the user is sent to.
 */

/** Hands a failed call's error to the session (`session.send({ type: 'session.apiError', error })`). */
export type ReportApiError = (error: ApiError) => void;

/**
 * Whether an error is one the session handles app-wide: an {@link ApiError} whose status is 401,
 * 402 or 404 (docs/product.md §7: 401 → /auth/access, 404 → /auth/error, 402 → /auth/pago).
 */
export function isSessionError(error: unknown): boolean {
  return error instanceof ApiError && isSessionStatus(error.status);
}

/**
 * A `reportApiError` that forwards only session errors ({@link isSessionError}) to `report` and
 * drops every other failure (the screen shows those itself).
 */
export function forwardSessionErrors(report: ReportApiError): (error: unknown) => void {
  return (error) => {
    if (isSessionError(error)) report(error as ApiError);
  };
}

/** Spanish message of any error: the server's message for an ApiError (docs/product.md §8), else a network message. */
export function errorMessage(error: unknown): string {
  return error instanceof ApiError ? error.message : NETWORK_ERROR_MESSAGE;
}

/** HTTP status of an ApiError, else null. */
export function errorStatus(error: unknown): number | null {
  return error instanceof ApiError ? error.status : null;
}

/**
 * First message per field of a 422's `issues` (docs/api.md "Errors").
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
