/**
 * E2E of the customer's side of issue 16 ("Customer screens"), in real Chromium against the built
 * app and the real server (temp database, demo seed): the demo customer opens Mis Compras → Detalle
 * de Compra (an overdue instalment shows its late fee) → pays the two oldest instalments by Yape with
 * a capture ("Pago enviado: queda pendiente de revisión") → staff, signed in meanwhile, get the
 * notification in real time and approve it in /FINANZAS/Pagos → the customer's statement shows both
 * instalments paid without a reload, and the receipt downloads. Screenshots in test-results/e2e/.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { customerLogin, e2eEnvironment, newPage, screenshot, setChecked, staffLogin, realtimeSubscribed } from './harness';

const env = e2eEnvironment();

/** A 1×1 PNG: the capture of the Yape payment. */
const CAPTURE = path.join(mkdtempSync(path.join(tmpdir(), 'parcela-e2e-')), 'captura-yape.png');
writeFileSync(
  CAPTURE,
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'),
);

describe('customer purchases e2e', () => {
  it('the customer pays two instalments by Yape with a capture, staff are notified and approve it, the customer sees them paid and gets the receipt', async () => {
    // Staff are signed in first: their bell must ring when the payment arrives.
    const staff = await newPage(env.browser, env.server.baseUrl);
    const staffSubscribed = realtimeSubscribed(staff.page);
    await staffLogin(staff.page, env.server.baseUrl, '70000001', 'Parcela#2026');
    await staffSubscribed;
    const badge = staff.page.getByTestId('notifications-badge');
    await expect.poll(() => badge.textContent()).toMatch(/^\d+$/);
    const unseenBefore = Number(await badge.textContent());

    const { page } = await newPage(env.browser, env.server.baseUrl);
    await customerLogin(page, env.server.baseUrl);

    // Opening the address loads the app again: its realtime connection comes back a moment after (docs/product.md §4).
    const customerSubscribed = realtimeSubscribed(page);
    await page.goto('/COMERCIO/MisCompras');
    await customerSubscribed;
    const card = page.getByRole('list', { name: 'Compras' }).getByRole('listitem').first();
    await card.getByRole('button', { name: /^Ver detalle/ }).waitFor();
    await screenshot(page, 'purchases-mis-compras');
    await card.getByRole('button', { name: /^Ver detalle/ }).click();
    await page.waitForURL(/\/COMERCIO\/DetalleCompra\?venta=\d+$/);
    const schedule = page.getByRole('table', { name: 'Cronograma' });
    // The demo customer's overdue instalment shows its state and its late fee.
    const overdue = schedule.getByRole('row').filter({ hasText: 'Vencida' }).first();
    await overdue.waitFor();
    await expect.poll(() => overdue.textContent()).toMatch(/generada S\/ [\d,.]+/);
    await screenshot(page, 'purchases-detalle');

    await page.getByRole('button', { name: 'Pagar con Yape o Plin' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pagar con Yape o Plin' });
    const boxes = dialog.getByRole('checkbox');
    await expect.poll(() => boxes.count()).toBeGreaterThan(2);
    // Oldest first: the third cannot be chosen before the second.
    expect(await boxes.nth(2).isDisabled()).toBe(true);
    await setChecked(boxes.nth(1));
    expect(await boxes.nth(2).isDisabled()).toBe(false);
    const chosen = (await dialog.locator('.pago-yape-row > span:first-child').allTextContents()).slice(0, 2).map((t) => t.split(' · ')[0]!);
    await dialog.getByRole('img', { name: /^QR de / }).waitFor();
    await dialog.getByLabel('Número de operación').fill('E2E-YAPE-01');
    await dialog.getByLabel('Captura del pago').setInputFiles(CAPTURE);
    await screenshot(page, 'purchases-pago-yape');
    await dialog.getByRole('button', { name: 'Enviar pago' }).click();
    await page.getByRole('status').filter({ hasText: 'Pago enviado: queda pendiente de revisión' }).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const payments = page.getByRole('table', { name: 'Pagos' });
    await payments.getByRole('row').filter({ hasText: 'E2E-YAPE-01' }).getByText('Pendiente de revisión').waitFor();

    // Staff get the notification in real time; it leads to the review queue, where they approve it.
    await expect.poll(async () => Number(await badge.textContent()), { timeout: 30_000 }).toBe(unseenBefore + 1);
    await staff.page.getByRole('button', { name: 'Notificaciones' }).click();
    await staff.page
      .getByRole('dialog', { name: 'Notificaciones' })
      .getByRole('button', { name: /Pago por revisar/ })
      .first()
      .click();
    await staff.page.waitForURL(/\/FINANZAS\/Pagos/);
    const queueRow = staff.page.getByRole('table', { name: 'Pagos' }).getByRole('row').filter({ hasText: 'E2E-YAPE-01' });
    await queueRow.getByRole('button', { name: /Acciones/ }).click();
    await staff.page.getByRole('menuitem', { name: 'Aprobar' }).click();
    const approve = staff.page.getByRole('dialog', { name: 'Aprobar pago' });
    await approve.getByRole('table', { name: 'Aplicación del pago' }).waitFor();
    await screenshot(staff.page, 'purchases-aprobar');
    await approve.getByRole('button', { name: 'Aprobar y aplicar' }).click();
    await approve.waitFor({ state: 'hidden' });
    await staff.context.close();

    // The customer's statement follows the approval by itself (their notification), both instalments paid; the receipt downloads.
    for (const label of chosen) {
      const row = schedule.getByRole('row').filter({ has: page.getByRole('cell', { name: label, exact: true }) });
      await expect.poll(() => row.getByRole('cell').nth(2).textContent(), { timeout: 30_000 }).toBe('Pagada');
    }
    const paidRow = payments.getByRole('row').filter({ hasText: 'E2E-YAPE-01' });
    await paidRow.getByText('Aprobado').waitFor();
    const download = page.waitForEvent('download');
    await paidRow.getByRole('button', { name: /^Descargar recibo R001-\d+$/ }).click();
    expect((await download).suggestedFilename()).toMatch(/^R001-\d{8}\.pdf$/);
    await screenshot(page, 'purchases-pagado');
  });
});
