/**
 * E2E of Configuración (Usuarios, Roles y permisos) in real Chromium against the built app and the
 * real server (temp database, demo seed): the administrator creates the role "Solo CRM" with only
 * the CRM module, Clientes and Leads, and a user holding it; the new user sets a password through
 * the reset link the server sent, signs in and sees only the CRM group; the administrator
 * deactivates them from another browser context and the user's open session is refused at its next
 * request; each step left a change-history row with its diff. Screenshots in test-results/e2e/.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { animationsSettled, e2eEnvironment, latestResetLink, mainMenu, newPage, screenshot, setChecked, staffLogin } from './harness';

const env = e2eEnvironment();

const menu = mainMenu;
const ALL_GROUPS = ['Configuración', 'Administración', 'Finanzas', 'CRM', 'Proyectos', 'Comercial', 'Ingeniería'];

async function rowAction(page: Page, rowText: string, action: string) {
  const row = page.getByRole('row').filter({ hasText: rowText });
  await row.getByRole('button', { name: 'Acciones' }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

interface HistoryRow {
  entity: string;
  record_id: string;
  action: string;
  changed_fields: string[];
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** GET /api/change-history with the page's stored token. */
async function history(page: Page, query: string): Promise<HistoryRow[]> {
  return page.evaluate(async (q) => {
    const res = await fetch(`/api/change-history?${q}`, {
      headers: { Authorization: `Bearer ${localStorage.getItem('token')}`, Accept: 'application/json' },
    });
    return ((await res.json()) as { data: HistoryRow[] }).data;
  }, query);
}

describe('configuración e2e', () => {
  it('a role "Solo CRM" and a user holding it: CRM-only menu, then deactivation ends the open session', async () => {
    const admin = await newPage(env.browser, env.server.baseUrl);
    const page = admin.page;
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');

    // Roles y Permisos: create "Solo CRM" and give it CRM + Clientes + Leads.
    await page.goto('/CONFIGURACION/rolesypermisos');
    await page.getByRole('heading', { name: 'Roles y Permisos' }).waitFor();
    await page.getByRole('row').filter({ hasText: 'Administrador' }).first().waitFor();
    await page.getByRole('button', { name: 'Nuevo rol' }).click();
    const roleDialog = page.getByRole('dialog', { name: 'Nuevo rol' });
    await roleDialog.getByLabel('Nombre del rol').fill('Solo CRM');
    await roleDialog.getByRole('button', { name: 'Guardar' }).click();
    await page.getByRole('row').filter({ hasText: 'Solo CRM' }).waitFor();
    await rowAction(page, 'Solo CRM', 'Permisos');
    const matrix = page.getByRole('region', { name: 'Permisos de Solo CRM' });
    await setChecked(matrix.getByRole('checkbox', { name: 'Clientes', exact: true }));
    await setChecked(matrix.getByRole('checkbox', { name: 'Leads', exact: true }));
    expect(await matrix.getByRole('checkbox', { name: 'Módulo CRM' }).isChecked()).toBe(true);
    const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && /\/api\/roles\/\d+$/.test(r.url()));
    await matrix.getByRole('button', { name: 'Guardar' }).click();
    expect((await saved).status()).toBe(200);
    await page.getByText('Permisos guardados').first().waitFor();
    await screenshot(page, 'configuracion-roles');

    // Usuarios: a new user holding "Solo CRM" (the server e-mails them a password link).
    await page.goto('/CONFIGURACION/usuarios');
    await page.getByRole('heading', { name: 'Usuarios' }).waitFor();
    await page.getByRole('row').filter({ hasText: '70000001' }).waitFor();
    await page.getByRole('button', { name: 'Nuevo usuario' }).click();
    const userDialog = page.getByRole('dialog', { name: 'Nuevo usuario' });
    await userDialog.getByLabel('DNI').fill('71112222');
    await userDialog.getByLabel('Correo electrónico').fill('solocrm@parcela.test');
    await userDialog.getByLabel('Nombres').fill('Sonia');
    await userDialog.getByLabel('Apellidos').fill('Crm Prueba');
    await setChecked(userDialog.getByRole('checkbox', { name: 'Solo CRM' }));
    const created = page.waitForResponse((r) => r.request().method() === 'POST' && /\/api\/users$/.test(r.url()));
    await userDialog.getByRole('button', { name: 'Guardar' }).click();
    expect((await created).status()).toBe(201);
    await page.getByRole('row').filter({ hasText: '71112222' }).waitFor();
    await userDialog.waitFor({ state: 'hidden' });
    await screenshot(page, 'configuracion-usuarios');

    // The new user sets a password through the link and sees only CRM.
    const link = await latestResetLink(env.server.baseUrl, 'solocrm@parcela.test');
    const crmUser = await newPage(env.browser, env.server.baseUrl);
    await crmUser.page.goto(link);
    await crmUser.page.getByLabel('Nueva contraseña', { exact: true }).fill('SoloCrm#2026');
    await crmUser.page.getByLabel('Confirme la nueva contraseña').fill('SoloCrm#2026');
    await crmUser.page.getByRole('button', { name: 'Guardar contraseña' }).click();
    await crmUser.page
      .getByText(/Contraseña actualizada/)
      .first()
      .waitFor();
    await staffLogin(crmUser.page, env.server.baseUrl, '71112222', 'SoloCrm#2026');
    await menu(crmUser.page).getByRole('button', { name: 'CRM' }).waitFor();
    for (const group of ALL_GROUPS.filter((g) => g !== 'CRM')) {
      expect(await menu(crmUser.page).getByRole('button', { name: group }).count()).toBe(0);
    }
    expect(await menu(crmUser.page).getByRole('link', { name: 'Historial de Cambios' }).count()).toBe(0);
    await screenshot(crmUser.page, 'configuracion-solo-crm-menu');

    // The administrator deactivates them; the open session is refused at its next request.
    await rowAction(page, '71112222', 'Desactivar');
    const confirm = page.getByRole('alertdialog');
    const deactivated = page.waitForResponse((r) => /\/api\/users\/\d+\/deactivate$/.test(r.url()));
    await confirm.getByRole('button', { name: 'Desactivar' }).click();
    expect((await deactivated).status()).toBe(200);
    await page.getByRole('row').filter({ hasText: '71112222' }).getByText('Inactivo').waitFor();
    await crmUser.page.reload();
    await crmUser.page.waitForURL(/\/auth\/access$/);

    // Each step left a change-history row with its diff.
    const roleRows = await history(page, 'entity=roles');
    const role = roleRows.find((r) => r.action === 'CREATE' && r.after?.name === 'Solo CRM');
    expect(role).toBeTruthy();
    const update = roleRows.find((r) => r.action === 'UPDATE' && r.record_id === role!.record_id);
    expect(update?.changed_fields).toContain('permissions');
    expect([...((update?.after?.permissions as string[]) ?? [])].sort()).toEqual(
      ['Acceso módulo CRM', 'Acceso submódulo clientes', 'Acceso submódulo LEADS'].sort(),
    );
    const userRows = await history(page, 'entity=users');
    const createdUser = userRows.find((r) => r.action === 'CREATE' && r.after?.dni === '71112222');
    expect(createdUser).toBeTruthy();
    const statusChange = userRows.find(
      (r) => r.record_id === createdUser!.record_id && r.action === 'UPDATE' && r.changed_fields.includes('status'),
    );
    expect(statusChange?.after?.status).toBe('INACTIVO');

    // The same row in the Historial de Cambios screen, its filters taken from the URL.
    await page.goto(`/HistorialDeCambios?entity=users&record_id=${createdUser!.record_id}&action=UPDATE`);
    await expect.poll(() => page.title()).toBe('Historial de Cambios | Parcela');
    await expect.poll(() => page.locator('#ch-entity').inputValue()).toBe('users');
    const newest = page.getByRole('row').filter({ hasText: 'Actualización' }).first();
    await newest.getByRole('button', { name: 'Acciones' }).click();
    await page.getByRole('menuitem', { name: /Ver cambios/ }).click();
    const diff = page.getByRole('table', { name: 'Cambios del registro' });
    const statusRow = diff.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Estado' }) });
    await statusRow.getByText('INACTIVO').waitFor();
    expect(await statusRow.getAttribute('data-changed')).toBe('true');
    await animationsSettled(page);
    await screenshot(page, 'historial-diff');

    await crmUser.context.close();
    await admin.context.close();
  });

  it('the Usuarios screen at 390 px', async () => {
    const { context, page } = await newPage(env.browser, env.server.baseUrl, 390, 844);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    await page.goto('/CONFIGURACION/usuarios');
    await page.getByRole('row').filter({ hasText: '70000001' }).waitFor();
    await screenshot(page, 'configuracion-usuarios-390');
    await page.goto('/CONFIGURACION/rolesypermisos');
    await page.getByRole('row').filter({ hasText: 'Administrador' }).first().waitFor();
    await screenshot(page, 'configuracion-roles-390');
    await context.close();
  });
});
