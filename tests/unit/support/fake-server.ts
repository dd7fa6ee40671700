/**
 * A fake HTTP server for the calls of docs/product.md §7 that the session and the shell make (rows 2, 3, 7–15),
 * as a `fetch` for the real api client: every call answers the sample data of fakes.ts unless a
 * test overrides its answer. Used to prove the global 401/404/402 rule end to end: real api
 * modules, real `createApiClient` (its `onSessionError` hook), real machines.
 */
import { vi } from 'vitest';
import { TOKEN, locals, permissions, realtime, roles, sampleNotification, sampleUser } from './fakes';

/** An HTTP answer: status and JSON body. */
export interface FakeAnswer {
  status: number;
  body?: unknown;
}

/** The docs/product.md §7 calls by number, as "METHOD path" on the default bases (main /api, customer /api/customer, private /api/private). */
export const CALLS = {
  2: 'POST /api/auth/login',
  3: 'GET /api/get_websocket_and_channels_credentials',
  7: 'POST /api/auth/logout',
  8: 'POST /api/store_or_update_user_style_config',
  9: 'GET /api/private/ver_locales_activos',
  10: 'GET /api/private/roles_name',
  11: 'GET /api/private/api/roles_permissions',
  12: 'GET /api/get_notifications_by_user',
  13: 'GET /api/customer/get_notifications_by_user',
  14: 'POST /api/update_to_seen_notifications',
  15: 'POST /api/change_password_user',
} as const;
export type CallNumber = keyof typeof CALLS;

const ok = (body: unknown): FakeAnswer => ({ status: 200, body });
const notifications = ok({ data: { notification_quantity: 1, notification: [sampleNotification()] } });

/** What each call answers by default: success with the sample data. */
export const DEFAULT_ANSWERS: Record<CallNumber, FakeAnswer> = {
  2: ok({ data: { token: TOKEN, type: 'COLLABORATOR', system_styles: null, user: sampleUser } }),
  3: ok({ data: realtime }),
  7: ok({ message: 'Sesión cerrada' }),
  8: ok({ message: 'Estilos guardados' }),
  9: ok({ message: locals }),
  10: ok({ message: roles.map((r) => r.name), id: roles.map((r) => r.code) }),
  11: ok({ permissions }),
  12: notifications,
  13: notifications,
  14: ok({ message: 'Notificaciones marcadas como vistas' }),
  15: ok({ message: 'Contraseña actualizada' }),
};

/** The answer of the global rule's statuses, as our server sends it (server/errors.ts MESSAGES). */
export const SESSION_ERROR_ANSWERS = {
  401: { status: 401, body: { message: 'Sesión no válida o expirada' } },
  402: { status: 402, body: { message: 'La suscripción de la empresa está vencida' } },
  404: { status: 404, body: { message: 'Recurso no encontrado' } },
} as const satisfies Record<number, FakeAnswer>;

/**
 * A fetch answering the docs/product.md §7 calls; `overrides` replace the answer of some calls.
 * @returns `fetch` (for createApiClient / createAppServices), `seen` (every "METHOD path" asked, in
 * order) and `answer(call, a)` to change a call's answer later.
 */
export function fakeServer(overrides: Partial<Record<CallNumber, FakeAnswer>> = {}) {
  const answers = new Map<string, FakeAnswer>();
  for (const [n, key] of Object.entries(CALLS))
    answers.set(key, overrides[Number(n) as CallNumber] ?? DEFAULT_ANSWERS[Number(n) as CallNumber]);
  const seen: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://parcela.test');
    const key = `${(init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase()} ${url.pathname}`;
    seen.push(key);
    const answer = answers.get(key) ?? { status: 404, body: { message: 'Recurso no encontrado' } };
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  }) as unknown as typeof globalThis.fetch;
  return {
    fetch,
    seen,
    /** Changes the answer of `call` from now on. */
    answer: (call: CallNumber, answer: FakeAnswer) => void answers.set(CALLS[call], answer),
  };
}
