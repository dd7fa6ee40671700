/**
 * E2E of the lot maps (issue "Proyectos") in real Chromium against the built app and the real
 * server (temp database, demo seed with its two subdivisions): MapaProyectos draws as many lots as
 * the API holds with polygons, hover shows the tooltip, a click opens the lot panel, "Cambiar
 * estado" to Bloqueado with a reason changes the lot's colour, the legend and the history; logged
 * out, the public /mapa shows no internal status (Bloqueado / Reserva / Canje) and no personal data.
 * Screenshots at 1366 and 390 px in test-results/e2e/.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { e2eEnvironment, fillHoldUntil, newPage, screenshot, staffLogin } from './harness';

const env = e2eEnvironment();

interface StaffMapLot {
  id: number;
  code: string;
  status: string;
  polygon: unknown[] | null;
}

/** GET with the page's stored token. */
async function api<T>(page: Page, url: string): Promise<T> {
  return page.evaluate(async (u) => {
    const res = await fetch(u, { headers: { Authorization: `Bearer ${localStorage.getItem('token')}`, Accept: 'application/json' } });
    return (await res.json()) as T;
  }, url);
}

const BLOQUEADO_FILL = '#6b7280';

describe('mapas e2e', () => {
  it('MapaProyectos: lots drawn, hover, panel, status change; the public map hides internal statuses', async () => {
    const { page, context } = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    const list = await api<{ data: { key: string; name: string }[] }>(page, '/api/subdivisions?per_page=100&sort=name');
    const subdivision = list.data.find((s) => s.name === 'Los Viñedos de Carabayllo') ?? list.data[0]!;
    const map = await api<{ data: { lots: StaffMapLot[] } }>(page, `/api/subdivisions/${subdivision.key}/map`);
    const drawn = map.data.lots.filter((l) => l.polygon);
    expect(drawn.length).toBeGreaterThan(0);

    await page.goto(`/PROYECTOS/MapaProyectos/mapa/${subdivision.key}`);
    await page.getByRole('heading', { name: /Mapa del proyecto/ }).waitFor();
    await page.locator('.lot-map__lots > path').first().waitFor();
    expect(await page.locator('.lot-map__lots > path').count()).toBe(drawn.length);
    const legendCount = async (label: string) =>
      Number(await page.getByRole('list', { name: 'Leyenda' }).locator('li', { hasText: label }).locator('strong').textContent());
    const blockedBefore = await legendCount('Bloqueado');

    // Hover a Disponible lot → tooltip; click → panel.
    const lot = drawn.find((l) => l.status === 'DISPONIBLE')!;
    await page.getByLabel('Buscar lote').fill(lot.code);
    await page.getByLabel('Buscar lote').press('Enter');
    const panel = page.getByRole('region', { name: `Lote ${lot.code}` });
    await panel.waitFor();
    await panel.getByRole('button', { name: 'Cerrar' }).click();
    await panel.waitFor({ state: 'detached' });
    const shape = page.locator(`.lot-map__lots > path[data-key="${lot.id}"]`);
    await shape.hover();
    await expect.poll(() => page.getByRole('tooltip').textContent()).toContain(lot.code);
    expect(await page.getByRole('tooltip').textContent()).toContain('Disponible');
    await shape.click();
    await panel.waitFor();
    await panel.getByText('Perímetro').waitFor();
    await screenshot(page, 'mapas-panel-1366');

    // Cambiar estado → Bloqueado with a reason.
    await panel.getByRole('button', { name: 'Cambiar estado' }).click();
    const dialog = page.getByRole('dialog', { name: /Cambiar estado/ });
    await dialog.getByLabel('Nuevo estado').selectOption('BLOQUEADO');
    await dialog.getByLabel(/Motivo/).fill('Bloqueado por revisión de linderos');
    await fillHoldUntil(dialog);
    await dialog.getByRole('button', { name: /Guardar|Cambiar/ }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => shape.getAttribute('fill')).toBe(BLOQUEADO_FILL);
    await expect.poll(() => legendCount('Bloqueado')).toBe(blockedBefore + 1);
    await panel.getByText('Bloqueado por revisión de linderos').waitFor();
    await screenshot(page, 'mapas-changed-1366');

    // Phone width: the panel becomes a bottom drawer over the map.
    const phone = await env.browser.newContext({
      baseURL: env.server.baseUrl,
      viewport: { width: 390, height: 844 },
      storageState: await context.storageState(),
    });
    const phonePage = await phone.newPage();
    await phonePage.goto(`/PROYECTOS/MapaProyectos/mapa/${subdivision.key}`);
    await phonePage.locator('.lot-map__lots > path').first().waitFor();
    await phonePage.getByLabel('Buscar lote').fill(lot.code);
    await phonePage.getByLabel('Buscar lote').press('Enter');
    await phonePage.getByRole('region', { name: `Lote ${lot.code}` }).waitFor();
    const box = await phonePage.getByRole('region', { name: `Lote ${lot.code}` }).boundingBox();
    expect(box!.width).toBeGreaterThan(380);
    expect(box!.y + box!.height).toBeGreaterThan(800);
    await screenshot(phonePage, 'mapas-panel-390');
    await phone.close();
    await context.close();

    // Logged out: the public map.
    const anon = await newPage(env.browser, env.server.baseUrl);
    await anon.page.goto(`/mapa/los-vinedos/${subdivision.key}`);
    await anon.page.locator('.lot-map__lots > path').first().waitFor();
    const body = (await anon.page.locator('body').textContent()) ?? '';
    expect(body).not.toMatch(/Bloqueado|Reserva|Canje/);
    expect(body).not.toMatch(/@|\b\d{8}\b/); // no e-mails, no DNIs
    await anon.page.locator(`.lot-map__lots > path[data-key="${lot.code}"]`).hover();
    await expect.poll(() => anon.page.getByRole('tooltip').textContent()).toContain('Vendido');
    await screenshot(anon.page, 'mapas-public-1366');
    await anon.page.setViewportSize({ width: 390, height: 844 });
    await screenshot(anon.page, 'mapas-public-390');
    await anon.page.goto('/mapa/x/NoExiste99');
    await anon.page.getByText('Este mapa no está disponible').waitFor();
    await anon.context.close();
  });
});
