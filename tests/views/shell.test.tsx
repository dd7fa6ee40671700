/**
 * The shell's views (issue "Shell"; docs/product.md §2 side menu, top bar, notifications panel, change-password
 * dialog, theme configurator, layout; §4; §5; §8; §9) rendered with the real machines over fake
 * effects (tests/views/shell-harness.tsx): what the user sees and which events the views send.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeTimerUser, renderShell, resetDocumentTheme, restoreRealTimers, useFakeTimersWithTestingLibrary } from './shell-harness';
import { renderApp } from './render-app';
import { TopBar } from '../../src/views/shell/TopBar';
import { ProfileSidebar } from '../../src/views/shell/ProfileSidebar';
import { NotificationsPanel } from '../../src/views/shell/NotificationsPanel';
import { ChangePasswordDialog } from '../../src/views/shell/ChangePasswordDialog';
import { ThemeConfigurator } from '../../src/views/shell/ThemeConfigurator';
import { AppLayout } from '../../src/views/shell/AppLayout';
import { MenuTree, SideMenu } from '../../src/views/shell/SideMenu';
import type { MenuSection } from '../../src/views/shell/menu-model';
import { INCOMPLETE_TOAST, MISMATCH_TOAST } from '../../src/machines/change-password/change-password.machine';
import { SAVED_TOAST } from '../../src/machines/theme/theme.machine';
import { buildPermissionsNames } from '../../src/schemas/menu-catalogue';
import { STAFF_PERMISSIONS } from '../../src/schemas/permissions';
import { DEFAULT_STYLES } from '../../src/schemas/session';
import {
  apiError,
  fakeNotificationsApi,
  fakeSessionApi,
  memoryStore,
  sampleNotification,
  sampleUser,
  seedSession,
} from '../unit/support/fakes';

afterEach(() => {
  restoreRealTimers();
  resetDocumentTheme();
});

const twoUnread = () =>
  fakeNotificationsApi({
    notification_quantity: 2,
    notification: [
      sampleNotification({ id_notification: 2, title: 'Pago registrado' }),
      sampleNotification({ id_notification: 1, title: 'Contraseña actualizada', new: false, route: null }),
    ],
  });

const admin = { ...sampleUser, permissions_names: buildPermissionsNames(STAFF_PERMISSIONS) };

describe('top bar (docs/product.md §2, §4)', () => {
  it('shows the unread count on the bell, which rings while unread exist; opening marks them seen', async () => {
    const notificationsApi = twoUnread();
    const { user } = await renderShell(<TopBar sidebarId="s" />, { notificationsApi });
    const bell = screen.getByRole('button', { name: /^Notificaciones/ });
    await waitFor(() => expect(screen.getByTestId('notifications-badge').textContent).toBe('2'));
    expect(bell.className).toContain('has-unread');
    // The name contains the badge's visible count (docs/decisions.md "Accessible names and ARIA references").
    expect(screen.getByRole('button', { name: 'Notificaciones: 2 sin leer' })).toBe(bell);

    await user.click(bell);
    expect(await screen.findByRole('dialog', { name: 'Notificaciones' })).toBeTruthy();
    expect(notificationsApi.markSeen).toHaveBeenCalledWith([2, 1]);
    expect(screen.queryByTestId('notifications-badge')).toBeNull();
    expect(bell.className).not.toContain('has-unread');
    expect(screen.getByRole('button', { name: 'Notificaciones' })).toBe(bell);
  });

  it('no badge and no animation without unread notifications', async () => {
    await renderShell(<TopBar sidebarId="s" />);
    const bell = screen.getByRole('button', { name: 'Notificaciones' });
    expect(screen.queryByTestId('notifications-badge')).toBeNull();
    expect(bell.className).not.toContain('has-unread');
  });

  it('the user name opens the profile sidebar (name, roles, document, e-mail, active location), which closes on Cerrar and logs out', async () => {
    const { services, user, actors } = await renderShell(
      <>
        <TopBar sidebarId="s" />
        <ProfileSidebar />
      </>,
    );
    const button = screen.getByRole('button', { name: 'Opciones de usuario: Lucía Quispe Mamani' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    await user.click(button);
    const sidebar = await screen.findByRole('dialog', { name: 'Mi perfil' });
    expect(actors.layout.getSnapshot().context.profileOpen).toBe(true);
    expect(within(sidebar).getByText('Lucía Quispe Mamani')).toBeTruthy();
    expect(within(sidebar).getByText(sampleUser.dni)).toBeTruthy();
    expect(within(sidebar).getByText(sampleUser.email)).toBeTruthy();
    expect(within(sidebar).getByText(sampleUser.roles.join(', '))).toBeTruthy();
    expect(within(sidebar).getByRole('button', { name: 'Cambiar contraseña' })).toBeTruthy();
    await user.click(within(sidebar).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(actors.layout.getSnapshot().context.profileOpen).toBe(false));
    await user.click(button);
    await user.click(within(await screen.findByRole('dialog', { name: 'Mi perfil' })).getByRole('button', { name: 'Cerrar sesión' }));
    await waitFor(() => expect(services.session.getSnapshot().matches('loggedOut')).toBe(true));
  });

  it('the menu toggle and the logo', async () => {
    const { actors, user } = await renderShell(<TopBar sidebarId="s" />);
    expect(screen.getByRole('link', { name: 'Parcela, ir al inicio' }).getAttribute('href')).toBe('/');
    const toggle = screen.getByRole('button', { name: 'Menú' });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    await user.click(toggle);
    expect(actors.layout.getSnapshot().value).toEqual({ static: 'closed' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('the dark/light toggle applies app-dark (and bp6-dark) and saves the styles (staff)', async () => {
    const { api, user } = await renderShell(<TopBar sidebarId="s" />);
    const toggle = screen.getByRole('button', { name: 'Modo oscuro' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    await user.click(toggle);
    expect(document.documentElement.classList.contains('app-dark')).toBe(true);
    expect(document.body.classList.contains('bp6-dark')).toBe(true);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => expect(api.storeStyles).toHaveBeenCalledWith({ ...DEFAULT_STYLES, darkTheme: true }));
  });

  it('starts the realtime connection 5 s after it appears; a push raises the count', async () => {
    const { realtime } = await renderShell(<TopBar sidebarId="s" />, {
      beforeRender: () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }),
    });
    act(() => vi.advanceTimersByTime(4999));
    expect(realtime.opened).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(realtime.opened).toHaveBeenCalledWith(expect.objectContaining({ userType: 'COLLABORATOR', token: expect.any(String) }));
    act(() =>
      realtime.push!({
        type: 'realtime.pushed',
        payload: {
          tipo_operacion: 'NEW_NOTIFICATION',
          message: { ids_users: [sampleUser.id], notification: sampleNotification({ id_notification: 5 }) },
        },
      }),
    );
    expect(screen.getByTestId('notifications-badge').textContent).toBe('1');
    expect(screen.getByRole('button', { name: 'Notificaciones: 1 sin leer' }).className).toContain('has-unread');
  });
});

describe('notifications dialog (docs/product.md §2, §3)', () => {
  it('sanitises the detail with DOMPurify before rendering it', async () => {
    const notificationsApi = fakeNotificationsApi({
      notification_quantity: 1,
      notification: [
        sampleNotification({
          detail: '<p>Hola <b>equipo</b></p><script>window.hacked = true</script><img src="x" onerror="window.hacked = true">',
        }),
      ],
    });
    const { container } = await renderShell(<NotificationsPanel />, { notificationsApi });
    const detail = await waitFor(() => {
      const node = container.querySelector('.notification-detail');
      expect(node).not.toBeNull();
      return node!;
    });
    expect(detail.textContent).toBe('Hola equipo');
    expect(detail.querySelector('script')).toBeNull();
    expect(detail.querySelector('img')?.getAttribute('onerror')).toBeNull();
    expect(detail.innerHTML).not.toMatch(/onerror|<script/);
  });

  it('says "Aún no hay notificaciones" when empty', async () => {
    await renderShell(<NotificationsPanel />);
    expect(screen.getByRole('dialog', { name: 'Notificaciones' })).toBeTruthy();
    expect(screen.getByText('Aún no hay notificaciones')).toBeTruthy();
  });

  it('shows the type icon colour, title and the relative time, with its fallbacks', async () => {
    const fiveMinutesAgo = new Date(Date.now() - 5 * 60_000).toISOString();
    const notificationsApi = fakeNotificationsApi({
      notification_quantity: 1,
      notification: [
        sampleNotification({ id_notification: 3, title: 'Reciente', fecha_creacion: fiveMinutesAgo }),
        sampleNotification({ id_notification: 2, title: 'Sin fecha', fecha_creacion: '', new: false }),
        sampleNotification({ id_notification: 1, title: 'Fecha rota', fecha_creacion: 'ayer por la tarde', new: false }),
      ],
    });
    const { container } = await renderShell(<NotificationsPanel />, { notificationsApi });
    await screen.findByText('Reciente');
    expect(screen.getByText('hace 5 minutos')).toBeTruthy();
    expect(screen.getByText('Fecha no disponible')).toBeTruthy();
    expect(screen.getByText('Fecha inválida')).toBeTruthy();
    const items = container.querySelectorAll<HTMLElement>('.notification-item');
    expect(items[0]!.className).toContain('is-filled');
    expect(items[1]!.className).toContain('is-outlined');
    expect(items[0]!.style.getPropertyValue('--notification-color')).toBe('#3b82f6');
  });

  it('a notification with a route navigates there and closes the dialog; outside clicks close it', async () => {
    const { user, path, notifications } = await renderShell(
      <>
        <TopBar sidebarId="s" />
        <p>fuera</p>
      </>,
      { notificationsApi: twoUnread() },
    );
    await waitFor(() => expect(screen.getByTestId('notifications-badge')).toBeTruthy());
    const bell = screen.getByRole('button', { name: 'Notificaciones: 2 sin leer' });

    await user.click(bell);
    await screen.findByRole('dialog', { name: 'Notificaciones' });
    await user.click(screen.getByText('fuera'));
    await waitFor(() => expect(notifications().getSnapshot().matches({ dialog: 'closed' })).toBe(true));

    await user.click(bell);
    const dialog = await screen.findByRole('dialog', { name: 'Notificaciones' });
    // The one without a route is not clickable.
    expect(within(dialog).getAllByRole('button')).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: /Pago registrado/ }));
    await waitFor(() => expect(path()).toBe('/Crm/Clientes'));
    expect(notifications().getSnapshot().matches({ dialog: 'closed' })).toBe(true);
  });
});

describe('change-password dialog (docs/product.md §2, §5, §8)', () => {
  async function openDialog(api = fakeSessionApi()) {
    const harness = await renderShell(
      <>
        <TopBar sidebarId="s" />
        <ProfileSidebar />
        <ChangePasswordDialog />
      </>,
      { api },
    );
    await harness.user.click(screen.getByRole('button', { name: /Opciones de usuario/ }));
    await harness.user.click(
      within(await screen.findByRole('dialog', { name: 'Mi perfil' })).getByRole('button', { name: 'Cambiar contraseña' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'CAMBIAR CONTRASEÑA' });
    return { ...harness, dialog };
  }

  /**
   * Sets a field's whole value in one change event. Typing key by key loses keys on a loaded
   * machine while Blueprint's overlay is still moving focus into the opening dialog.
   */
  function fill(dialog: HTMLElement, label: string, value: string) {
    fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });
  }

  it('shows the exact warnings: empty fields, then different new passwords', async () => {
    const { user, toaster, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Cambiar' }));
    expect(toaster.show).toHaveBeenLastCalledWith({
      severity: 'warn',
      summary: 'DATOS INCOMPLETOS',
      detail: 'Rellene todos los campos para continuar',
      life: 3000,
    });
    expect(INCOMPLETE_TOAST.summary).toBe('DATOS INCOMPLETOS');
    fill(dialog, 'Contraseña Actual', 'Vieja#2025');
    fill(dialog, 'Nueva Contraseña', 'Nueva#2026');
    fill(dialog, 'Confirme la nueva contraseña', 'Otra#2026');
    await user.click(within(dialog).getByRole('button', { name: 'Cambiar' }));
    expect(toaster.show).toHaveBeenLastCalledWith({
      severity: 'warn',
      summary: 'CONTRASEÑAS DISTINTAS',
      detail: 'Los campos de la nueva contraseña debe de ser iguales',
      life: 3000,
    });
    expect(MISMATCH_TOAST.summary).toBe('CONTRASEÑAS DISTINTAS');
  });

  it('masks the three fields and rates the new password: Ingrese una contraseña, Débil, Medio, Fuerte', async () => {
    const { dialog } = await openDialog();
    for (const label of ['Contraseña Actual', 'Nueva Contraseña', 'Confirme la nueva contraseña']) {
      expect(within(dialog).getByLabelText(label).getAttribute('type')).toBe('password');
    }
    expect(within(dialog).getByText('Ingrese una contraseña')).toBeTruthy();
    fill(dialog, 'Nueva Contraseña', 'abc');
    expect(within(dialog).getByText('Débil')).toBeTruthy();
    fill(dialog, 'Nueva Contraseña', 'abc123');
    expect(within(dialog).getByText('Medio')).toBeTruthy();
    fill(dialog, 'Nueva Contraseña', 'abc123XY');
    expect(within(dialog).getByText('Fuerte')).toBeTruthy();
  });

  it('"Cambiar" loads while row 15 runs; success closes; a failure toasts "DESCRIPCIÓN" with the server message', async () => {
    let fail!: (error: unknown) => void;
    const api = fakeSessionApi({
      changePassword: vi.fn(() => new Promise<{ message: string }>((_, reject) => (fail = reject))),
    });
    const { user, toaster, dialog } = await openDialog(api);
    fill(dialog, 'Contraseña Actual', 'Vieja#2025');
    fill(dialog, 'Nueva Contraseña', 'Nueva#2026');
    fill(dialog, 'Confirme la nueva contraseña', 'Nueva#2026');
    await user.click(within(dialog).getByRole('button', { name: 'Cambiar' }));
    await waitFor(() => expect(api.changePassword).toHaveBeenCalledWith('Vieja#2025', 'Nueva#2026'));
    await waitFor(() => expect(dialog.querySelector('button[type="submit"]')!.className).toContain('bp6-loading'));
    expect(within(dialog).getByRole('button', { name: 'Cancelar' }).hasAttribute('disabled')).toBe(true);
    await act(async () => fail(apiError(422, 'La contraseña actual no es correcta')));
    expect(toaster.show).toHaveBeenLastCalledWith({
      severity: 'error',
      summary: 'DESCRIPCIÓN',
      detail: 'La contraseña actual no es correcta',
      life: 3000,
    });
    expect(screen.getByRole('dialog', { name: 'CAMBIAR CONTRASEÑA' })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'CAMBIAR CONTRASEÑA' })).toBeNull());
  });
});

describe('theme configurator (docs/product.md §2, §8)', () => {
  it('offers 17 primaries (noir first), 8 surfaces, the presets and the menu modes; each choice applies at once', async () => {
    const { user, actors } = await renderShell(
      <>
        <TopBar sidebarId="s" />
        <ThemeConfigurator />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Configuración del tema' }));
    const drawer = await screen.findByRole('dialog', { name: 'Configuración del tema' });
    const primaries = within(within(drawer).getByRole('group', { name: 'Color primario' })).getAllByRole('button');
    // Spanish names (docs/decisions.md "Accessible names and ARIA references"), in the order of docs/product.md §2.
    expect(primaries.map((b) => b.getAttribute('aria-label'))).toEqual([
      'Negro',
      'Esmeralda',
      'Verde',
      'Lima',
      'Naranja',
      'Ámbar',
      'Amarillo',
      'Verde azulado',
      'Cian',
      'Celeste',
      'Azul',
      'Índigo',
      'Violeta',
      'Púrpura',
      'Fucsia',
      'Rosa',
      'Rosa rojizo',
    ]);
    expect(primaries.map((b) => b.getAttribute('title'))).toEqual(primaries.map((b) => b.getAttribute('aria-label')));
    expect(within(within(drawer).getByRole('group', { name: 'Superficie' })).getAllByRole('button')).toHaveLength(8);
    expect(within(drawer).getByRole('button', { name: 'Esmeralda' }).getAttribute('aria-pressed')).toBe('true');

    await user.click(within(drawer).getByRole('button', { name: 'Índigo' }));
    expect(actors.theme.getSnapshot().context.styles.primary).toBe('indigo');
    // Indigo 600: the shade white text reads on at 4.5:1 (docs/decisions.md "Colour contrast (WCAG 2.2 AA)").
    expect(document.documentElement.style.getPropertyValue('--p-primary-color')).toBe('#4f46e5');
    await user.click(within(drawer).getByRole('button', { name: 'Océano' }));
    expect(actors.theme.getSnapshot().context.styles.surface).toBe('ocean');
    expect(within(drawer).getByRole('radiogroup', { name: 'Estilo' })).toBeTruthy();
    await user.click(within(drawer).getByRole('radio', { name: 'Nora' }));
    expect(actors.theme.getSnapshot().context.styles.preset).toBe('Nora');
    expect(document.documentElement.style.getPropertyValue('--p-transition-duration')).toBe('0s');
    await user.click(within(drawer).getByRole('radio', { name: 'Sobreponer' }));
    expect(actors.layout.getSnapshot().value).toEqual({ overlay: 'closed' });
    expect(within(drawer).getByRole('radio', { name: 'Fijo' }).getAttribute('aria-checked')).toBe('false');
  });

  it('"Guardar" saves (row 8), toasts "Estilos guardados" and closes', async () => {
    const { user, api, toaster } = await renderShell(
      <>
        <TopBar sidebarId="s" />
        <ThemeConfigurator />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Configuración del tema' }));
    const drawer = await screen.findByRole('dialog', { name: 'Configuración del tema' });
    await user.click(within(drawer).getByRole('button', { name: 'Rosa rojizo' }));
    await user.click(within(drawer).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(toaster.show).toHaveBeenCalledWith(SAVED_TOAST));
    expect(api.storeStyles).toHaveBeenCalledWith({ ...DEFAULT_STYLES, primary: 'rose' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Configuración del tema' })).toBeNull());
  });
});

describe('layout (docs/product.md §2 "Layout"; docs/product.md §2)', () => {
  const wrapper = (container: HTMLElement) => container.querySelector('.layout-wrapper')!;

  it('static on desktop: the toggle collapses and restores the menu; no mask', async () => {
    const { container, user } = await renderShell(<AppLayout>contenido</AppLayout>);
    expect(wrapper(container).className).toBe('layout-wrapper layout-static');
    expect(screen.getByRole('complementary', { name: 'Menú lateral' }).hasAttribute('inert')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Menú' }));
    expect(wrapper(container).className).toBe('layout-wrapper layout-static layout-static-inactive');
    expect(container.querySelector('.layout-mask')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Menú' }));
    expect(wrapper(container).className).toBe('layout-wrapper layout-static');
  });

  it('overlay ("Sobreponer"): the toggle slides the menu in over a mask; a mask click closes it', async () => {
    const { container, user } = await renderShell(<AppLayout>contenido</AppLayout>, { styles: { ...DEFAULT_STYLES, menuMode: 'overlay' } });
    expect(wrapper(container).className).toBe('layout-wrapper layout-overlay');
    expect(screen.getByRole('complementary', { name: 'Menú lateral', hidden: true }).hasAttribute('inert')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Menú' }));
    expect(wrapper(container).className).toBe('layout-wrapper layout-overlay layout-overlay-active');
    await user.click(screen.getByTestId('layout-mask'));
    expect(wrapper(container).className).toBe('layout-wrapper layout-overlay');
    expect(screen.queryByTestId('layout-mask')).toBeNull();
  });

  it('mobile (≤ 991 px): the toggle opens the menu; choosing a link closes it; resizes switch modes', async () => {
    const { container, user, resize } = await renderShell(<AppLayout>contenido</AppLayout>, { width: 390 });
    expect(wrapper(container).className).toBe('layout-wrapper layout-mobile');
    await user.click(screen.getByRole('button', { name: 'Menú' }));
    expect(wrapper(container).className).toBe('layout-wrapper layout-mobile layout-mobile-active');
    await user.click(screen.getByRole('link', { name: 'Dashboard' }));
    expect(wrapper(container).className).toBe('layout-wrapper layout-mobile');
    act(() => resize(1280));
    expect(wrapper(container).className).toBe('layout-wrapper layout-static');
  });

  it('Escape closes a sliding menu', async () => {
    const { container, user } = await renderShell(<AppLayout>contenido</AppLayout>, { width: 390 });
    await user.click(screen.getByRole('button', { name: 'Menú' }));
    await user.keyboard('{Escape}');
    expect(wrapper(container).className).toBe('layout-wrapper layout-mobile');
  });

  it('the footer: company label, developer credit and v0.6.0a', async () => {
    await renderShell(<AppLayout>contenido</AppLayout>);
    const footer = screen.getByRole('contentinfo');
    expect(footer.textContent).toBe('Parcela·Desarrollado por el equipo Parcela·v0.6.0a');
  });
});

describe('side menu (docs/product.md §2 "Side menu", §6)', () => {
  it('shows the sections and only the groups the user may open', async () => {
    const perms = ['Acceso módulo finanzas', 'Acceso submódulo pagos', 'Acceso módulo reportes'];
    await renderShell(<SideMenu />, { user: { ...sampleUser, permissions_names: buildPermissionsNames(perms) }, perms });
    const nav = screen.getByRole('navigation', { name: 'Menú principal' });
    expect(within(nav).getByText('INICIO')).toBeTruthy();
    expect(within(nav).getByText('MENÚ')).toBeTruthy();
    expect(within(nav).getByText('ANALÍTICAS Y AUDITORÍAS')).toBeTruthy();
    expect(
      within(nav)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Finanzas']);
    expect(within(nav).getByRole('link', { name: 'Reportes' }).getAttribute('href')).toBe('/Reportes');
    await userEvent.setup().click(within(nav).getByRole('button', { name: 'Finanzas' }));
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Dashboard', 'Pagos', 'Registro de Cuotas', 'Reportes']);
  });

  it('highlights exactly one item by the current path (any capitalisation) and opens its group', async () => {
    const { actors } = await renderShell(<SideMenu />, { user: admin, perms: [...STAFF_PERMISSIONS], path: '/FINANZAS/RegistroCuotas' });
    const current = await screen.findAllByRole('link', { current: 'page' });
    expect(current.map((a) => a.textContent)).toEqual(['Registro de Cuotas']);
    expect(screen.getByRole('button', { name: 'Finanzas' }).getAttribute('aria-expanded')).toBe('true');
    expect(actors.layout.getSnapshot().context.openGroups).toEqual(['1-2']);
  });

  it('clicking a group toggles it; clicking a link makes it the active one', async () => {
    const { user, path } = await renderShell(<SideMenu />, { user: admin, perms: [...STAFF_PERMISSIONS] });
    const crm = screen.getByRole('button', { name: 'CRM' });
    expect(crm.getAttribute('aria-expanded')).toBe('false');
    await user.click(crm);
    expect(crm.getAttribute('aria-expanded')).toBe('true');
    await user.click(screen.getByRole('link', { name: 'Leads' }));
    expect(path()).toBe('/Crm/Leads');
    expect(screen.getAllByRole('link', { current: 'page' }).map((a) => a.textContent)).toEqual(['Leads']);
    await user.click(crm);
    expect(crm.getAttribute('aria-expanded')).toBe('false');
  });

  it('the search box filters 250 ms after typing, shows "No se encontraron resultados", and Enter on a pick navigates and clears', async () => {
    const { path } = await renderShell(<SideMenu />, {
      user: admin,
      perms: [...STAFF_PERMISSIONS],
      beforeRender: useFakeTimersWithTestingLibrary,
    });
    const user = fakeTimerUser();
    const box = screen.getByRole('combobox', { name: 'Buscar en el menú' });
    await user.click(box);
    expect(screen.getAllByRole('option').length).toBeGreaterThan(20);
    await user.type(box, 'clien');
    act(() => vi.advanceTimersByTime(249));
    expect(screen.getAllByRole('option').length).toBeGreaterThan(20);
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Clientes']);

    await user.clear(box);
    await user.type(box, 'zzz');
    act(() => vi.advanceTimersByTime(250));
    expect(screen.getByText('No se encontraron resultados')).toBeTruthy();

    await user.clear(box);
    await user.type(box, 'cuotas');
    act(() => vi.advanceTimersByTime(250));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Registro de Cuotas']);
    await user.keyboard('{Enter}');
    expect(path()).toBe('/Finanzas/RegistroCuotas');
    expect((box as HTMLInputElement).value).toBe('');
  });

  it('Enter within the 250 ms acts on what is typed now: "banc" + Enter opens Bancos, not the first unfiltered item', async () => {
    const { path } = await renderShell(<SideMenu />, {
      user: admin,
      perms: [...STAFF_PERMISSIONS],
      beforeRender: useFakeTimersWithTestingLibrary,
    });
    const user = fakeTimerUser();
    const box = screen.getByRole('combobox', { name: 'Buscar en el menú' });
    await user.click(box);
    await user.type(box, 'banc');
    expect(screen.getAllByRole('option').length).toBeGreaterThan(20); // still the unfiltered list
    await user.keyboard('{Enter}');
    expect(path()).toBe('/Finanzas/Bancos');
  });

  it('says "No hay opciones disponibles" when the user has no submodule at all', async () => {
    await renderShell(<SideMenu />, { user: { ...sampleUser, permissions_names: [] }, perms: [] });
    const box = screen.getByRole('combobox', { name: 'Buscar en el menú' });
    await userEvent.click(box);
    expect(await screen.findByText('No hay opciones disponibles')).toBeTruthy();
    expect(screen.queryByText('No se encontraron resultados')).toBeNull();
  });
});

describe('menu tree entries (docs/product.md §2: separators, disabled, hidden, commands)', () => {
  const sections: MenuSection[] = [
    {
      key: '0',
      label: 'CUENTA',
      children: [
        { kind: 'link', key: '0-0', label: 'Perfil', icon: 'user', to: '/perfil', disabled: true },
        { kind: 'link', key: '0-1', label: 'Secreto', to: '/secreto', hidden: true },
        { kind: 'separator', key: '0-2' },
        { kind: 'command', key: '0-3', label: 'Cambiar mi contraseña', icon: 'key', command: 'changePassword' },
        { kind: 'command', key: '0-4', label: 'Salir', icon: 'log-out', command: 'logout', disabled: true },
      ],
    },
  ];

  it('renders separators as dividers, disabled entries as such, leaves hidden ones out and runs commands', async () => {
    const { user, actors } = await renderShell(<MenuTree sections={sections} activeKey={null} />);
    // The divider is hidden from assistive technology: a list holds only list items (docs/decisions.md
    // "Accessible names and ARIA references").
    const divider = document.querySelector('li.menu-separator')!;
    expect(divider.getAttribute('aria-hidden')).toBe('true');
    expect(divider.hasAttribute('role')).toBe(false);
    expect(screen.getByText('Perfil').closest('[aria-disabled="true"]')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Perfil' })).toBeNull();
    expect(screen.queryByText('Secreto')).toBeNull();
    expect(screen.getByRole('button', { name: 'Salir' }).hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Cambiar mi contraseña' }));
    expect(actors.changePassword.getSnapshot().matches('open')).toBe(true);
  });
});

describe('the authenticated area', () => {
  it('renders the layout around the screen and the loading overlay while session data loads', async () => {
    const store = memoryStore();
    seedSession(store);
    renderApp('/', { store });
    expect(await screen.findByRole('navigation', { name: 'Menú principal' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Notificaciones' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Hola, Lucía' })).toBeTruthy();
  });

  it('the full-screen loading overlay covers the login while the session data loads', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const api = fakeSessionApi({ activeLocals: vi.fn(async () => (await gate, [])) });
    const { user } = renderApp('/auth/login', { api });
    await user.type(screen.getByLabelText('DNI o correo electrónico'), '45678912');
    await user.type(screen.getByLabelText('Contraseña'), 'secreto123');
    await user.click(screen.getByRole('button', { name: 'Ingresar' }));
    const overlay = await screen.findByRole('progressbar', { name: 'Cargando' });
    expect(overlay.className).toContain('loading-overlay-full');
    release();
    await waitFor(() => expect(screen.queryByRole('progressbar', { name: 'Cargando' })).toBeNull());
  });
});
