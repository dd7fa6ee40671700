/**
 * E2E of Proyectos → Lotizaciones and Lotes (issue "Proyectos") in real Chromium against the built
 * app and the real server (temp database, demo seed): the administrator creates a subdivision from
 * /PROYECTOS/lotizaciones, opens its Lotes, creates a lot by hand, changes its status to Bloqueado
 * with a reason and sees the tag and the status history change. Screenshots of both screens at
 * 1366 px and 390 px in test-results/e2e/.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { e2eEnvironment, fillHoldUntil, newPage, screenshot, setChecked, staffLogin } from './harness';

const env = e2eEnvironment();
const SAMPLE_DXF = path.resolve(import.meta.dirname, '../../fixtures/lotizacion-200.dxf');
const BLOQUEADO_FILL = '#6b7280';

async function rowAction(page: Page, rowText: string, action: string) {
  const row = page.getByRole('row').filter({ hasText: rowText });
  await row.getByRole('button', { name: 'Acciones' }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

describe('proyectos e2e', () => {
  it('creates a subdivision and a lot, blocks the lot with a reason and sees its history', async () => {
    const { page, context } = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');

    await page.goto('/PROYECTOS/lotizaciones');
    await page.getByRole('heading', { name: 'Lotizaciones' }).waitFor();
    await page.getByRole('button', { name: 'Nueva lotización' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Nueva lotización' });
    await dialog.getByLabel('Código').fill('E2E-01');
    await dialog.getByLabel('Nombre').fill('Las Lomas de Pachacámac');
    await dialog.getByLabel('Distrito').fill('Pachacámac');
    await dialog.getByLabel('Área total (m²)').fill('24000');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await page.getByRole('row').filter({ hasText: 'E2E-01' }).waitFor();
    await screenshot(page, 'proyectos-lotizaciones-1366');

    await rowAction(page, 'E2E-01', 'Lotes');
    await page.waitForURL(/\/PROYECTOS\/Lotes\/las-lomas-de-pachacamac\/[^/]+$/);
    await page.getByRole('heading', { name: 'Las Lomas de Pachacámac' }).waitFor();

    await page.getByRole('button', { name: 'Nuevo lote' }).first().click();
    const lotDialog = page.getByRole('dialog', { name: 'Nuevo lote' });
    await lotDialog.getByLabel('Manzana').fill('A');
    await lotDialog.getByLabel('Número de lote').fill('12');
    await lotDialog.getByLabel('Área (m²)').fill('120');
    await lotDialog.getByLabel('Precio por m² (S/)').fill('250');
    await expect.poll(() => lotDialog.getByText('S/ 30,000.00').count()).toBeGreaterThan(0);
    await lotDialog.getByRole('button', { name: 'Guardar' }).click();
    const row = page.getByRole('row').filter({ hasText: 'MZ A - LT 12' });
    await row.waitFor();
    expect(await row.getByText('Disponible').count()).toBe(1);

    await rowAction(page, 'MZ A - LT 12', 'Cambiar estado');
    const statusDialog = page.getByRole('dialog', { name: /Cambiar estado/ });
    await statusDialog.getByLabel('Nuevo estado').selectOption('BLOQUEADO');
    await statusDialog.getByRole('button', { name: 'Cambiar estado' }).click();
    await statusDialog.getByText('Indique el motivo del cambio de estado').waitFor();
    await statusDialog.getByLabel('Motivo (obligatorio)').fill('Observación de la municipalidad');
    await fillHoldUntil(statusDialog);
    await statusDialog.getByRole('button', { name: 'Cambiar estado' }).click();
    await row.getByText('Bloqueado').waitFor();

    await rowAction(page, 'MZ A - LT 12', 'Historial de estados');
    const history = page.getByRole('table', { name: 'Historial de estados' });
    await history.waitFor();
    const first = history.getByRole('row').nth(1);
    expect(await first.textContent()).toContain('Observación de la municipalidad');
    expect(await first.getByText('Bloqueado').count()).toBe(1);
    await screenshot(page, 'proyectos-lotes-historial-1366');
    await page.keyboard.press('Escape');
    await screenshot(page, 'proyectos-lotes-1366');

    const lotsUrl = page.url();

    // "Ver todos" of the 1 200-lot demo subdivision: a virtualised table loading pages of 100 while scrolling.
    await page.goto('/PROYECTOS/lotizaciones');
    await rowAction(page, 'BDC', 'Lotes');
    await page.getByRole('heading', { name: 'Brisas de Chilca' }).waitFor();
    await page.getByRole('button', { name: 'Ver todos' }).click();
    const all = page.getByRole('table', { name: 'Todos los lotes' });
    await page.locator('.lots-virtual').getByText('1200 lotes').waitFor();
    const scroller = page.locator('.lots-virtual-scroller');
    const measure = (step: number) =>
      scroller.evaluate(async (el, by) => {
        const times: number[] = [];
        let last = performance.now();
        for (let i = 0; i < 120; i += 1) {
          el.scrollTop += by;
          await new Promise((r) => requestAnimationFrame(r));
          const now = performance.now();
          times.push(now - last);
          last = now;
        }
        times.sort((a, b) => a - b);
        return {
          median: times[Math.floor(times.length / 2)]!,
          p95: times[Math.floor(times.length * 0.95)]!,
          max: times[times.length - 1]!,
        };
      }, step);
    const log = (label: string, f: { median: number; p95: number; max: number }) =>
      console.log(
        `[proyectos e2e] "Ver todos" ${label}, frame ms: median ${f.median.toFixed(1)}, p95 ${f.p95.toFixed(1)}, max ${f.max.toFixed(1)}`,
      );
    log('first scroll down through 1 200 lots (pages loading)', await measure(240));
    await scroller.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await expect.poll(() => scroller.locator('.bp6-skeleton').count(), { timeout: 30_000 }).toBe(0);
    log('scroll back up (all pages loaded)', await measure(-240));
    await expect.poll(() => all.getByText(/^MZ [A-Z0-9]+ - LT \d+/).count(), { timeout: 30_000 }).toBeGreaterThan(5);
    // Virtualised: only the rows in view (plus overscan) are in the DOM, not 1 200.
    expect(await all.getByRole('row').count()).toBeLessThan(80);
    await screenshot(page, 'proyectos-lotes-ver-todos-1366');

    // Phone width: a fresh context at 390 px (the menu starts closed).
    const phone = await newPage(env.browser, env.server.baseUrl, 390, 844);
    await staffLogin(phone.page, env.server.baseUrl, '70000001', 'Parcela#2026');
    await phone.page.goto('/PROYECTOS/lotizaciones');
    await phone.page.getByRole('row').filter({ hasText: 'E2E-01' }).waitFor();
    await screenshot(phone.page, 'proyectos-lotizaciones-390');
    await phone.page.goto(new URL(lotsUrl).pathname);
    await phone.page.getByRole('row').filter({ hasText: 'MZ A - LT 12' }).waitFor();
    await screenshot(phone.page, 'proyectos-lotes-390');
    await phone.context.close();
    await context.close();
  });
  it('the issue scenario: create a subdivision, import the sample DXF, 200 lots on the map, a status change with a reason, the public map logged out', async () => {
    const { page, context } = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');

    // 1. A new, published subdivision.
    await page.goto('/PROYECTOS/lotizaciones');
    await page.getByRole('button', { name: 'Nueva lotización' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Nueva lotización' });
    await dialog.getByLabel('Código').fill('E2E-DXF');
    await dialog.getByLabel('Nombre').fill('Villa Sol de Carabayllo');
    await dialog.getByLabel('Distrito').fill('Carabayllo');
    await dialog.getByLabel('Área total (m²)').fill('52000');
    await setChecked(dialog.getByLabel('Publicado en web'));
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await page.getByRole('row').filter({ hasText: 'E2E-DXF' }).waitFor();
    await rowAction(page, 'E2E-DXF', 'Lotes');
    await page.getByRole('heading', { name: 'Villa Sol de Carabayllo' }).waitFor();
    const key = new URL(page.url()).pathname.split('/').at(-1)!;

    // 2. "Importar lotes" with the engineers' DXF: preview (200 to create, no errors), then import.
    await page.getByRole('button', { name: 'Importar lotes' }).click();
    const importDialog = page.getByRole('dialog', { name: 'Importar lotes' });
    await importDialog.getByLabel('Archivo de lotes').setInputFiles(SAMPLE_DXF);
    await importDialog.getByText('Crear: 200').waitFor({ timeout: 30_000 });
    expect(await importDialog.getByText('Errores: 0').count()).toBe(1);
    await screenshot(page, 'proyectos-import-preview-1366');
    await importDialog.getByRole('button', { name: 'Importar', exact: true }).click();
    await importDialog.waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByText('200 lotes', { exact: true }).first().waitFor();

    // 3. The map draws the 200 lots.
    await page.getByRole('link', { name: 'Mapa', exact: true }).click();
    await page.getByRole('heading', { name: /Mapa del proyecto/ }).waitFor();
    const shapes = page.locator('.lot-map__lots > path');
    await expect.poll(() => shapes.count(), { timeout: 45_000 }).toBe(200);
    await screenshot(page, 'proyectos-import-mapa-1366');

    // 4. One lot to Bloqueado with a reason: its colour and its history change.
    const code = 'MZ A - LT 1';
    await page.getByLabel('Buscar lote').fill(code);
    await page.getByLabel('Buscar lote').press('Enter');
    const panel = page.getByRole('region', { name: `Lote ${code}` });
    await panel.waitFor();
    const lotId = await page.evaluate(
      async ([k, c]) => {
        const res = await fetch(`/api/subdivisions/${k}/lots?q=${encodeURIComponent(c!)}`, {
          headers: { Authorization: `Bearer ${localStorage.getItem('token')}` },
        });
        return ((await res.json()) as { data: { id: number; code: string }[] }).data.find((l) => l.code === c)!.id;
      },
      [key, code],
    );
    const shape = page.locator(`.lot-map__lots > path[data-key="${lotId}"]`);
    expect(await shape.getAttribute('fill')).not.toBe(BLOQUEADO_FILL);
    await panel.getByRole('button', { name: 'Cambiar estado' }).click();
    const statusDialog = page.getByRole('dialog', { name: /Cambiar estado/ });
    await statusDialog.getByLabel('Nuevo estado').selectOption('BLOQUEADO');
    await statusDialog.getByLabel(/Motivo/).fill('Servidumbre de paso en revisión');
    await fillHoldUntil(statusDialog);
    await statusDialog.getByRole('button', { name: 'Cambiar estado' }).click();
    await statusDialog.waitFor({ state: 'detached' });
    await expect.poll(() => shape.getAttribute('fill')).toBe(BLOQUEADO_FILL);
    await panel.getByText('Servidumbre de paso en revisión').waitFor();
    await screenshot(page, 'proyectos-import-bloqueado-1366');
    await context.close();

    // 5. Logged out, the public map shows the lot as Vendido and no internal status anywhere.
    const anon = await newPage(env.browser, env.server.baseUrl);
    await anon.page.goto(`/mapa/villa-sol-de-carabayllo/${key}`);
    const publicShapes = anon.page.locator('.lot-map__lots > path');
    await expect.poll(() => publicShapes.count(), { timeout: 45_000 }).toBe(200);
    expect((await anon.page.locator('body').textContent()) ?? '').not.toMatch(/Bloqueado|Reserva|Canje/);
    await anon.page.locator(`.lot-map__lots > path[data-key="${code}"]`).hover();
    await expect.poll(() => anon.page.getByRole('tooltip').textContent()).toContain('Vendido');
    await screenshot(anon.page, 'proyectos-import-publico-1366');
    await anon.context.close();
  });

  it('a table with stages, a repeated code, a park and a reserved zone: keep the first, check again, map the zone, import; both are No vendible', async () => {
    const { page, context } = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    await page.goto('/PROYECTOS/lotizaciones');
    const status = await page.evaluate(async () => {
      const res = await fetch('/api/subdivisions', {
        method: 'POST',
        headers: { Authorization: `Bearer ${localStorage.getItem('token')}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          code: 'E2E-USO',
          name: 'Los Pinos de Lurín',
          department: 'Lima',
          province: 'Lima',
          district: 'Lurín',
          total_area_m2: 9000,
        }),
      });
      return res.status;
    });
    expect(status).toBe(201);
    await page.reload();
    await rowAction(page, 'E2E-USO', 'Lotes');
    await page.getByRole('heading', { name: 'Los Pinos de Lurín' }).waitFor();

    await page.getByRole('button', { name: 'Importar lotes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importar lotes' });
    // C-1 is a reserved zone, a value the importer has no use for: the user maps it (docs/import.md "Land use").
    const csv =
      'manzana,lote,area,precio_m2,uso,etapa\nA,1,120,250,Vivienda,1\nA,2,130,250,Vivienda,1\nA,2,131,250,Vivienda,1\nA,3,500,0,Parque,1\nB,1,140,260,Comercio,2\nC,1,300,0,Zona reservada,2\n';
    await dialog.getByLabel('Archivo de lotes').setInputFiles({ name: 'lotes.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const duplicates = dialog.getByRole('region', { name: 'Códigos repetidos' });
    await duplicates.getByRole('table', { name: 'Candidatos de MZ A - LT 2' }).waitFor({ timeout: 30_000 });
    await dialog.getByText('Recreación / parque: 1 lote (no vendible)').waitFor();
    await dialog.getByText('Etapa 2: 2 lotes (nueva)').waitFor();
    const importButton = dialog.getByRole('button', { name: 'Importar', exact: true });
    expect(await importButton.isDisabled()).toBe(true);
    await duplicates.getByRole('button', { name: 'Conservar el primero de cada código' }).click();
    expect(await duplicates.getByLabel('Elección para MZ A - LT 2, fila 4').inputValue()).toBe('DROP');
    await duplicates.getByRole('button', { name: 'Volver a comprobar' }).click();
    await dialog.getByText('Errores: 0').waitFor({ timeout: 30_000 });
    await dialog.getByText('Se descartó MZ A - LT 2 de fila 4 (código repetido)').waitFor();
    await screenshot(page, 'proyectos-import-repetidos-1366');
    // The reserved zone has no use yet: "Importar" waits until the user gives it one.
    const uses = dialog.getByRole('region', { name: 'Usos del archivo' });
    await uses.getByText('Elija el uso de un valor para poder importar.').waitFor();
    expect(await importButton.isDisabled()).toBe(true);
    await uses.getByLabel('Uso de «Zona reservada»').selectOption('OTROS_USOS');
    await uses.getByText('Todos con uso').waitFor();
    expect(await uses.getByLabel('Uso de «Parque»').inputValue()).toBe('RECREACION');
    await uses.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'proyectos-import-usos-1366');
    expect(await importButton.isDisabled()).toBe(false);
    await importButton.click();
    await dialog.waitFor({ state: 'detached', timeout: 30_000 });

    const park = page.getByRole('row').filter({ hasText: 'MZ A - LT 3' });
    await park.getByText('No vendible').waitFor();
    expect(await park.getByText('Recreación / parque').count()).toBe(1);
    expect(await page.getByRole('row').filter({ hasText: 'MZ A - LT 2' }).count()).toBe(1);
    const reserved = page.getByRole('row').filter({ hasText: 'MZ C - LT 1' });
    await reserved.getByText('No vendible').waitFor();
    expect(await reserved.getByText('Otros usos (aportes)').count()).toBe(1);
    // The stages the file named were created with the import.
    await page.getByRole('tab', { name: 'Etapas (2)' }).waitFor();
    await screenshot(page, 'proyectos-lotes-no-vendible-1366');
    await context.close();
  });
});
