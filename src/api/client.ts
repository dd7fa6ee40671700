import { ofetch, FetchError, type $Fetch } from 'ofetch';
import type { z } from 'zod';
import { errorBodySchema } from '../schemas/common';
import type { ApiBases } from '../config/env';

/**
 * Typed error of every failed call (design ARCHITECTURE.md "api/"). `status` is the HTTP status
 * (0 when the network failed or the response did not match its schema), `message` the server's
 * Spanish message, `issues` the field → messages map of a 422.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues: Record<string, string[]> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Spanish message used when the server is unreachable or answers something unreadable. */
export const NETWORK_ERROR_MESSAGE = 'No se pudo conectar con el servidor. Inténtelo nuevamente.';

/** One ofetch instance per base of design API.md. */
export interface ApiClient {
  main: $Fetch;
  customer: $Fetch;
  private: $Fetch;
  public: $Fetch;
}

export interface ApiClientOptions {
  bases: ApiBases;
  /** Returns the stored bearer token (SPEC §7: read from storage key `token`), or null. */
  getToken: () => string | null;
  /** Optional fetch implementation (tests). */
  fetch?: typeof globalThis.fetch;
}

/**
 * Creates the four base clients. Every request carries `Accept: application/json` and, when a
 * token is stored, `Authorization: Bearer <token>`. Errors are normalised to {@link ApiError};
 * the client never navigates or shows toasts (the session machine applies SPEC §7's 401/404/402).
 */
export function createApiClient({ bases, getToken, fetch }: ApiClientOptions): ApiClient {
  // The fetch implementation is a global option of ofetch (second argument), not a request default.
  const make = (baseURL: string) =>
    ofetch.create(
      {
        baseURL,
        retry: 0,
        onRequest({ options }) {
          const headers = new Headers(options.headers);
          headers.set('Accept', 'application/json');
          const token = getToken();
          if (token) headers.set('Authorization', `Bearer ${token}`);
          options.headers = headers;
        },
      },
      fetch ? { fetch } : {},
    );
  return { main: make(bases.main), customer: make(bases.customer), private: make(bases.private), public: make(bases.public) };
}

/** Converts anything thrown by ofetch into an {@link ApiError} (SPEC §8: carries the server's message). */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof FetchError) {
    const status = error.status ?? error.response?.status ?? 0;
    const body = errorBodySchema.safeParse(error.data);
    if (body.success) return new ApiError(status, body.data.message, body.data.errors ?? {});
    return new ApiError(status, status ? `Error ${status}` : NETWORK_ERROR_MESSAGE);
  }
  return new ApiError(0, NETWORK_ERROR_MESSAGE);
}

/**
 * Runs a request and parses its JSON body with `schema`.
 * @throws ApiError on any non-2xx, network failure, or a body that does not match the schema.
 */
export async function request<S extends z.ZodType>(schema: S, run: () => Promise<unknown>): Promise<z.infer<S>> {
  let body: unknown;
  try {
    body = await run();
  } catch (error) {
    throw toApiError(error);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(0, 'Respuesta inesperada del servidor');
  return parsed.data;
}

/** URL-encoded form body (SPEC §7 rows 7, 8, 14, 15 send forms). */
export function formBody(fields: Record<string, string>): URLSearchParams {
  return new URLSearchParams(fields);
}
