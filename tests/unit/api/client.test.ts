/**
 * api/client (docs/architecture.md; docs/product.md §7, §8): bearer token from storage, every failure
 * normalised to ApiError {status, message, issues}, bodies parsed by their schema. Uses a fake fetch.
 */
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, NETWORK_ERROR_MESSAGE, createApiClient, request, toApiError } from '../../../src/api/client';
import { createSessionApi } from '../../../src/api/session';
import { createNotificationsApi } from '../../../src/api/notifications';
import { createLotMapsApi } from '../../../src/api/mapas/lot-maps';
import { limaWallTimeText, relativeTimeEs } from '../../../src/lib/dates';
import { readStorage } from '../../../src/lib/storage';
import { loginData } from '../support/fakes';

const bases = {
  main: 'http://api.test/api',
  customer: 'http://api.test/api/customer',
  private: 'http://api.test/api/private',
  public: 'http://api.test/',
};

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function clientWith(respond: (req: Request) => Response | Promise<Response>, token: string | null = null) {
  const seen: Request[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    seen.push(req);
    return respond(req);
  }) as unknown as typeof globalThis.fetch;
  return { client: createApiClient({ bases, getToken: () => token, fetch }), seen };
}

describe('api client', () => {
  it('sends Accept JSON and the bearer token when one is stored', async () => {
    const { client, seen } = clientWith(() => json(200, { permissions: [] }), 'tok-123');
    await createSessionApi(client).rolePermissions();
    expect(seen[0]!.url).toBe('http://api.test/api/private/api/roles_permissions');
    expect(seen[0]!.headers.get('Authorization')).toBe('Bearer tok-123');
    expect(seen[0]!.headers.get('Accept')).toBe('application/json');
  });

  it('sends no Authorization header without a token', async () => {
    const { client, seen } = clientWith(() => json(200, { message: [] }));
    await createSessionApi(client).activeLocals();
    expect(seen[0]!.headers.get('Authorization')).toBeNull();
  });

  it('parses a successful login', async () => {
    const { client, seen } = clientWith(() => json(200, { data: loginData }));
    const data = await createSessionApi(client).login({ user: '45678912', password: 'x', user_type: 'COLLABORATOR' });
    expect(data.token).toBe(loginData.token);
    expect(seen[0]!.method).toBe('POST');
    expect(await seen[0]!.json()).toEqual({ user: '45678912', password: 'x', user_type: 'COLLABORATOR' });
  });

  it('turns a 422 body into ApiError with the server message and the field issues', async () => {
    const { client } = clientWith(() => json(422, { message: 'Usuario o contraseña incorrectos', errors: { user: ['Requerido'] } }));
    const error = await createSessionApi(client)
      .login({ user: 'a', password: 'b', user_type: 'COLLABORATOR' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, message: 'Usuario o contraseña incorrectos', issues: { user: ['Requerido'] } });
  });

  it.each([401, 402, 404])('keeps the status %i (the session machine decides the redirect)', async (status) => {
    const { client } = clientWith(() => json(status, { message: 'mensaje' }));
    const error = await createSessionApi(client)
      .roleNames()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status, message: 'mensaje', issues: {} });
  });

  describe('the global check (docs/product.md §7 "every response passes a global check", onSessionError)', () => {
    function reporting(respond: (req: Request) => Response, onSessionError = vi.fn()) {
      const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) =>
        respond(new Request(input, init)),
      ) as unknown as typeof globalThis.fetch;
      return { client: createApiClient({ bases, getToken: () => 't', fetch, onSessionError }), onSessionError };
    }

    it.each([401, 402, 404])('hands a %i to onSessionError once, before the call rejects with that same error', async (status) => {
      const order: string[] = [];
      const { client, onSessionError } = reporting(
        () => json(status, { message: 'Sesión no válida o expirada' }),
        vi.fn(() => void order.push('reported')),
      );
      const error = await createSessionApi(client)
        .changePassword('a', 'b')
        .catch((e: unknown) => (order.push('rejected'), e));
      expect(onSessionError).toHaveBeenCalledTimes(1);
      expect(onSessionError.mock.calls[0]![0]).toBe(error);
      expect(error).toMatchObject({ status, message: 'Sesión no válida o expirada' });
      expect(order).toEqual(['reported', 'rejected']);
    });

    it("on the session's bases and every kind of call: customer, private, blob, raw", async () => {
      const { client, onSessionError } = reporting(() => json(401, { message: 'x' }));
      await createNotificationsApi(client)
        .list('CUSTOMER')
        .catch(() => {});
      await createSessionApi(client)
        .roleNames()
        .catch(() => {});
      await client.main('plan', { responseType: 'blob' }).catch(() => {});
      await client.main.raw('plan').catch(() => {});
      expect(onSessionError).toHaveBeenCalledTimes(4);
    });

    it('not on the public base (no session: the public map\'s 404 is its own "not found")', async () => {
      const { client, onSessionError } = reporting(() => json(404, { message: 'Lotización no encontrada' }));
      const error = await createLotMapsApi(client)
        .publicMap('NoExiste99')
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 404, message: 'Lotización no encontrada' });
      expect(onSessionError).not.toHaveBeenCalled();
    });

    it.each([0, 403, 409, 422, 500])('does not report a %i', async (status) => {
      const { client, onSessionError } = reporting(
        () => (status ? json(status, { message: 'x' }) : Promise.reject(new TypeError('fetch failed'))) as Response,
      );
      await createSessionApi(client)
        .roleNames()
        .catch(() => {});
      expect(onSessionError).not.toHaveBeenCalled();
    });

    it('checked(): an answer received outside ofetch (XMLHttpRequest) goes through the same check, once', () => {
      const { client, onSessionError } = reporting(() => json(200, {}));
      const error = new ApiError(402, 'La suscripción de la empresa está vencida');
      expect(client.checked(error)).toBe(error);
      client.checked(error);
      client.checked(new ApiError(422, 'x'));
      expect(onSessionError).toHaveBeenCalledTimes(1);
    });

    it("a failing handler does not replace the call's error", async () => {
      const { client } = reporting(
        () => json(401, { message: 'Sesión no válida o expirada' }),
        vi.fn(() => {
          throw new Error('handler broke');
        }),
      );
      const error = await createSessionApi(client)
        .roleNames()
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 401, message: 'Sesión no válida o expirada' });
    });
  });

  it('a non-JSON error body becomes "Error <status>"', async () => {
    const { client } = clientWith(() => new Response('<html>502</html>', { status: 502, headers: { 'Content-Type': 'text/html' } }));
    const error = await createSessionApi(client)
      .roleNames()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, message: 'Error 502' });
  });

  it('a network failure becomes status 0 with the Spanish network message', async () => {
    const { client } = clientWith(() => {
      throw new TypeError('fetch failed');
    });
    const error = await createSessionApi(client)
      .roleNames()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, message: NETWORK_ERROR_MESSAGE });
  });

  it('a 2xx body that does not match its schema is an ApiError', async () => {
    const { client } = clientWith(() => json(200, { unexpected: true }));
    await expect(createSessionApi(client).roleNames()).rejects.toMatchObject({ status: 0, message: 'Respuesta inesperada del servidor' });
  });

  it('request() and toApiError() pass ApiErrors through and wrap anything else', async () => {
    const original = new ApiError(409, 'Conflicto');
    expect(toApiError(original)).toBe(original);
    expect(toApiError('boom')).toMatchObject({ status: 0, message: NETWORK_ERROR_MESSAGE });
    await expect(request(z.object({ a: z.number() }), async () => ({ a: 1 }))).resolves.toEqual({ a: 1 });
  });
});

describe('notifications reader (rows 12–13): one bad item never hides the good ones', () => {
  const good = {
    id_notification: 7,
    type: { code: 'INFO', name: 'Información', icon: 'info-sign', color_icon: '#3b82f6' },
    title: 'Bienvenido',
    detail: '<p>Hola</p>',
    created_at_formatted: '2026-11-20 10:15:00',
    fecha_creacion: '2026-11-20T15:15:00Z',
    new: true,
    route: null,
    extra_field_from_another_backend: 1,
  };
  it('keeps every readable item, with null or malformed dates, and drops only the unreadable one', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { client } = clientWith(() =>
      json(200, {
        data: {
          notification_quantity: 3,
          notification: [
            good,
            { ...good, id_notification: 8, created_at_formatted: null, fecha_creacion: null },
            { ...good, id_notification: 9, created_at_formatted: 'ayer', fecha_creacion: 'no es fecha' },
            { ...good, id_notification: 'x' }, // not a notification at all
          ],
        },
      }),
    );
    const data = await createNotificationsApi(client).list('COLLABORATOR');
    expect(data.notification_quantity).toBe(3);
    expect(data.notification.map((n) => n.id_notification)).toEqual([7, 8, 9]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(limaWallTimeText(data.notification[1]!.created_at_formatted)).toBe('Fecha no disponible');
    expect(limaWallTimeText(data.notification[2]!.created_at_formatted)).toBe('Fecha inválida');
    expect(relativeTimeEs(data.notification[1]!.fecha_creacion)).toBe('Fecha no disponible');
    expect(relativeTimeEs(data.notification[2]!.fecha_creacion)).toBe('Fecha inválida');
    warn.mockRestore();
  });
});

describe('login answer (call 2): tolerant reader', () => {
  it('reads a staff type other than COLLABORATOR, a group without icono, extra keys in system_styles and anywhere else', async () => {
    const { client } = clientWith(() =>
      json(200, {
        data: {
          token: 'a'.repeat(64),
          type: 'ADMIN',
          system_styles: { primary: 'blue', surface: null, preset: 'Lara', menuMode: 'static', darkTheme: true, ripple: true },
          user: {
            ...loginData.user,
            permissions_names: [{ nombre: 'CRM', items: [{ nombre: 'Clientes', ruta: '/Crm/Clientes', icono: 'people' }] }],
            avatar_url: 'https://example.pe/a.png',
          },
          expires_in: 3600,
        },
        meta: { version: 2 },
      }),
    );
    const data = await createSessionApi(client).login({ user: '70000001', password: 'x', user_type: 'COLLABORATOR' });
    expect(data.type).toBe('COLLABORATOR'); // docs/product.md §6: anything but CUSTOMER is staff
    expect(data.system_styles).toEqual({ primary: 'blue', surface: null, preset: 'Lara', menuMode: 'static', darkTheme: true });
    expect(data.user.permissions_names[0]!.icono).toBeUndefined();
  });

  it('reads a stored type other than CUSTOMER as staff', () => {
    const store = new Map<string, string>([['type', 'ADMIN']]);
    const kv = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: () => undefined,
      removeItem: () => undefined,
      clear: () => undefined,
    };
    expect(readStorage('type', kv)).toBe('COLLABORATOR');
    store.set('type', 'CUSTOMER');
    expect(readStorage('type', kv)).toBe('CUSTOMER');
  });
});
