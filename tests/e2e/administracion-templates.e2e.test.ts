/**
 * E2E of Administración → Generar Contrato, tab "Plantillas" (docs/domain.md "Contract templates")
 * in real Chromium against the built app and the real server (temp database, demo seed): the
 * administrator opens the screen from the menu, creates a template for a subdivision and kind,
 * types a clause, inserts a variable with "@", adds a table and a page break, saves, publishes
 * (then the document is read-only) and starts a new version. Screenshots in test-results/e2e/.
 */
import { describe, expect, it } from 'vitest';
import { e2eEnvironment, newPage, screenshot, staffLogin, openFromMenu } from './harness';
import { contentShown, setDark } from './screens';

const env = e2eEnvironment();

describe('plantillas de contrato e2e', () => {
  it('creates, edits with "@", a table and a page break, publishes read-only and starts a new version', async () => {
    const { page } = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');

    // From the menu.
    await openFromMenu(page, 'Administración', 'Generar Contrato');
    await page.waitForURL(/\/ADMINISTRACION\/GenerarContrato/i);
    await page.getByRole('heading', { name: 'Generar Contrato' }).waitFor();
    await contentShown(page);
    expect(await page.getByRole('tab', { name: 'Plantillas' }).getAttribute('aria-selected')).toBe('true');

    // Nueva plantilla: the first subdivision of the demo, a cash sale.
    const name = `Compraventa e2e ${Date.now()}`;
    await page.getByRole('button', { name: 'Nueva plantilla' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nueva plantilla' });
    const subdivision = dialog.getByLabel('Lotización');
    const firstSubdivision = await subdivision.locator('option').nth(1).textContent();
    await subdivision.selectOption({ label: firstSubdivision! });
    await dialog.getByLabel('Tipo de documento').selectOption({ label: 'Compraventa al contado' });
    await dialog.getByLabel('Nombre').fill(name);
    await dialog.getByRole('button', { name: 'Crear' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The editor: a clause with a variable chosen with "@" and the keyboard.
    const doc = page.getByRole('textbox', { name: 'Contenido de la plantilla' });
    await doc.waitFor();
    await expect.poll(() => doc.getAttribute('contenteditable')).toBe('true');
    await doc.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('PRIMERA: El vendedor es @razon');
    const listbox = page.getByRole('listbox', { name: 'Variables' });
    await listbox.getByRole('option', { name: /Razón social/ }).waitFor();
    await page.keyboard.press('Enter');
    await listbox.waitFor({ state: 'hidden' });
    await doc.locator('[data-variable="empresa.razon_social"]').waitFor();
    await page.keyboard.type('con RUC ');
    // "Insertar variable" for pointer users.
    await page.getByRole('button', { name: 'Insertar variable' }).click();
    await page.getByRole('menuitem', { name: 'Empresa' }).hover();
    await page.getByRole('menuitem', { name: /^RUC/ }).click();
    await doc.locator('[data-variable="empresa.ruc"]').waitFor();

    // A table and a page break.
    await page.getByRole('button', { name: 'Tabla' }).click();
    await page.getByRole('menuitem', { name: 'Insertar tabla 3 × 3' }).click();
    await expect.poll(() => doc.locator('table tr').count()).toBe(3);
    await page.getByRole('button', { name: 'Tabla' }).click();
    await page.getByRole('menuitem', { name: 'Agregar fila debajo' }).click();
    await expect.poll(() => doc.locator('table tr').count()).toBe(4);
    await doc.locator('p').last().click();
    await page.getByRole('button', { name: 'Salto de página' }).click();
    await doc.getByText('Salto de página').waitFor();
    await screenshot(page, 'plantillas-editor');

    // Save, then publish after confirming: read-only.
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Cambios sin guardar').waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Publicar' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Publicar' }).click();
    await page.getByText('Versión publicada: solo lectura').waitFor();
    await expect.poll(() => doc.getAttribute('contenteditable')).toBe('false');
    expect(await page.getByRole('toolbar', { name: 'Formato del documento' }).count()).toBe(0);
    await setDark(page, true);
    await screenshot(page, 'plantillas-publicada-oscuro');
    await setDark(page, false);

    // A new version: Borrador v2 with the same text.
    await page.getByRole('button', { name: 'Nueva versión' }).click();
    await page.getByText('Versión 2').waitFor();
    await expect.poll(() => doc.getAttribute('contenteditable')).toBe('true');
    await doc.locator('[data-variable="empresa.ruc"]').waitFor();

    // The list shows the family's latest version.
    await page.getByRole('button', { name: 'Volver a la lista' }).click();
    const row = page.getByRole('row').filter({ hasText: name });
    await row.waitFor();
    await row.getByText('v2').waitFor();
    await row.getByText('Borrador').waitFor();
  });
});
