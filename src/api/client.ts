import type { $Fetch, FetchError, FetchOptions } from 'ofetch';
import * as z from 'zod/mini';
import type * as zc from 'zod/v4/core';
import { errorBodySchema } from '../schemas/common';
import type { ApiBases } from '../config/env';

/**
 * Typed error of every failed call (docs/architecture.md). `status` is the HTTP status
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

/**
 * Statuses of the global check of docs/product.md §7 ("Every response passes a global check: 401 →
 * /auth/access, 404 → /auth/error, 402 → /auth/pago"). Which page each one opens is the session
 * machine's business (`REDIRECT_PATHS`); the client only recognises them.
 */
export const SESSION_ERROR_STATUSES = [401, 402, 404] as const;

/** Whether `status` is one of {@link SESSION_ERROR_STATUSES}. */
export function isSessionStatus(status: number): boolean {
  return (SESSION_ERROR_STATUSES as readonly number[]).includes(status);
}

/**
 * Where and how to call one base without ofetch (an XMLHttpRequest upload that reports progress:
 * api/lot-imports.ts) — the same URL and headers the ofetch instance of that base uses.
 */
export interface ApiBaseTarget {
  /** URL of `path` (relative, e.g. `subdivisions/k/imports`) on this base, as ofetch joins it. */
  url(path: string): string;
  /** `Accept: application/json` and, when a token is stored, `Authorization: Bearer <token>`. */
  headers(): Headers;
}

/** One ofetch instance per base of docs/api.md, plus each base's URL and headers (`targets`). */
export interface ApiClient {
  main: $Fetch;
  customer: $Fetch;
  private: $Fetch;
  public: $Fetch;
  targets: Record<keyof ApiBases, ApiBaseTarget>;
  /**
   * Passes the error of a failed answer that did not reject through ofetch (the XMLHttpRequest
   * upload of api/lot-imports.ts, a `.raw` call with `ignoreResponseError`) through the same global
   * check as every other call, then returns it so the caller throws it:
   * `throw client.checked(apiErrorOf(status, body))`.
   */
  checked(error: ApiError): ApiError;
}

export interface ApiClientOptions {
  bases: ApiBases;
  /** Returns the stored bearer token (docs/product.md §7: read from storage key `token`), or null. */
  getToken: () => string | null;
  /** Optional fetch implementation (tests). */
  fetch?: typeof globalThis.fetch;
  /**
   * The global check of docs/product.md §7: called with the {@link ApiError} of every 401, 402 or 404 answer
   * of every call on the main, customer and private bases (every call of docs/product.md §7), before the call
   * rejects with that same error object. The public base is left out: it carries no session
   * (logo, plan images, the public map outside the authenticated layout), so its 404 is the
   * screen's own "not found", not the session's /auth/error. The app
   * installs one handler that hands it to the session machine (`session.apiError`), which decides
   * where the user goes; the client itself never navigates (docs/architecture.md).
   * An exception thrown by the handler is swallowed: the call still rejects with its own error.
   */
  onSessionError?: (error: ApiError) => void;
}

type OfetchModule = typeof import('ofetch');
let ofetchModule: Promise<OfetchModule> | undefined;

/**
 * ofetch is imported on the first request, not with the app: the login page sends nothing until the
 * user submits, so its ~4 KB gzip (with ufo and destr) stay out of the page's entry chunk (issue
 * "Production grade", docs/decisions.md "Compression and the login budget").
 */
function loadOfetch(): Promise<OfetchModule> {
  ofetchModule ??= import('ofetch');
  return ofetchModule;
}

/**
 * A `$Fetch` whose instance is created by `create` on the first call. Supports what the api modules
 * use: calling it and `.raw`; `.native` passes through; `.create` is not offered (make another base).
 * Every failure of a call or `.raw` is converted by `fail` (which normalises and checks it), so the
 * api modules receive an {@link ApiError}. A `.raw` call made with `ignoreResponseError` resolves
 * with its non-2xx answer: its caller passes the error it makes of it through `ApiClient.checked`.
 */
function lazyFetch(create: (module: OfetchModule) => $Fetch, fail: (error: unknown) => never): $Fetch {
  let instance: Promise<$Fetch> | undefined;
  const get = () => (instance ??= loadOfetch().then(create));
  const call = ((request: Parameters<$Fetch>[0], options?: FetchOptions) =>
    get()
      .then((f) => f(request, options))
      .catch(fail)) as $Fetch;
  call.raw = ((request: Parameters<$Fetch>[0], options?: FetchOptions) =>
    get()
      .then((f) => f.raw(request, options))
      .catch(fail)) as $Fetch['raw'];
  call.native = ((...args: Parameters<$Fetch['native']>) => get().then((f) => f.native(...args))) as $Fetch['native'];
  call.create = () => {
    throw new Error('lazyFetch: create another base with createApiClient');
  };
  return call;
}

/** True for ofetch's FetchError (checked by name: the class is in the lazily loaded module). */
function isFetchError(error: unknown): error is FetchError {
  return error instanceof Error && error.name === 'FetchError';
}

/**
 * Creates the four base clients. Every request carries `Accept: application/json` and, when a
 * token is stored, `Authorization: Bearer <token>`. Errors are normalised to {@link ApiError};
 * every 401/402/404 answer of the main, customer and private bases is handed to `onSessionError`
 * first (docs/product.md §7's global check, one mechanism for every call of every machine); the client never navigates or shows toasts (the
 * session machine decides where the user goes).
 */
export function createApiClient({ bases, getToken, fetch, onSessionError }: ApiClientOptions): ApiClient {
  /** The global check: a 401/402/404 goes to `onSessionError` (once per error object). */
  const checked = (error: ApiError): ApiError => {
    if (onSessionError && isSessionStatus(error.status) && !reported.has(error)) {
      reported.add(error);
      try {
        onSessionError(error);
      } catch {
        // The handler's own failure must not replace the call's error.
      }
    }
    return error;
  };
  const reported = new WeakSet<ApiError>();
  const fail = (error: unknown): never => {
    throw checked(toApiError(error));
  };
  const failUnchecked = (error: unknown): never => {
    throw toApiError(error);
  };

  /** `init` plus Accept and the bearer token: every request of every base, whatever its transport. */
  const withAuth = (init?: HeadersInit): Headers => {
    const headers = new Headers(init);
    headers.set('Accept', 'application/json');
    const token = getToken();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return headers;
  };
  // The fetch implementation is a global option of ofetch (second argument), not a request default.
  const make = (baseURL: string, onFailure: (error: unknown) => never = fail) =>
    lazyFetch(
      ({ ofetch }) =>
        ofetch.create(
          {
            baseURL,
            retry: 0,
            onRequest({ options }) {
              options.headers = withAuth(options.headers);
            },
          },
          fetch ? { fetch } : {},
        ),
      onFailure,
    );
  const target = (baseURL: string): ApiBaseTarget => ({ url: (path) => joinBase(baseURL, path), headers: () => withAuth() });
  return {
    main: make(bases.main),
    customer: make(bases.customer),
    private: make(bases.private),
    public: make(bases.public, failUnchecked),
    targets: { main: target(bases.main), customer: target(bases.customer), private: target(bases.private), public: target(bases.public) },
    checked,
  };
}

/**
 * `path` on `base` the way ofetch's `baseURL` does for the relative paths the api modules use
 * (`/api` + `subdivisions/k` → `/api/subdivisions/k`; an absolute `http…` path is kept).
 */
export function joinBase(base: string, path: string): string {
  if (!base || /^[a-z][a-z\d+.-]*:/i.test(path)) return path;
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
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
