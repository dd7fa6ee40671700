/**
 * Wiring of the Configuración screens' machines (issue "Configuración"): createAppActors loads
 * them on demand and builds their api modules on the app's client; the user actions (confirm,
 * cancel, refusal as a toast, session errors to the session) and the permission matrix (save,
 * a refusal kept as its message).
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { createApiClient, ApiError } from '../../../src/api/client';
import { createAppActors } from '../../../src/machines/app-actors';
import { createUsersMachines } from '../../../src/machines/configuracion/users.actors';
import { createRolesMachines } from '../../../src/machines/configuracion/roles.actors';
import type { UsersApi } from '../../../src/api/configuracion/users';
import type { RolesApi } from '../../../src/api/configuracion/roles';
import type { StaffUser } from '../../../src/schemas/configuracion/users';
import type { Role } from '../../../src/schemas/configuracion/roles';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { STALE_RECORD_MESSAGE } from '../../../src/schemas/versions';
import { fakeNotificationsApi, fakeSessionApi, memoryStore } from '../support/fakes';

const user = { id: 7, name: 'Sonia', surname: 'Soto', email: 's@parcela.test', status: 'ACTIVO' } as StaffUser;

describe('createAppActors: the Configuración machines', () => {
  it('loads the users and roles machines on demand, calling the api through the app client', async () => {
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input instanceof Request ? input.url : input);
      return new Response(JSON.stringify({ data: [], meta: { page: 1, per_page: 20, total: 0 } }), {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-url': url },
      });
    });
    const apiClient = createApiClient({
      bases: { main: 'http://x/api', customer: 'http://x/api/customer', private: 'http://x/api/private', public: 'http://x/' },
      getToken: () => 't',
      fetch: fetch as typeof globalThis.fetch,
    });
    const { machines } = createAppActors({
      sessionApi: fakeSessionApi(),
      notificationsApi: fakeNotificationsApi(),
      store: memoryStore(),
      storedSession: {},
      navigate: vi.fn(),
      toaster: { show: vi.fn() },
      win: null,
      apiClient,
    });
    const users = await machines.users();
    expect(await machines.users()).toBe(users);
    const list = createActor(users.list, { input: { columns: [] } }).start();
    await waitFor(list, (s) => s.matches({ list: { ready: 'empty' } }));
    const roles = await machines.roles();
    const rolesList = createActor(roles.list, { input: { columns: [] } }).start();
    await waitFor(rolesList, (s) => s.matches({ list: { ready: 'empty' } }));
    const urls = fetch.mock.calls.map(([input]) => String(input instanceof Request ? input.url : input));
    expect(urls.some((u) => u.includes('/api/users'))).toBe(true);
    expect(urls.some((u) => u.includes('/api/roles'))).toBe(true);
  });
});

describe('userActions', () => {
  function setup(overrides: Partial<UsersApi>) {
    const toaster = { show: vi.fn() };
    const reportApiError = vi.fn();
    const machines = createUsersMachines({
      usersApi: {
        deactivate: vi.fn(async () => user),
        reactivate: vi.fn(async () => user),
        sendPasswordReset: vi.fn(async () => ({ message: 'ok' })),
        ...overrides,
      } as UsersApi,
      sessionApi: { roleNames: vi.fn(async () => []), activeLocals: vi.fn(async () => []) },
      reportApiError,
      toaster,
    });
    return { actor: createActor(machines.actions).start(), toaster, reportApiError };
  }

  it('runs only after the confirmation, and cancelling runs nothing', async () => {
    const sendPasswordReset = vi.fn(async () => ({ message: 'ok' }));
    const { actor, toaster } = setup({ sendPasswordReset });
    actor.send({ type: 'action.request', kind: 'sendPasswordReset', record: user });
    expect(actor.getSnapshot().value).toBe('confirming');
    actor.send({ type: 'action.cancel' });
    expect(sendPasswordReset).not.toHaveBeenCalled();
    actor.send({ type: 'action.request', kind: 'sendPasswordReset', record: user });
    actor.send({ type: 'action.confirm' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(sendPasswordReset).toHaveBeenCalledWith(7);
    expect(toaster.show).toHaveBeenCalledWith(expect.objectContaining({ severity: 'success', summary: 'Enlace de contraseña enviado' }));
  });

  it('a 409 is a toast with the server message; a 401 also goes to the session', async () => {
    const deactivate = vi
      .fn<UsersApi['deactivate']>()
      .mockRejectedValueOnce(new ApiError(409, 'Debe quedar al menos un Administrador activo'))
      .mockRejectedValueOnce(new ApiError(401, 'Sesión expirada'));
    const { actor, toaster, reportApiError } = setup({ deactivate });
    for (let i = 0; i < 2; i++) {
      actor.send({ type: 'action.request', kind: 'deactivate', record: user });
      actor.send({ type: 'action.confirm' });
      await waitFor(actor, (s) => s.matches('idle'));
    }
    expect(toaster.show).toHaveBeenCalledWith(
      expect.objectContaining({ severity: 'error', detail: 'Debe quedar al menos un Administrador activo' }),
    );
    expect(reportApiError).toHaveBeenCalledTimes(1);
    expect(reportApiError.mock.calls[0]![0].status).toBe(401);
  });
});

describe('permissionMatrix', () => {
  const role: Role = { id: 4, name: 'Cobranzas', permissions: [MODULE.finanzas], holders: 0 };

  it('sends the toggled list and keeps a refusal as its message', async () => {
    const update = vi
      .fn<RolesApi['update']>()
      .mockRejectedValueOnce(new ApiError(409, 'El rol Administrador no se puede modificar'))
      .mockImplementationOnce(async (_id, body) => ({ ...role, permissions: body.permissions ?? [] }));
    const toaster = { show: vi.fn() };
    const { matrix } = createRolesMachines({ rolesApi: { update } as unknown as RolesApi, reportApiError: vi.fn(), toaster });
    const actor = createActor(matrix).start();
    actor.send({ type: 'matrix.open', role });
    actor.send({
      type: 'matrix.toggle',
      permission: SUBMODULE.pagos,
      checked: true,
      group: { module: MODULE.finanzas, submodules: [SUBMODULE.pagos] },
    });
    actor.send({ type: 'matrix.save' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('El rol Administrador no se puede modificar');
    actor.send({ type: 'matrix.save' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.error === null);
    expect(update).toHaveBeenLastCalledWith(4, { permissions: [MODULE.finanzas, SUBMODULE.pagos] });
    expect(toaster.show).toHaveBeenCalledWith(expect.objectContaining({ summary: 'Permisos guardados' }));
  });

  it('sends the version it opened; a stale edit offers "Recargar", which reopens the matrix on the fresh role', async () => {
    const opened: Role = { ...role, version: 2 };
    const fresh: Role = { ...role, permissions: [MODULE.finanzas, SUBMODULE.bancos], version: 3 };
    const update = vi
      .fn<RolesApi['update']>()
      .mockRejectedValueOnce(new ApiError(409, STALE_RECORD_MESSAGE, { version: [STALE_RECORD_MESSAGE] }));
    const get = vi.fn<RolesApi['get']>().mockResolvedValueOnce(fresh);
    const { matrix } = createRolesMachines({
      rolesApi: { update, get } as unknown as RolesApi,
      reportApiError: vi.fn(),
      toaster: { show: vi.fn() },
    });
    const actor = createActor(matrix).start();
    actor.send({ type: 'matrix.open', role: opened });
    actor.send({
      type: 'matrix.toggle',
      permission: SUBMODULE.pagos,
      checked: true,
      group: { module: MODULE.finanzas, submodules: [SUBMODULE.pagos] },
    });
    actor.send({ type: 'matrix.save' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.stale);
    expect(update).toHaveBeenCalledWith(4, { permissions: [MODULE.finanzas, SUBMODULE.pagos], version: 2 });
    expect(actor.getSnapshot().context.error).toBe(STALE_RECORD_MESSAGE);
    actor.send({ type: 'matrix.reload' });
    await waitFor(actor, (s) => s.matches('editing') && !s.context.stale);
    expect(get).toHaveBeenCalledWith(4);
    expect(actor.getSnapshot().context).toMatchObject({ role: fresh, permissions: fresh.permissions, error: null });
  });
});
