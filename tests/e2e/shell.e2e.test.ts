/**
 * E2E of the shell issue in real Chromium against the built app and the real server (temp database,
 * demo seed): the menu follows permissions, the shortcut search navigates, a notification sent
 * through the server reaches an open page over the Pusher protocol within 7 s of page load and
 * opening the panel marks it seen on the server, the change-password dialog's messages and a
 * sign-in with the new password, the theme surviving logout/login, dark mode, and the 390 px
 * overlay menu. Screenshots go to test-results/e2e/.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { animationsSettled, e2eEnvironment, mainMenu, newPage, screenshot, staffLogin } from './harness';

const env = e2eEnvironment();

const menu = mainMenu;

async function logout(page: Page) {
  await page.getByRole('button', { name: /^Opciones de usuario/ }).click();
  await page.getByRole('dialog', { name: 'Mi perfil' }).getByRole('button', { name: 'Cerrar sesión' }).click();
  await page.waitForURL(/\/auth\/login$/);
}

describe('shell e2e', () => {
  it('the menu follows permissions: the admin and the asesor see different groups', async () => {
    const { context, page } = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    for (const group of ['Configuración', 'Administración', 'Finanzas', 'CRM', 'Proyectos', 'Comercial', 'Ingeniería']) {
      await menu(page).getByRole('button', { name: group }).waitFor();
    }
    await menu(page).getByRole('link', { name: 'Historial de Cambios' }).waitFor();
    // Groups do not pile up (docs/product.md §2): opening Administración closes Configuración; going from
    // Usuarios to Bancos leaves only Finanzas open.
    const expanded = (group: string) => menu(page).getByRole('button', { name: group }).getAttribute('aria-expanded');
    await menu(page).getByRole('button', { name: 'Configuración' }).click();
    await expect.poll(() => expanded('Configuración')).toBe('true');
    await menu(page).getByRole('button', { name: 'Administración' }).click();
    await expect.poll(() => expanded('Administración')).toBe('true');
    await expect.poll(() => expanded('Configuración')).toBe('false');
    await page.goto('/CONFIGURACION/usuarios');
    await expect.poll(() => expanded('Configuración')).toBe('true');
    await menu(page).getByRole('button', { name: 'Finanzas' }).click();
    await menu(page).getByRole('link', { name: 'Bancos' }).click();
    await page.waitForURL(/\/Finanzas\/Bancos$/i);
    await expect.poll(() => expanded('Finanzas')).toBe('true');
    await expect.poll(() => expanded('Configuración')).toBe('false');
    await expect.poll(() => expanded('Administración')).toBe('false');
    await screenshot(page, 'shell-admin-menu');
    await logout(page);

    await staffLogin(page, env.server.baseUrl, '70000002', 'Parcela#2026');
    await menu(page).getByRole('button', { name: 'CRM' }).waitFor();
    expect(await menu(page).getByRole('button', { name: 'Configuración' }).count()).toBe(0);
    expect(await menu(page).getByRole('link', { name: 'Historial de Cambios' }).count()).toBe(0);
    await screenshot(page, 'shell-asesor-menu');
    await context.close();
  });

  it('the shortcut search navigates to the picked submodule and clears the box', async () => {
    const { context, page } = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    const search = page.getByRole('combobox', { name: 'Buscar en el menú' });
    await search.fill('lotiz');
    await page.getByRole('option', { name: 'Lotizaciones' }).click();
    await page.waitForURL(/\/Proyectos\/Lotizaciones$/i);
    await expect.poll(() => page.title()).toBe('Lotizaciones | Parcela');
    await expect.poll(() => search.inputValue()).toBe('');
    await expect.poll(() => menu(page).getByRole('link', { name: 'Lotizaciones' }).getAttribute('aria-current')).toBe('page');

    // Typing and pressing Enter at once (within the 250 ms debounce) opens the match of what was
    // typed, not the first item of the unfiltered list (Usuarios).
    await search.click();
    await search.pressSequentially('banc');
    await search.press('Enter');
    await page.waitForURL(/\/Finanzas\/Bancos$/i);
    await context.close();
  });

  it('a notification sent through the server appears within 7 s of page load, and opening the panel marks it seen', async () => {
    const { context, page } = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    const subscribed = new Promise<void>((resolve) => {
      page.on('websocket', (ws) =>
        ws.on('framereceived', ({ payload }) => {
          if (String(payload).includes('pusher_internal:subscription_succeeded')) resolve();
        }),
      );
    });
    await page.reload();
    const loadedAt = Date.now();
    await page.getByRole('button', { name: 'Notificaciones' }).waitFor();
    await subscribed;
    // The demo administrator may already have unseen notifications (the demo payments to review): count from there.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const unseen = async () => {
      const res = await fetch(`${env.server.baseUrl}/api/get_notifications_by_user`, { headers: { authorization: `Bearer ${token}` } });
      return ((await res.json()) as { data: { notification_quantity: number } }).data.notification_quantity;
    };
    const unseenBefore = await unseen();

    const user = JSON.parse((await page.evaluate(() => localStorage.getItem('user_details'))) ?? '{}') as { id: number };
    const send = await fetch(`${env.server.baseUrl}/api/notifications`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        recipients: { user_type: 'COLLABORATOR', ids: [user.id] },
        type: 'PAYMENT',
        title: 'Voucher por revisar',
        detail: '<p>Pago de <strong>S/ 1 200.00</strong><img src=x onerror="window.__pwned=1"></p>',
        route: '/Finanzas/Pagos',
      }),
    });
    expect(send.status).toBe(201);
    const badge = page.getByTestId('notifications-badge');
    await expect.poll(() => badge.textContent(), { timeout: 7000 }).toBe(String(unseenBefore + 1));
    expect(Date.now() - loadedAt).toBeLessThanOrEqual(7000);
    await screenshot(page, 'shell-bell-unread');

    await page.getByRole('button', { name: 'Notificaciones' }).click();
    const dialog = page.getByRole('dialog', { name: 'Notificaciones' });
    await dialog.getByText('Voucher por revisar').waitFor();
    await dialog.getByText('S/ 1 200.00').waitFor();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    // docs/product.md §4: a top-right dialog, 350 px wide (below the 64 px top bar, 16 px from the right edge).
    await animationsSettled(page);
    const box = (await page.locator('.notifications-dialog').boundingBox())!; // the panel's frame, border included
    expect(Math.round(box.width)).toBe(350);
    expect(1366 - (box.x + box.width)).toBeLessThanOrEqual(24);
    expect(box.y).toBeGreaterThanOrEqual(64);
    expect(box.y).toBeLessThanOrEqual(80);
    await screenshot(page, 'shell-notifications-open');
    await expect.poll(() => badge.count()).toBe(0);
    await expect.poll(unseen).toBe(0);

    await dialog.getByRole('button', { name: /Voucher por revisar/ }).click();
    await page.waitForURL(/\/Finanzas\/Pagos$/i);
    await expect.poll(() => page.getByRole('dialog', { name: 'Notificaciones' }).count()).toBe(0);
    await context.close();
  });

  it('change password: each validation message, then sign in with the new password', async () => {
    const { context, page } = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(page, env.server.baseUrl, '70000002', 'Parcela#2026');
    await page.getByRole('button', { name: /^Opciones de usuario/ }).click();
    await page.getByRole('dialog', { name: 'Mi perfil' }).getByRole('button', { name: 'Cambiar contraseña' }).click();
    const dialog = page.getByRole('dialog', { name: 'CAMBIAR CONTRASEÑA' });
    await dialog.waitFor();

    await dialog.getByRole('button', { name: 'Cambiar' }).click();
    await page.getByText('DATOS INCOMPLETOS').first().waitFor();
    await page.getByText('Rellene todos los campos para continuar').first().waitFor();

    await dialog.getByLabel('Contraseña Actual').fill('Parcela#2026');
    await dialog.getByLabel('Nueva Contraseña', { exact: true }).fill('abc');
    await dialog.getByText('Débil').waitFor();
    await dialog.getByLabel('Nueva Contraseña', { exact: true }).fill('Cambiada#2027');
    await dialog.getByText('Fuerte').waitFor();
    await dialog.getByLabel('Confirme la nueva contraseña').fill('Cambiada#2028');
    await dialog.getByRole('button', { name: 'Cambiar' }).click();
    await page.getByText('CONTRASEÑAS DISTINTAS').first().waitFor();
    await page.getByText('Los campos de la nueva contraseña debe de ser iguales').first().waitFor();
    await screenshot(page, 'shell-change-password-warning');

    await dialog.getByLabel('Contraseña Actual').fill('equivocada');
    await dialog.getByLabel('Confirme la nueva contraseña').fill('Cambiada#2027');
    await dialog.getByRole('button', { name: 'Cambiar' }).click();
    await page.getByText('DESCRIPCIÓN').first().waitFor();
    await page.getByText('La contraseña actual es incorrecta').first().waitFor();

    await dialog.getByLabel('Contraseña Actual').fill('Parcela#2026');
    await dialog.getByRole('button', { name: 'Cambiar' }).click();
    await page.getByText('Contraseña actualizada correctamente').first().waitFor();
    await expect.poll(() => page.getByRole('dialog', { name: 'CAMBIAR CONTRASEÑA' }).count()).toBe(0);

    await logout(page);
    await page.getByLabel('DNI o correo electrónico').fill('70000002');
    await page.getByLabel('Contraseña', { exact: true }).fill('Parcela#2026');
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await page.getByText('Usuario o contraseña incorrectos').first().waitFor();
    await staffLogin(page, env.server.baseUrl, '70000002', 'Cambiada#2027');
    await context.close();
  });

  it('a staff theme survives logout and login; dark mode puts app-dark on <html>', async () => {
    const { context, page } = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    await page.getByRole('button', { name: 'Configuración del tema' }).click();
    const panel = page.getByRole('dialog', { name: 'Configuración del tema' });
    await panel.getByRole('button', { name: 'Azul', exact: true }).click();
    await panel.getByRole('radio', { name: 'Nora' }).click();
    await screenshot(page, 'shell-theme-configurator');
    await panel.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Estilos guardados').first().waitFor();
    await expect.poll(() => page.getByRole('dialog', { name: 'Configuración del tema' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Modo oscuro' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('app-dark'))).toBe(true);
    await animationsSettled(page);
    await screenshot(page, 'shell-dark');

    await logout(page);
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('app-dark'))).toBe(false);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    const primary = () => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--p-primary-color').trim());
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('app-dark'))).toBe(true);
    // Dark mode uses primary shade 400: blue 400.
    await expect.poll(primary).toBe('#60a5fa');
    await expect
      .poll(() => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--p-content-border-radius').trim()))
      .toBe('2px');
    await context.close();
  });

  it('a revoked token ends the session on the shell\'s own calls too (dark-mode toggle → "Acceso denegado")', async () => {
    const { context, page } = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    await page.getByRole('button', { name: 'Modo oscuro' }).waitFor();
    // The session is revoked elsewhere (another tab logs out with the same token).
    const token = await page.evaluate(() => window.localStorage.getItem('token'));
    expect(token).toBeTruthy();
    const revoked = await fetch(`${env.server.baseUrl}/api/auth/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ user_type: 'COLLABORATOR' }),
    });
    expect(revoked.status).toBe(200);
    // The style save (call 8) answers 401: the one global check ends the session (docs/product.md §7/§8),
    // no "Estilos no guardados" toast.
    await page.getByRole('button', { name: 'Modo oscuro' }).click();
    await page.waitForURL(/\/auth\/access$/);
    await page.getByText('Acceso denegado').first().waitFor();
    expect(await page.getByText('Estilos no guardados').count()).toBe(0);
    expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
    await screenshot(page, 'shell-revoked-token');
    await context.close();
  });

  it('at 390 px the menu is an overlay: the toggle opens it and choosing a link closes it', async () => {
    const { context, page } = await newPage(env.browser, env.server.baseUrl, 390, 844);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    const sidebar = page.getByRole('complementary', { name: 'Menú lateral' });
    const inView = async () => {
      const box = await sidebar.boundingBox();
      return box !== null && box.x + box.width > 0 && box.x < 390;
    };
    await expect.poll(inView).toBe(false);
    await page.getByRole('button', { name: 'Menú', exact: true }).click();
    await expect.poll(inView).toBe(true);
    await animationsSettled(page);
    await screenshot(page, 'shell-mobile-menu-open');
    await menu(page).getByRole('button', { name: 'CRM' }).click();
    await menu(page).getByRole('link', { name: 'Clientes' }).click();
    await page.waitForURL(/\/Crm\/Clientes$/i);
    await expect.poll(inView).toBe(false);
    await page.getByRole('button', { name: 'Menú', exact: true }).click();
    await expect.poll(inView).toBe(true);
    await page.getByTestId('layout-mask').click({ position: { x: 370, y: 400 } });
    await expect.poll(inView).toBe(false);
    await context.close();
  });
});
