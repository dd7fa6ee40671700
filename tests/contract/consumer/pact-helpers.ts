/**
 * Shared pieces of the HTTP consumer tests: the pact, the api client pointed at the mock server,
 * bearer and form request declarations, and a helper to catch an ApiError.
 */
import path from 'node:path';
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { createApiClient, type ApiClient, type ApiError } from '../../../src/api/client';

/** The HTTP pact between parcela-web and parcela-api; every consumer test file adds to it. */
export function httpPact(): PactV4 {
  return new PactV4({
    consumer: 'parcela-web',
    provider: 'parcela-api',
    dir: path.resolve(import.meta.dirname, '../../../pacts'),
    logLevel: 'warn',
  });
}

/** The four bases of the real api client, all on the Pact mock server, with a stored `token`. */
export function mockClient(url: string, token: string | null = null): ApiClient {
  return createApiClient({
    bases: { main: `${url}/api`, customer: `${url}/api/customer`, private: `${url}/api/private`, public: url },
    getToken: () => token,
  });
}

/** Awaits a call that must fail. @throws when it succeeds. @returns its ApiError. */
export async function caught(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected the call to fail');
}

export const FORM = 'application/x-www-form-urlencoded';

/** Authorization header matching any 64-hex bearer token (the server's token format). */
export const bearer = (token: string) => ({ Authorization: MatchersV3.regex(/^Bearer [0-9a-f]{64}$/, `Bearer ${token}`) });

type RequestBuilder = Parameters<NonNullable<Parameters<ReturnType<PactV4['addInteraction']>['withRequest']>[2]>>[0];

/**
 * Declares a bearer-authenticated x-www-form-urlencoded request (docs/product.md §7 rows 7, 8, 14, 15 send forms).
 * pact-js 16's `body(contentType, Buffer)` registers a binary content-type rule that rejects form
 * bodies (pact-js issue #767), so the text body goes through the interaction's own `withRequestBody`.
 */
export function formRequest(b: RequestBuilder, token: string, fields: Record<string, string>): void {
  b.headers({ ...bearer(token), 'Content-Type': FORM });
  (b as unknown as { interaction: { withRequestBody(body: string, contentType: string): void } }).interaction.withRequestBody(
    new URLSearchParams(fields).toString(),
    FORM,
  );
}

/**
 * Sets a text request body through pact-core's `withRequestBody` (pactffi_with_body). The V4
 * builder's `body()` goes through `withRequestBinaryBody`, which adds a content-type rule on the
 * whole body that Pact's multipart matcher then applies to every part (the JSON field "is not
 * multipart"); a text body is compared part by part, by name, like multipartBody's.
 */
export function withTextBody<B extends object>(builder: B, contentType: string, body: string): B {
  (builder as unknown as { interaction: { withRequestBody(body: string, contentType: string): boolean } }).interaction.withRequestBody(
    body,
    contentType,
  );
  return builder;
}
