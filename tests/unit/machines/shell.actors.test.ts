/**
 * The shell's app-wide actors wired to their effects (issue "Shell"; src/machines/shell/shell.actors.ts
 * and the theme restore of src/machines/app-actors.ts): layout from the window and the stored menu
 * mode, theme applied/kept/saved, change-password through row 15 with toasts, menu search over the
 * user's submodules (following logout and live permission changes), and the theme following login
 * and logout.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { createShellActors, menuSearchItems } from '../../../src/machines/shell/shell.actors';
import { createSessionMachine } from '../../../src/machines/session/session.actors';
import { readStoredSession } from '../../../src/machines/session/stored-session';
import { createAppActors } from '../../../src/machines/app-actors';
import { INCOMPLETE_TOAST } from '../../../src/machines/change-password/change-password.machine';
import { SAVED_TOAST } from '../../../src/machines/theme/theme.machine';
import { readStorage } from '../../../src/lib/storage';
import { DEFAULT_STYLES, type StyleSettings } from '../../../src/schemas/session';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { fakeNotificationsApi, fakeSessionApi, loginData, memoryStore, sampleUser, seedSession } from '../support/fakes';

const dark: StyleSettings = { primary: 'indigo', surface: 'zinc', preset: 'Nora', menuMode: 'overlay', darkTheme: true };

function setup({ width = 1366, styles }: { width?: number; styles?: StyleSettings } = {}) {
  const store = memoryStore();
  seedSession(store);
  if (styles) store.setItem('system_styles', JSON.stringify(styles));
  const api = fakeSessionApi();
  const session = createActor(createSessionMachine({ api, store, navigate: vi.fn() }), { input: readStoredSession(store) }).start();
  const listeners: (() => void)[] = [];
  const win = { innerWidth: width, addEventListener: (_: string, l: () => void) => listeners.push(l) } as unknown as Window;
  const navigate = vi.fn();
  const toaster = { show: vi.fn() };
  const applyTheme = vi.fn();
  const actors = createShellActors({ session, sessionApi: api, store, navigate, toaster, win, applyTheme, log: vi.fn() });
  const resize = (w: number) => {
    (win as { innerWidth: number }).innerWidth = w;
    listeners.forEach((l) => l());
  };
  return { actors, session, store, api, navigate, toaster, applyTheme, resize };
}

describe('createShellActors', () => {
  it('layout: starts from the window width and the stored menu mode, and follows resizes', () => {
    const { actors, resize } = setup({ styles: dark });
    expect(actors.layout.getSnapshot().value).toEqual({ overlay: 'closed' });
    resize(800);
    expect(actors.layout.getSnapshot().value).toEqual({ mobile: 'closed' });
    expect(actors.layout.getSnapshot().context.width).toBe(800);
  });

  it('theme: applies the stored styles at once, keeps changes in system_styles and tells the layout', () => {
    const { actors, applyTheme, store } = setup({ styles: dark });
    expect(applyTheme).toHaveBeenCalledWith(dark);
    actors.theme.send({ type: 'theme.menuModeChosen', menuMode: 'static' });
    expect(readStorage('system_styles', store)).toEqual({ ...dark, menuMode: 'static' });
    expect(actors.layout.getSnapshot().value).toEqual({ static: 'open' });
  });

  it('theme: Guardar saves through row 8 and toasts "Estilos guardados"', async () => {
    const { actors, api, toaster } = setup();
    actors.theme.send({ type: 'theme.configuratorOpened' });
    actors.theme.send({ type: 'theme.primaryChosen', primary: 'rose' });
    actors.theme.send({ type: 'theme.saveRequested' });
    await waitFor(actors.theme, (s) => s.matches({ configurator: 'closed', persistence: 'idle' }));
    expect(api.storeStyles).toHaveBeenCalledWith({ ...DEFAULT_STYLES, primary: 'rose' });
    expect(toaster.show).toHaveBeenCalledWith(SAVED_TOAST);
  });

  it('theme: nothing is written to storage once the session is gone', () => {
    const { actors, store } = setup();
    store.clear();
    actors.theme.send({ type: 'theme.restored', styles: null, userType: null });
    expect(store.data.size).toBe(0);
  });

  it('change-password: row 15 with the current and new passwords; warnings go to the toaster', async () => {
    const { actors, api, toaster } = setup();
    actors.changePassword.send({ type: 'password.open' });
    actors.changePassword.send({ type: 'password.submit' });
    expect(toaster.show).toHaveBeenCalledWith(INCOMPLETE_TOAST);
    for (const [field, value] of [
      ['actual_password', 'Vieja#2025'],
      ['new_password', 'Nueva#2026'],
      ['confirmar_password', 'Nueva#2026'],
    ] as const) {
      actors.changePassword.send({ type: 'password.changed', field, value });
    }
    actors.changePassword.send({ type: 'password.submit' });
    await waitFor(actors.changePassword, (s) => s.matches('closed'));
    expect(api.changePassword).toHaveBeenCalledWith('Vieja#2025', 'Nueva#2026');
  });

  it('menu-search: the submodules of the signed-in user; picking one navigates', () => {
    const { actors, navigate } = setup();
    expect(actors.menuSearch.getSnapshot().context.items).toEqual(menuSearchItems(sampleUser));
    actors.menuSearch.send({ type: 'search.picked', item: sampleUser.permissions_names[0]!.items[0]! });
    expect(navigate).toHaveBeenCalledWith('/Configuracion/Usuarios');
  });

  it('menu-search: follows the session user (empty after logout)', async () => {
    const { actors, session } = setup();
    session.send({ type: 'session.logout' });
    await waitFor(session, (s) => s.matches('loggedOut'));
    expect(actors.menuSearch.getSnapshot().context.items).toEqual([]);
  });

  it('menu-search: follows a live permission change (PermissionsChangedEvent)', async () => {
    const { actors, session, api } = setup();
    await waitFor(session, (s) => s.matches({ loggedIn: { ready: 'current' } }));
    vi.mocked(api.rolePermissions).mockResolvedValueOnce([MODULE.crm, SUBMODULE.clientes]);
    session.send({ type: 'session.permissionsChanged', payload: { user_id: sampleUser.id, changed_at: '2026-11-22T15:00:00.000Z' } });
    await waitFor(session, (s) => s.matches({ loggedIn: { ready: 'current' } }));
    expect(actors.menuSearch.getSnapshot().context.items.map((i) => i.nombre)).toEqual(['Clientes']);
  });
});

describe('menuSearchItems', () => {
  it('flattens permissions_names once per route, in menu order', () => {
    const items = menuSearchItems({
      ...sampleUser,
      permissions_names: [
        {
          nombre: 'A',
          icono: 'cog',
          items: [
            { nombre: 'Uno', ruta: '/a/Uno', icono: 'cog' },
            { nombre: 'Dos', ruta: '/a/dos', icono: 'cog' },
          ],
        },
        { nombre: 'B', icono: 'cog', items: [{ nombre: 'Uno otra vez', ruta: '/A/uno', icono: 'cog' }] },
      ],
    });
    expect(items.map((i) => i.nombre)).toEqual(['Uno', 'Dos']);
    expect(menuSearchItems(null)).toEqual([]);
  });
});

describe('theme follows the session (app-actors)', () => {
  it("login restores the login's system_styles; logout restores the defaults without writing storage", async () => {
    const store = memoryStore();
    const api = fakeSessionApi({ login: vi.fn(async () => ({ ...loginData, system_styles: dark })) });
    const { session, machines } = createAppActors({
      sessionApi: api,
      notificationsApi: fakeNotificationsApi(),
      store,
      storedSession: readStoredSession(store),
      navigate: vi.fn(),
      toaster: { show: vi.fn() },
      win: null,
      log: vi.fn(),
    });
    const shell = await machines.shell();
    expect(shell.theme.getSnapshot().context.styles).toEqual(DEFAULT_STYLES);

    session.send({ type: 'session.login', user: '45678912', password: 'x', user_type: 'COLLABORATOR' });
    await waitFor(session, (s) => s.matches({ loggedIn: 'ready' }));
    await vi.waitFor(() => expect(shell.theme.getSnapshot().context.styles).toEqual(dark));
    expect(shell.theme.getSnapshot().context.userType).toBe('COLLABORATOR');
    expect(shell.layout.getSnapshot().value).toEqual({ overlay: 'closed' });

    session.send({ type: 'session.logout' });
    await waitFor(session, (s) => s.matches('loggedOut'));
    await vi.waitFor(() => expect(shell.theme.getSnapshot().context.styles).toEqual(DEFAULT_STYLES));
    expect(store.data.size).toBe(0);
    document.documentElement.removeAttribute('style');
    document.documentElement.classList.remove('app-dark');
    document.body.classList.remove('bp6-dark');
  });
});
