import type { FetchError } from 'ofetch';
import { errorBodySchema } from '../schemas/common';
import { ApiError, NETWORK_ERROR_MESSAGE } from './http';

/**
 * Errors of failed calls read with the error body's schema (docs/api.md): imported with ofetch on
 * the first request (./http.ts), and by the api modules through ./client.ts.
 */

/** True for ofetch's FetchError (checked by name: the class is in the lazily loaded module). */
function isFetchError(error: unknown): error is FetchError {
  return error instanceof Error && error.name === 'FetchError';
}

/** Converts anything thrown by ofetch into an {@link ApiError} (docs/product.md §8: carries the server's message). */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isFetchError(error)) return apiErrorOf(error.status ?? error.response?.status ?? 0, error.data);
  return new ApiError(0, NETWORK_ERROR_MESSAGE);
}

/**
 * The {@link ApiError} of a failed answer, whatever transport received it: the server's message and
 * field errors when `body` is the error body of docs/api.md, else `Error <status>` (or the
 * network message when there was no answer, status 0).
 */
export function apiErrorOf(status: number, body: unknown): ApiError {
  const parsed = errorBodySchema.safeParse(body);
  if (parsed.success) return new ApiError(status, parsed.data.message, parsed.data.errors ?? {});
  return new ApiError(status, status ? `Error ${status}` : NETWORK_ERROR_MESSAGE);
}
