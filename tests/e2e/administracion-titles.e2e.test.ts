/**
 * E2E of Registros de partidas y títulos (docs/domain.md "Titles at SUNARP", "The screen") in real
 * Chromium against the built app and the real server (temp database, demo seed): the administrator
 * opens it from the menu, creates the title process of a paid-off (CANCELADA) sale, moves it
 * PENDIENTE → MINUTA_FIRMADA → ESCRITURA → PRESENTADO → INSCRITO → ENTREGADO through "Cambiar
 * estado" — the last move with the acta de entrega uploaded as a PDF — and finds it on the board.
 */
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { e2eEnvironment, newPage, screenshot, staffLogin, openFromMenu } from './harness';

const env = e2eEnvironment();

/** A small PDF (its header is what the server sniffs). */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n', 'latin1');

/** Opens "Cambiar estado" from the drawer, picks `target` when several moves are offered, fills `fields` and confirms. */
async function move(page: Page, drawer: Locator, target: string, fields: Record<string, string> = {}, file?: Buffer) {
  await drawer.getByRole('button', { name: 'Cambiar estado' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cambiar estado' });
  await dialog.waitFor();
  const radio = dialog.getByRole('radio', { name: target, exact: true });
  if (!(await radio.isChecked())) await dialog.getByText(target, { exact: true }).click();
  for (const [label, value] of Object.entries(fields)) await dialog.getByLabel(label, { exact: true }).fill(value);
  if (file) await dialog.locator('#title-move-file').setInputFiles({ name: 'acta-entrega.pdf', mimeType: 'application/pdf', buffer: file });
  await dialog.getByRole('button', { name: 'Cambiar estado' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await expect.poll(() => drawer.locator('.titles-detail-data').textContent()).toContain(target);
}

describe('registros de partidas y títulos e2e', () => {
  it('takes the title of a paid-off sale from PENDIENTE to ENTREGADO with the acta uploaded, and shows it on the board', async () => {
    const { page, context } = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    await openFromMenu(page, 'Administración', 'Registros de Partidas y Títulos');
    await page.getByRole('heading', { name: 'Registros de partidas y títulos' }).waitFor();
    await page.getByRole('region', { name: 'Trámites por estado' }).waitFor();

    // "Nuevo trámite": a paid-off sale (the search offers them first).
    await page.getByRole('button', { name: 'Nuevo trámite' }).click();
    const create = page.getByRole('dialog', { name: 'Nuevo trámite de título' });
    await create.getByLabel('Venta', { exact: true }).fill('MZ');
    const option = page.getByRole('option').filter({ hasText: 'cancelada' }).first();
    const saleText = (await option.textContent()) ?? '';
    const saleNumber = /V-\d{6}/.exec(saleText)?.[0];
    expect(saleNumber).toBeTruthy();
    await option.click();
    await screenshot(page, 'titulos-nuevo-tramite');
    await create.getByRole('button', { name: 'Crear trámite' }).click();
    await create.waitFor({ state: 'hidden' });

    // The new process opens in its drawer; each move through "Cambiar estado".
    const drawer = page.getByRole('dialog', { name: new RegExp(`^Trámite ${saleNumber}`) });
    await expect.poll(() => drawer.locator('.titles-detail-data').textContent()).toContain('Pendiente');
    await move(page, drawer, 'Minuta firmada');
    await move(page, drawer, 'Escritura pública', { Notaría: 'Notaría Paino', 'Número de escritura': '4521' });
    await move(page, drawer, 'Presentado a SUNARP', { 'Número de título': '2026-01234567' });
    await expect.poll(() => drawer.locator('.titles-detail-data').textContent()).toContain('Vence el asiento');
    await move(page, drawer, 'Inscrito', { 'Partida electrónica': '11223344', Asiento: 'C00002' });
    await move(page, drawer, 'Entregado', {}, PDF);
    await drawer.getByRole('button', { name: 'Descargar acta (PDF)' }).waitFor();
    expect(await drawer.locator('.titles-history li').count()).toBe(6);
    await screenshot(page, 'titulos-detalle-entregado');
    await drawer.getByRole('button', { name: 'Cerrar' }).click();
    await drawer.waitFor({ state: 'hidden' });

    // On the board: "Entregado" filters the list, where the sale is.
    const board = page.getByRole('region', { name: 'Trámites por estado' });
    const delivered = board.getByRole('button', { name: /^Entregado/ });
    await expect.poll(async () => Number(((await delivered.textContent()) ?? '').replace(/\D/g, ''))).toBeGreaterThan(0);
    await delivered.click();
    await expect.poll(() => new URL(page.url()).searchParams.get('state')).toBe('ENTREGADO');
    await expect.poll(() => page.getByRole('table', { name: 'Trámites de títulos' }).textContent()).toContain(saleNumber!);
    await screenshot(page, 'titulos-tablero');
    await context.close();
  });
});
