/**
 * Session machine (issue "Foundation"; docs/product.md §2, §3, §4, §7, §8): login stores the docs/product.md §3 keys and
 * loads the four secondary calls, failures, logout, the global 401/404/402 rule, and the initial
 * state read from storage, and the live permission refresh on a pushed PermissionsChangedEvent.
 * Effects are the real ones of session.actors.ts over a fake api, an
 * in-memory store and a recorded navigate.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { createSessionMachine } from '../../../src/machines/session/session.actors';
import { readStoredSession } from '../../../src/machines/session/stored-session';
import { readStorage } from '../../../src/lib/storage';
import { buildMenuModel, type MenuNode } from '../../../src/views/shell/menu-model';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { isOwnPermissionsChange } from '../../../src/machines/session/session.machine';
import {
  selectActiveLocal,
  selectHasToken,
  selectIsLoggingIn,
  selectLoginError,
  selectShouldLeaveLogin,
  hasPermissions,
} from '../../../src/machines/session/session.selectors';
import type { SessionApi } from '../../../src/api/session';
import type { ApiError } from '../../../src/api/client';
import type { RealtimeEvent, RealtimeInput } from '../../../src/machines/realtime/realtime.machine';
import {
  TOKEN,
  apiError,
  fakeSessionApi,
  locals,
  loginData,
  memoryStore,
  permissions,
  realtime,
  roles,
  fakeNotificationsApi,
  sampleNotification,
  sampleUser,
  seedSession,
} from '../support/fakes';

/** The session actor of the test under way (the target of {@link failViaClient}). */
let current: { send: (event: { type: 'session.apiError'; error: ApiError }) => void } | null = null;

/**
 * What the real api client does with a 401/402/404 (src/api/client.ts `onSessionError`, wired in
 * app-services.ts): report the error to the session, then reject with it. The end-to-end version,
 * with the real client, is tests/unit/machines/session-errors.test.ts.
 */
function failViaClient(error: ApiError): Promise<never> {
  current?.send({ type: 'session.apiError', error });
  return Promise.reject(error);
}

function start(api: SessionApi = fakeSessionApi(), store = memoryStore()) {
  const navigate = vi.fn();
  const log = vi.fn();
  const actor = createActor(createSessionMachine({ api, store, navigate, log }), { input: readStoredSession(store) });
  current = actor;
  actor.start();
  return { actor, navigate, log, store, api };
}

const login = { type: 'session.login', user: '45678912', password: 'secreto123', user_type: 'COLLABORATOR' } as const;

describe('session machine', () => {
  it('starts loggedOut with an empty store; a stored token revalidates (row 11) then is loggedIn.ready', async () => {
    expect(start().actor.getSnapshot().value).toBe('loggedOut');

    const store = memoryStore();
    seedSession(store);
    const { actor, api } = start(fakeSessionApi({ rolePermissions: vi.fn(async () => [...permissions, 'Acceso módulo CRM']) }), store);
    expect(actor.getSnapshot().value).toEqual({ loggedIn: 'revalidating' });
    const snap = await waitFor(actor, (s) => s.matches({ loggedIn: 'ready' }));
    expect(api.rolePermissions).toHaveBeenCalledTimes(1);
    expect(readStorage('accesos', store)).toContain('Acceso módulo CRM');
    expect(snap.context.token).toBe(TOKEN);
    expect(snap.context.user?.name).toBe('Lucía');
    expect(snap.context.permissions).toEqual([...permissions, 'Acceso módulo CRM']);
    // The stored menu follows the fresh permissions (CRM has no submodule held: no group).
    expect(readStorage('user_details', store)?.permissions_names.map((g) => g.nombre)).toEqual(['Configuración']);
    expect(selectActiveLocal(snap)?.name).toBe('Sede Central - Lima');
  });

  it('a stored token the server refuses (401 at revalidation, reported by the client) lands on /auth/access with storage cleared', async () => {
    const store = memoryStore();
    seedSession(store);
    const { actor, navigate } = start(
      fakeSessionApi({ rolePermissions: vi.fn(() => failViaClient(apiError(401, 'Sesión no válida o expirada'))) }),
      store,
    );
    await waitFor(actor, (s) => s.matches('redirected'));
    expect(navigate).toHaveBeenCalledWith('/auth/access');
    expect(store.data.size).toBe(0);
  });

  it("without the client's report, a failing row 11 at revalidation is only logged (the machine never routes by itself)", async () => {
    const store = memoryStore();
    seedSession(store);
    const { actor, navigate, log } = start(
      fakeSessionApi({ rolePermissions: vi.fn(async () => Promise.reject(apiError(401, 'No autenticado'))) }),
      store,
    );
    await waitFor(actor, (s) => s.matches({ loggedIn: 'ready' }));
    expect(navigate).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledWith('permissions', expect.any(Error));
  });

  it('a network failure at revalidation is logged and keeps the stored session', async () => {
    const store = memoryStore();
    seedSession(store);
    const { actor, navigate, log } = start(
      fakeSessionApi({ rolePermissions: vi.fn(async () => Promise.reject(apiError(0, 'Sin conexión'))) }),
      store,
    );
    await waitFor(actor, (s) => s.matches({ loggedIn: 'ready' }));
    expect(navigate).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalled();
    expect(actor.getSnapshot().context.token).toBe(TOKEN);
  });

  it('ignores a malformed stored token (treated as logged out)', () => {
    const store = memoryStore({ token: '' });
    expect(start(fakeSessionApi(), store).actor.getSnapshot().value).toBe('loggedOut');
  });

  it('login success stores the docs/product.md §3 keys, loads rows 3, 9, 10 and 11, then navigates to /', async () => {
    const { actor, navigate, store, api } = start();
    actor.send(login);
    expect(actor.getSnapshot().value).toBe('authenticating');
    expect(selectIsLoggingIn(actor.getSnapshot())).toBe(true);
    expect(api.login).toHaveBeenCalledWith({ user: '45678912', password: 'secreto123', user_type: 'COLLABORATOR' });

    await waitFor(actor, (s) => s.matches({ loggedIn: 'ready' }));

    expect(readStorage('token', store)).toBe(TOKEN);
    expect(readStorage('type', store)).toBe('COLLABORATOR');
    expect(store.data.get('system_styles')).toBe('null');
    expect(readStorage('user_details', store)).toEqual(sampleUser);
    expect(readStorage('echo_info', store)).toEqual(realtime.echo_info);
    expect(readStorage('channels', store)).toEqual(realtime.channels);
    expect(readStorage('local_active', store)).toEqual(locals);
    expect(readStorage('roles', store)).toEqual(roles);
    expect(readStorage('accesos', store)).toEqual(permissions);
    for (const call of [api.realtimeCredentials, api.activeLocals, api.roleNames, api.rolePermissions]) {
      expect(call).toHaveBeenCalledTimes(1);
    }
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenCalledWith('/');
    const snap = actor.getSnapshot();
    expect(snap.context.permissions).toEqual(permissions);
    expect(snap.context.roles).toEqual(roles);
    expect(selectShouldLeaveLogin(snap)).toBe(true);
  });

  it('stores the token before the secondary calls run (they need the bearer token)', async () => {
    const store = memoryStore();
    let tokenSeenByRow3: string | null = null;
    const api = fakeSessionApi({
      realtimeCredentials: vi.fn(async () => {
        tokenSeenByRow3 = readStorage('token', store);
        return realtime;
      }),
    });
    const { actor } = start(api, store);
    actor.send(login);
    await waitFor(actor, (s) => s.matches({ loggedIn: 'ready' }));
    expect(tokenSeenByRow3).toBe(TOKEN);
  });

  it('does not leave the login page while the secondary calls are pending', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const api = fakeSessionApi({ activeLocals: vi.fn(async () => (await gate, locals)) });
    const { actor, navigate } = start(api);
    actor.send(login);
    await waitFor(actor, (s) => s.matches({ loggedIn: 'loadingSessionData' }));
    await new Promise((r) => setTimeout(r, 0));
    expect(selectHasToken(actor.getSnapshot())).toBe(true);
    expect(selectShouldLeaveLogin(actor.getSnapshot())).toBe(false);
    expect(navigate).not.toHaveBeenCalled();
    release();
    await waitFor(actor, (s) => s.matches({ loggedIn: 'ready' }));
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('a failing secondary call is logged, not fatal', async () => {
    const api = fakeSessionApi({
      realtimeCredentials: vi.fn(async () => Promise.reject(apiError(500, 'Error interno'))),
      roleNames: vi.fn(async () => Promise.reject(apiError(0, 'sin red'))),
    });
    const { actor, log, navigate, store } = start(api);
    actor.send(login);
    await waitFor(actor, (s) => s.matches({ loggedIn: 'ready' }));
    expect(log).toHaveBeenCalledTimes(2);
    expect(log.mock.calls.map((c) => c[0]).sort()).toEqual(['realtime credentials', 'roles']);
    expect(readStorage('echo_info', store)).toBeNull();
    expect(readStorage('roles', store)).toBeNull();
    expect(readStorage('accesos', store)).toEqual(permissions);
    expect(readStorage('local_active', store)).toEqual(locals);
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('login failure goes back to loggedOut with the server message and stores nothing', async () => {
    const api = fakeSessionApi({ login: vi.fn(async () => Promise.reject(apiError(422, 'Usuario o contraseña incorrectos'))) });
    const { actor, store, navigate } = start(api);
    actor.send(login);
    await waitFor(actor, (s) => s.matches('loggedOut'));
    expect(selectLoginError(actor.getSnapshot())).toBe('Usuario o contraseña incorrectos');
    expect(store.data.size).toBe(0);
    expect(navigate).not.toHaveBeenCalled();
    expect(api.realtimeCredentials).not.toHaveBeenCalled();

    actor.send({ type: 'session.clearError' });
    expect(selectLoginError(actor.getSnapshot())).toBeNull();
  });

  it('a non-ApiError login failure shows the network message', async () => {
    const api = fakeSessionApi({ login: vi.fn(async () => Promise.reject(new TypeError('fetch failed'))) });
    const { actor } = start(api);
    actor.send(login);
    await waitFor(actor, (s) => s.matches('loggedOut'));
    expect(selectLoginError(actor.getSnapshot())).toBe('No se pudo conectar con el servidor. Inténtelo nuevamente.');
  });

  it('a 402 at login (reported by the client) redirects to /auth/pago', async () => {
    const api = fakeSessionApi({ login: vi.fn(() => failViaClient(apiError(402, 'Suscripción vencida'))) });
    const { actor, navigate } = start(api);
    actor.send(login);
    await waitFor(actor, (s) => s.matches('redirected'));
    expect(navigate).toHaveBeenCalledWith('/auth/pago');
  });

  it('logout sends the stored type, clears all storage and goes to /auth/login', async () => {
    const store = memoryStore();
    seedSession(store);
    store.setItem('type', 'CUSTOMER');
    const { actor, navigate, api } = start(fakeSessionApi(), store);
    actor.send({ type: 'session.logout' });
    expect(actor.getSnapshot().value).toBe('loggingOut');
    await waitFor(actor, (s) => s.matches('loggedOut'));
    expect(api.logout).toHaveBeenCalledWith('CUSTOMER');
    expect(store.data.size).toBe(0);
    expect(actor.getSnapshot().context.token).toBeNull();
    expect(actor.getSnapshot().context.user).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/auth/login');
  });

  it('a failing logout is only logged; storage is still cleared', async () => {
    const store = memoryStore();
    seedSession(store);
    const api = fakeSessionApi({ logout: vi.fn(async () => Promise.reject(apiError(500, 'Error'))) });
    const { actor, navigate, log } = start(api, store);
    actor.send({ type: 'session.logout' });
    await waitFor(actor, (s) => s.matches('loggedOut'));
    expect(log).toHaveBeenCalledWith('logout', expect.any(Error));
    expect(store.data.size).toBe(0);
    expect(navigate).toHaveBeenCalledWith('/auth/login');
  });

  describe('global API errors (docs/product.md §7)', () => {
    const loggedIn = () => {
      const store = memoryStore();
      seedSession(store);
      return start(fakeSessionApi(), store);
    };

    it('401 clears storage and goes to /auth/access', () => {
      const { actor, navigate, store } = loggedIn();
      actor.send({ type: 'session.apiError', error: apiError(401, 'No autenticado') });
      const snap = actor.getSnapshot();
      expect(snap.value).toBe('redirected');
      expect(snap.context.redirect).toEqual({ status: 401, to: '/auth/access' });
      expect(snap.context.token).toBeNull();
      expect(store.data.size).toBe(0);
      expect(navigate).toHaveBeenCalledWith('/auth/access');
    });

    it('404 goes to /auth/error and keeps the session', () => {
      const { actor, navigate, store } = loggedIn();
      actor.send({ type: 'session.apiError', error: apiError(404, 'No encontrado') });
      expect(actor.getSnapshot().value).toBe('redirected');
      expect(navigate).toHaveBeenCalledWith('/auth/error');
      expect(readStorage('token', store)).toBe(TOKEN);
      expect(selectHasToken(actor.getSnapshot())).toBe(true);
    });

    it('402 goes to /auth/pago', () => {
      const { actor, navigate } = loggedIn();
      actor.send({ type: 'session.apiError', error: apiError(402, 'Pago pendiente') });
      expect(actor.getSnapshot().value).toBe('redirected');
      expect(navigate).toHaveBeenCalledWith('/auth/pago');
    });

    it('other statuses are not redirected', async () => {
      const { actor, navigate } = loggedIn();
      await waitFor(actor, (s) => s.matches({ loggedIn: 'ready' }));
      actor.send({ type: 'session.apiError', error: apiError(500, 'Error') });
      actor.send({ type: 'session.apiError', error: apiError(403, 'Prohibido') });
      expect(actor.getSnapshot().value).toEqual({ loggedIn: { ready: 'current' } });
      expect(navigate).not.toHaveBeenCalled();
    });

    it('after a 401 the user can log in again from redirected', async () => {
      const { actor, navigate } = loggedIn();
      actor.send({ type: 'session.apiError', error: apiError(401, 'No autenticado') });
      actor.send(login);
      await waitFor(actor, (s) => s.matches({ loggedIn: 'ready' }));
      expect(navigate).toHaveBeenLastCalledWith('/');
    });
  });

  it('effects can be swapped with .provide() (named actors)', async () => {
    const navigate = vi.fn();
    const machine = createSessionMachine({ api: fakeSessionApi(), store: memoryStore(), navigate }).provide({
      actors: { login: fromPromise(async () => ({ ...loginData, token: 'b'.repeat(64) })) },
    });
    const actor = createActor(machine, { input: {} }).start();
    actor.send(login);
    await waitFor(actor, (s) => s.matches({ loggedIn: 'ready' }));
    expect(actor.getSnapshot().context.token).toBe('b'.repeat(64));
  });
});

describe('session: notifications and realtime while logged in (issue "Shell")', () => {
  function startShell(store = memoryStore(), notificationsApi = fakeNotificationsApi()) {
    const connection = {
      opened: vi.fn<(input: RealtimeInput) => void>(),
      closed: vi.fn(),
      push: null as ((e: RealtimeEvent) => void) | null,
    };
    const machine = createSessionMachine({
      api: fakeSessionApi(),
      store,
      navigate: vi.fn(),
      log: vi.fn(),
      notificationsApi,
      realtimeConnection: fromCallback<RealtimeEvent, RealtimeInput>(({ input, sendBack }) => {
        connection.opened(input);
        connection.push = sendBack;
        return () => connection.closed();
      }),
    });
    const actor = createActor(machine, { input: readStoredSession(store) }).start();
    return { actor, connection, notificationsApi, store };
  }

  it('invokes notifications (user id) and realtime (stored echo_info, channels, type, token) in ready only', async () => {
    const { actor, notificationsApi } = startShell();
    expect(actor.getSnapshot().children.notifications).toBeUndefined();
    actor.send(login);
    await waitFor(actor, (s) => s.matches({ loggedIn: 'ready' }));
    const snap = actor.getSnapshot();
    expect(snap.children.notifications?.getSnapshot().context.userId).toBe(sampleUser.id);
    expect(snap.children.realtime?.getSnapshot().context).toMatchObject({
      echoInfo: realtime.echo_info,
      channels: realtime.channels,
      userType: 'COLLABORATOR',
      token: TOKEN,
    });
    expect(actor.system.get('notifications')).toBe(snap.children.notifications);
    expect(actor.system.get('realtime')).toBe(snap.children.realtime);
    await waitFor(snap.children.notifications!, (s) => s.matches({ list: 'ready' }));
    expect(notificationsApi.list).toHaveBeenCalledWith('COLLABORATOR');
  });

  it('a restored session reads echo_info and channels from storage', async () => {
    const store = memoryStore();
    seedSession(store);
    store.setItem('echo_info', JSON.stringify(realtime.echo_info));
    store.setItem('channels', JSON.stringify(realtime.channels));
    const { actor } = startShell(store);
    await waitFor(actor, (s) => s.matches({ loggedIn: 'ready' }));
    expect(actor.getSnapshot().children.realtime?.getSnapshot().context.echoInfo).toEqual(realtime.echo_info);
  });

  it('customers fetch from the customer base (row 13)', async () => {
    const store = memoryStore();
    seedSession(store);
    store.setItem('type', 'CUSTOMER');
    const { actor, notificationsApi } = startShell(store);
    await waitFor(actor, (s) => s.matches({ loggedIn: 'ready' }));
    await waitFor(actor.getSnapshot().children.notifications!, (s) => s.matches({ list: 'ready' }));
    expect(notificationsApi.list).toHaveBeenCalledWith('CUSTOMER');
  });

  it('a realtime push reaches the notifications machine; logout stops both (disconnects)', async () => {
    vi.useFakeTimers();
    const store = memoryStore();
    seedSession(store);
    store.setItem('echo_info', JSON.stringify(realtime.echo_info));
    store.setItem('channels', JSON.stringify(realtime.channels));
    const { actor, connection } = startShell(store);
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ loggedIn: 'ready' })).toBe(true));
    const notifications = actor.getSnapshot().children.notifications!;
    await vi.waitFor(() => expect(notifications.getSnapshot().matches({ list: 'ready' })).toBe(true));
    actor.getSnapshot().children.realtime!.send({ type: 'realtime.start' });
    vi.advanceTimersByTime(5000);
    expect(connection.opened).toHaveBeenCalledTimes(1);
    connection.push!({
      type: 'realtime.pushed',
      payload: {
        tipo_operacion: 'NEW_NOTIFICATION',
        message: { ids_users: [sampleUser.id], notification: sampleNotification({ id_notification: 9 }) },
      },
    });
    expect(notifications.getSnapshot().context.count).toBe(1);
    expect(notifications.getSnapshot().context.items[0]?.id_notification).toBe(9);

    actor.send({ type: 'session.logout' });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('loggedOut'));
    expect(connection.closed).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().children.notifications).toBeUndefined();
    expect(actor.getSnapshot().children.realtime).toBeUndefined();
  });

  it("restores the theme: the login's styles at login, the defaults at logout and after a 401", async () => {
    const styles = { primary: 'rose', surface: 'zinc', preset: 'Lara' as const, menuMode: 'overlay' as const, darkTheme: true };
    const restoreTheme = vi.fn();
    const start = () =>
      createActor(
        createSessionMachine({
          api: fakeSessionApi({ login: vi.fn(async () => ({ ...loginData, system_styles: styles })) }),
          store: memoryStore(),
          navigate: vi.fn(),
          restoreTheme,
        }),
        { input: {} },
      ).start();

    const first = start();
    first.send(login);
    await waitFor(first, (s) => s.matches({ loggedIn: 'ready' }));
    expect(restoreTheme).toHaveBeenLastCalledWith({ styles, userType: 'COLLABORATOR' });
    first.send({ type: 'session.logout' });
    await waitFor(first, (s) => s.matches('loggedOut'));
    expect(restoreTheme).toHaveBeenLastCalledWith({ styles: null, userType: null });

    const second = start();
    second.send(login);
    await waitFor(second, (s) => s.matches({ loggedIn: 'ready' }));
    second.send({ type: 'session.apiError', error: apiError(401, 'No autenticado') });
    expect(restoreTheme).toHaveBeenLastCalledWith({ styles: null, userType: null });
  });
});

describe('session: live permissions (PermissionsChangedEvent)', () => {
  /** Labels of every menu link, flattened (what the side menu shows). */
  function menuLabels(snapshot: {
    context: { user: { permissions_names: Parameters<typeof buildMenuModel>[0] } | null; permissions: string[] };
  }) {
    const walk = (nodes: readonly MenuNode[]): string[] =>
      nodes.flatMap((n) => (n.kind === 'link' ? [n.label] : n.kind === 'group' ? [n.label, ...walk(n.children)] : []));
    return buildMenuModel(snapshot.context.user?.permissions_names ?? [], snapshot.context.permissions).flatMap((s) => walk(s.children));
  }

  const changed = (userId = sampleUser.id) => ({ user_id: userId, changed_at: '2026-11-22T15:00:00.000Z' });
  const crmPermissions = [MODULE.crm, SUBMODULE.clientes, SUBMODULE.leads];

  /** A restored staff session, live on the realtime connection (fake timers: the 5 s delay). */
  async function startLive(rolePermissions: SessionApi['rolePermissions'], dashboardChanged?: (payload: { cards: string[] }) => void) {
    vi.useFakeTimers();
    const store = memoryStore();
    seedSession(store);
    store.setItem('echo_info', JSON.stringify(realtime.echo_info));
    store.setItem('channels', JSON.stringify(realtime.channels));
    let push: ((e: RealtimeEvent) => void) | null = null;
    const api = fakeSessionApi({ rolePermissions });
    const machine = createSessionMachine({
      api,
      store,
      navigate: vi.fn(),
      log: vi.fn(),
      notificationsApi: fakeNotificationsApi(),
      ...(dashboardChanged ? { dashboardChanged } : {}),
      realtimeConnection: fromCallback<RealtimeEvent, RealtimeInput>(({ sendBack }) => {
        push = sendBack;
        return () => {};
      }),
    });
    const actor = createActor(machine, { input: readStoredSession(store) }).start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ loggedIn: { ready: 'current' } })).toBe(true));
    actor.getSnapshot().children.realtime!.send({ type: 'realtime.start' });
    vi.advanceTimersByTime(5000);
    expect(push).not.toBeNull();
    return { actor, api, store, push: (e: RealtimeEvent) => push!(e) };
  }

  afterEach(() => vi.useRealTimers());

  it('hands a DashboardChanged push to `dashboardChanged` (the listeners of Inicio), leaving the session as it was', async () => {
    const dashboardChanged = vi.fn();
    const { actor, api, push } = await startLive(
      vi.fn<SessionApi['rolePermissions']>(async () => permissions),
      dashboardChanged,
    );
    const before = actor.getSnapshot().value;
    push({ type: 'realtime.dashboardChanged', payload: { cards: ['sales', 'overdue'] } });
    expect(dashboardChanged).toHaveBeenCalledWith({ cards: ['sales', 'overdue'] });
    expect(actor.getSnapshot().value).toEqual(before);
    expect(api.rolePermissions).toHaveBeenCalledTimes(1);
  });

  it('refetches row 11, rebuilds the menu and stores accesos and user_details; realtime and notifications keep running', async () => {
    const rolePermissions = vi.fn<SessionApi['rolePermissions']>(async () => permissions);
    const { actor, api, store, push } = await startLive(rolePermissions);
    expect(menuLabels(actor.getSnapshot())).toEqual(['Dashboard', 'Configuración', 'Usuarios']);
    const realtimeBefore = actor.getSnapshot().children.realtime;
    const notificationsBefore = actor.getSnapshot().children.notifications;
    rolePermissions.mockResolvedValueOnce(crmPermissions);

    push({ type: 'realtime.permissionsChanged', payload: changed() });
    expect(actor.getSnapshot().matches({ loggedIn: { ready: 'refreshingPermissions' } })).toBe(true);
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ loggedIn: { ready: 'current' } })).toBe(true));

    expect(rolePermissions).toHaveBeenCalledTimes(2); // revalidation at start-up, then the refresh
    expect(api.roleNames).not.toHaveBeenCalled(); // row 10 lists every role: a permission change does not alter it
    const snap = actor.getSnapshot();
    expect(snap.context.permissions).toEqual(crmPermissions);
    expect(snap.context.user?.permissions_names.map((g) => g.nombre)).toEqual(['CRM']);
    expect(menuLabels(snap)).toEqual(['Dashboard', 'CRM', 'Clientes', 'Leads']);
    expect(readStorage('accesos', store)).toEqual(crmPermissions);
    expect(readStorage('user_details', store)?.permissions_names.map((g) => g.nombre)).toEqual(['CRM']);
    expect(snap.children.realtime).toBe(realtimeBefore);
    expect(snap.children.notifications).toBe(notificationsBefore);
  });

  it('ignores a payload for another user (a malformed one never reaches it: src/machines/realtime/realtime-events.ts)', async () => {
    const rolePermissions = vi.fn<SessionApi['rolePermissions']>(async () => permissions);
    const { actor, push } = await startLive(rolePermissions);
    push({ type: 'realtime.permissionsChanged', payload: changed(sampleUser.id + 1) });
    expect(actor.getSnapshot().matches({ loggedIn: { ready: 'current' } })).toBe(true);
    expect(rolePermissions).toHaveBeenCalledTimes(1);
    expect(isOwnPermissionsChange(changed(), null)).toBe(false);
    expect(isOwnPermissionsChange(changed(), sampleUser)).toBe(true);
  });

  it('a second event while refreshing restarts the refresh: the older answer is dropped', async () => {
    const answers: ((value: string[]) => void)[] = [];
    const rolePermissions = vi.fn<SessionApi['rolePermissions']>(async () => permissions);
    const { actor, push } = await startLive(rolePermissions);
    rolePermissions.mockImplementation(() => new Promise<string[]>((resolve) => answers.push(resolve)));
    push({ type: 'realtime.permissionsChanged', payload: changed() });
    push({ type: 'realtime.permissionsChanged', payload: changed() });
    expect(answers).toHaveLength(2);
    answers[0]!([MODULE.configuracion]); // stale: its actor was stopped
    answers[1]!(crmPermissions);
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ loggedIn: { ready: 'current' } })).toBe(true));
    await Promise.resolve();
    expect(actor.getSnapshot().context.permissions).toEqual(crmPermissions);
  });

  it('a 401 during the refresh goes through the global rule; another failure is logged and keeps the permissions', async () => {
    const rolePermissions = vi.fn<SessionApi['rolePermissions']>(async () => permissions);
    const first = await startLive(rolePermissions);
    rolePermissions.mockRejectedValueOnce(apiError(500, 'Error interno'));
    first.push({ type: 'realtime.permissionsChanged', payload: changed() });
    await vi.waitFor(() => expect(first.actor.getSnapshot().matches({ loggedIn: { ready: 'current' } })).toBe(true));
    expect(first.actor.getSnapshot().context.permissions).toEqual(permissions);

    current = first.actor;
    rolePermissions.mockImplementationOnce(() => failViaClient(apiError(401, 'No autenticado')));
    first.push({ type: 'realtime.permissionsChanged', payload: changed() });
    await vi.waitFor(() => expect(first.actor.getSnapshot().value).toBe('redirected'));
    expect(first.store.data.size).toBe(0);
  });
});

describe('readStoredSession: an unreadable stored session', () => {
  it.each([
    ['user_details', '{"id":"no es número"}'],
    ['user_details', 'no es JSON'],
    ['accesos', '{"no":"lista"}'],
  ])('with a malformed %s is logged and treated as expired (storage cleared, logged out)', (key, raw) => {
    const store = memoryStore();
    seedSession(store);
    store.setItem(key, raw);
    const log = vi.fn();
    expect(readStoredSession(store, log)).toEqual({});
    expect(log).toHaveBeenCalledWith(expect.stringContaining(key));
    expect(store.getItem('token')).toBeNull();
  });

  it('a token without user_details is not a session either', () => {
    const store = memoryStore();
    store.setItem('token', 'a'.repeat(64));
    const log = vi.fn();
    expect(readStoredSession(store, log)).toEqual({});
    expect(log).toHaveBeenCalledTimes(1);
  });

  it('a complete stored session reads back, with nothing logged', () => {
    const store = memoryStore();
    seedSession(store);
    const log = vi.fn();
    expect(readStoredSession(store, log).token).toBeTruthy();
    expect(log).not.toHaveBeenCalled();
  });
});

describe('hasPermissions', () => {
  it('needs every required permission; none required → true', () => {
    expect(hasPermissions(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(hasPermissions(['a'], ['a', 'b'])).toBe(false);
    expect(hasPermissions([], undefined)).toBe(true);
    expect(hasPermissions([], [])).toBe(true);
  });
});
