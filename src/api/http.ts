import type { $Fetch, FetchOptions } from 'ofetch';
import type { ApiBases } from '../config/env';

/**
 * The api client without the answers' schemas (docs/architecture.md "api"): the {@link ApiError}
 * every call throws, the session statuses of the global check, and the four bases over ofetch.
 * No zod here: this module is in the login page's entry chunk, and zod with the error body's
 * schema (./errors.ts) comes with ofetch on the first request (docs/decisions.md "Compression and
 * the login budget"). The api modules import all of it, with `request` and `parseBody`, from
 * ./client.ts.
 */

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

/** What the first request loads: ofetch and the error normalisation (./errors.ts, with zod). */
interface Transport {
  ofetch: (typeof import('ofetch'))['ofetch'];
  toApiError: (error: unknown) => ApiError;
}
let transport: Promise<Transport> | undefined;

/**
 * ofetch and ./errors.ts are imported on the first request, not with the app: the login page sends
 * nothing until the user submits, so their ~4 KB gzip (ofetch with ufo and destr) and zod stay out
 * of the page's entry chunk (issue "Production grade", docs/decisions.md "Compression and the login
 * budget"). A failed import is forgotten, so the next request tries again.
 */
function loadTransport(): Promise<Transport> {
  transport ??= Promise.all([import('ofetch'), import('./errors')]).then(
    ([{ ofetch }, { toApiError }]) => ({ ofetch, toApiError }),
    (error: unknown) => {
      transport = undefined;
      throw error;
    },
  );
  return transport;
}

/** Starts fetching what the first request needs (e.g. while the user types the login form). */
export function preloadTransport(): void {
  loadTransport().catch(() => {
    /* the first request tries again and reports the failure */
  });
}

/**
 * A `$Fetch` whose instance is created by `create` on the first call. Supports what the api modules
 * use: calling it and `.raw`; `.native` passes through; `.create` is not offered (make another base).
 * Every failure of a call or `.raw` becomes an {@link ApiError} (./errors.ts `toApiError`; the
 * network error when ofetch itself could not be fetched) handed to `fail` (which checks it), so the
 * api modules receive an {@link ApiError}. A `.raw` call made with `ignoreResponseError` resolves
 * with its non-2xx answer: its caller passes the error it makes of it through `ApiClient.checked`.
 */
function lazyFetch(create: (ofetch: Transport['ofetch']) => $Fetch, fail: (error: ApiError) => never): $Fetch {
  let instance: Promise<{ fetch: $Fetch; toApiError: Transport['toApiError'] }> | undefined;
  const get = () =>
    (instance ??= loadTransport().then(
      ({ ofetch, toApiError }) => ({ fetch: create(ofetch), toApiError }),
      (error: unknown) => {
        instance = undefined;
        throw error;
      },
    ));
  const run = <T>(use: (fetch: $Fetch) => Promise<T>): Promise<T> =>
    get().then(
      ({ fetch, toApiError }) => use(fetch).catch((error: unknown) => fail(toApiError(error))),
      () => fail(new ApiError(0, NETWORK_ERROR_MESSAGE)),
    );
  const call = ((request: Parameters<$Fetch>[0], options?: FetchOptions) => run((f) => f(request, options))) as $Fetch;
  call.raw = ((request: Parameters<$Fetch>[0], options?: FetchOptions) => run((f) => f.raw(request, options))) as $Fetch['raw'];
  call.native = ((...args: Parameters<$Fetch['native']>) => get().then(({ fetch }) => fetch.native(...args))) as $Fetch['native'];
  call.create = () => {
    throw new Error('lazyFetch: create another base with createApiClient');
  };
  return call;
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
  const fail = (error: ApiError): never => {
    throw checked(error);
  };
  const failUnchecked = (error: ApiError): never => {
    throw error;
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
  const make = (baseURL: string, onFailure: (error: ApiError) => never = fail) =>
    lazyFetch(
      (ofetch) =>
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
