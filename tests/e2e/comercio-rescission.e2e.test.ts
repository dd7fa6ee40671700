/**
 * E2E of a rescission (docs/domain.md "Rescission"), in real Chromium against the built app and the
 * real server (demo seed): the administrator opens a demo sale with at least three instalments
 * overdue in Comercial → Ventas, "Resolver contrato" shows the unpaid instalments, what was paid,
 * the penalty and the refund, and confirming leaves the sale Resuelta and its lot Disponible. Then
 * the "Reprogramar" dialog of a sale in instalments shows the new schedule beside the old one.
 * Screenshots in test-results/e2e/.
 */
import { describe, expect, it } from 'vitest';
import { animationsSettled, e2eEnvironment, newPage, screenshot, staffLogin, api } from './harness';

const env = e2eEnvironment();

interface SaleRow {
  id: number;
  number: string;
  status: string;
  type: string;
  lot: { id: number; code: string };
}

describe('rescission e2e', () => {
  it('resolves a demo sale with its instalments overdue from the sale’s drawer: Resuelta, lot Disponible', async () => {
    const { page, context } = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    // A financed live sale the rules allow to resolve (the demo has late payers of 120 days).
    let target: SaleRow | undefined;
    for (let p = 1; p <= 10 && !target; p += 1) {
      const list = await api<{ data: SaleRow[] }>(page, `/api/sales?type=FINANCIADO&per_page=100&page=${p}`);
      for (const s of list.body.data) {
        if (!['INICIAL_PENDIENTE', 'EN_CUOTAS'].includes(s.status)) continue;
        const preview = await api<{ data: { allowed: boolean } }>(page, `/api/sales/${s.id}/rescission`);
        if (preview.body.data.allowed) {
          target = s;
          break;
        }
      }
    }
    expect(target, 'a demo sale with three or more overdue instalments').toBeDefined();
    const sale = target!;
    await page.goto(`/COMERCIO/ventas?q=${sale.number}`);
    const row = page.getByRole('table', { name: 'Ventas' }).getByRole('row').filter({ hasText: sale.lot.code });
    await row.waitFor();
    await row.getByRole('button', { name: /Acciones/ }).click();
    await page.getByRole('menuitem', { name: 'Ver' }).click();
    await page.getByRole('button', { name: 'Resolver contrato' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByTestId('rescind-count').waitFor();
    await dialog.getByRole('table', { name: 'Cuotas impagas' }).waitFor();
    await dialog.getByLabel('Motivo de la resolución').fill('Incumplimiento de pago de tres o más cuotas');
    await screenshot(page, 'comercio-rescission-dialog');
    // Wide enough for its table on a desktop, inside the window on a 390 px phone: no sideways scroll.
    const box = () =>
      dialog.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right, width: r.width, window: window.innerWidth, page: document.documentElement.scrollWidth };
      });
    const desktop = await box();
    expect(desktop.width).toBeGreaterThan(500);
    expect(desktop.right).toBeLessThanOrEqual(desktop.window);
    const viewport = page.viewportSize();
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(async () => (await box()).window).toBe(390);
    // The shell turns to its phone layout with a transition: measure the page once it has settled.
    await animationsSettled(page);
    await expect.poll(async () => (await box()).page).toBeLessThanOrEqual(390);
    const phone = await box();
    expect(phone.left).toBeGreaterThanOrEqual(0);
    expect(phone.right).toBeLessThanOrEqual(390);
    expect(phone.page).toBeLessThanOrEqual(390);
    await screenshot(page, 'comercio-rescission-dialog-390');
    if (viewport) await page.setViewportSize(viewport);
    await dialog.getByRole('button', { name: 'Resolver contrato' }).click();
    await page.getByText(/Resuelta: Incumplimiento de pago/).waitFor();
    await screenshot(page, 'comercio-rescission-resolved');
    const after = await api<{ data: { status: string; rescission: { paid: number; penalty: number; refund: number } } }>(
      page,
      `/api/sales/${sale.id}`,
    );
    expect(after.body.data.status).toBe('RESUELTA');
    const r = after.body.data.rescission;
    expect(r.paid).toBe(r.penalty + r.refund);
    expect((await api<{ data: { status: string } }>(page, `/api/lots/${sale.lot.id}`)).body.data.status).toBe('DISPONIBLE');
    await context.close();
  }, 120_000);

  it('shows the new schedule beside the old one in "Reprogramar"', async () => {
    const { page, context } = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    const list = await api<{ data: SaleRow[] }>(page, '/api/sales?type=FINANCIADO&status=EN_CUOTAS&per_page=5');
    const sale = list.body.data[0]!;
    await page.goto(`/COMERCIO/ventas?q=${sale.number}`);
    const row = page.getByRole('table', { name: 'Ventas' }).getByRole('row').filter({ hasText: sale.lot.code });
    await row.waitFor();
    await row.getByRole('button', { name: /Acciones/ }).click();
    await page.getByRole('menuitem', { name: 'Ver' }).click();
    await page.getByRole('button', { name: 'Reprogramar' }).click();
    const dialog = page.getByRole('dialog', { name: /Reprogramar la venta/ });
    await dialog.getByTestId('reschedule-balance').waitFor();
    const first = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    await dialog.getByLabel('Cuotas').fill('18');
    await dialog.getByLabel('Primera cuota').fill(first.split('-').reverse().join('/'));
    await dialog.getByLabel('Primera cuota').press('Enter');
    await dialog.getByRole('button', { name: 'Ver nuevo cronograma' }).click();
    await dialog.getByTestId('reschedule-total').waitFor();
    await screenshot(page, 'comercio-reschedule-dialog');
    await context.close();
  }, 120_000);
});
