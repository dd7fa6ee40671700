/**
 * E2E of keyboard and focus (docs/decisions.md "Keyboard and focus"; WCAG 2.2 AA 2.1.1, 2.4.1,
 * 2.4.3), in real Chromium against the built app and the real server (temp database, demo seed):
 * the demo customer's payment flow driven with Tab, Enter, Space, Escape and typing only — no
 * clicks. Login (Inicio's heading takes the focus) → on a page load, the skip link "Saltar al
 * contenido" (the first Tab) → <main> → Inicio's "Pagar" (the next Tab) → Mis Compras (its
 * heading takes the focus) → a purchase's "Ver detalle" → "Pagar con Yape o Plin" → the dialog is
 * filled (operation number, date, capture) → Escape in the date calendar closes only the calendar →
 * Escape on the filled dialog asks "¿Descartar los cambios?" (Escape keeps editing; "Descartar"
 * closes) → focus is back on "Pagar con Yape o Plin". document.activeElement is checked at each
 * step. Screenshots (skip link focused, the confirm-discard alert) in test-results/e2e/.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { Temporal } from 'temporal-polyfill';
import { e2eEnvironment, newPage, screenshot } from './harness';

const env = e2eEnvironment();

/** A 1×1 PNG: the capture of the Yape payment. */
const CAPTURE = path.join(mkdtempSync(path.join(tmpdir(), 'parcela-e2e-')), 'captura-yape.png');
writeFileSync(
  CAPTURE,
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'),
);

/** Whether `locator`'s element has the keyboard focus. */
const focused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);

/** Waits until `locator`'s element has the focus (the focus may move after a render or an animation frame). */
async function expectFocused(locator: Locator): Promise<void> {
  await locator.waitFor();
  await expect.poll(() => focused(locator)).toBe(true);
}

/** Whether the focus is in the Blueprint overlay of `dialog` (the dialog or its focus traps). */
const focusInOverlayOf = (dialog: Locator) => dialog.evaluate((el) => (el.closest('.bp6-overlay') ?? el).contains(document.activeElement));

/**
 * Presses Tab (Shift+Tab when `back`) until `target` has the focus, as a keyboard user would;
 * fails after `max` presses. @returns how many presses it took.
 */
async function tabTo(page: Page, target: Locator, { max = 40, back = false } = {}): Promise<number> {
  await target.waitFor();
  for (let presses = 1; presses <= max; presses += 1) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (await focused(target)) return presses;
  }
  throw new Error(`Tab did not reach ${String(target)} in ${max} presses`);
}

describe('keyboard payment e2e', () => {
  it('the customer reaches Mis Compras by the skip link and fills the Yape payment with the keyboard only; Escape closes only the calendar, a filled dialog asks before closing, and focus returns to its button', async () => {
    const { page } = await newPage(env.browser, env.server.baseUrl);

    // Login, keyboard only.
    await page.goto('/auth/loginclientes');
    const loginTab = page.getByRole('tab', { name: 'Ingresar' });
    if ((await loginTab.getAttribute('aria-selected')) !== 'true') {
      await tabTo(page, loginTab);
      await page.keyboard.press('Enter');
      await expect.poll(() => loginTab.getAttribute('aria-selected')).toBe('true');
    }
    await tabTo(page, page.getByLabel('Número de documento'));
    await page.keyboard.type('45454545');
    await tabTo(page, page.getByLabel('Contraseña', { exact: true }));
    await page.keyboard.type('Cliente#2026');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${env.server.baseUrl}/`);

    // Logging in is a navigation: Inicio's heading has the focus.
    const main = page.getByRole('main');
    await expectFocused(main.getByRole('heading', { level: 1 }));

    // On a page load, the first Tab of the shell reaches the skip link, shown while focused; Enter moves focus to <main>.
    await page.reload();
    await main.getByRole('heading', { level: 1 }).waitFor();
    const skip = page.getByRole('link', { name: 'Saltar al contenido' });
    await skip.waitFor({ state: 'attached' });
    await page.keyboard.press('Tab');
    await expectFocused(skip);
    const box = await skip.boundingBox();
    expect(box && box.y >= 0 && box.height > 0).toBe(true);
    await screenshot(page, 'keyboard-skip-link');
    await page.keyboard.press('Enter');
    await expectFocused(main);

    // From <main>, Inicio's summary comes first — its "Pagar" is the first Tab (docs/dashboard.md "The
    // customer's Inicio") — and Mis Compras (the module link) a few Tabs later, not the top bar's and the menu's.
    expect(await tabTo(page, main.getByRole('link', { name: 'Pagar' }), { max: 1 })).toBe(1);
    const misCompras = main.getByRole('link', { name: 'Mis Compras' });
    expect(await tabTo(page, misCompras, { max: 8 })).toBeLessThanOrEqual(8);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/COMERCIO\/MisCompras$/i);
    // After the navigation the new page's heading has the focus.
    await expectFocused(main.getByRole('heading', { level: 1, name: 'Mis Compras' }));

    const detail = main
      .getByRole('list', { name: 'Compras' })
      .getByRole('listitem')
      .first()
      .getByRole('button', { name: /^Ver detalle/ });
    await tabTo(page, detail);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/COMERCIO\/DetalleCompra\?venta=\d+$/);
    await expectFocused(main.getByRole('heading', { level: 1 }));

    const pay = main.getByRole('button', { name: 'Pagar con Yape o Plin' });
    await expect.poll(() => pay.isEnabled()).toBe(true);
    await tabTo(page, pay);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Pagar con Yape o Plin' });
    await dialog.waitFor();
    // Blueprint puts the focus at the start of the dialog's overlay (its focus trap): the next Tab is inside.
    await expect.poll(() => focusInOverlayOf(dialog)).toBe(true);

    // Fill the dialog: the operation number, the date (typed; its calendar opens on focus), the capture (Space on "Examinar").
    await tabTo(page, dialog.getByLabel('Número de operación'));
    await page.keyboard.type('E2E-TECLADO-01');
    const date = dialog.getByLabel('Fecha de la operación');
    await tabTo(page, date);
    await expect.poll(() => date.getAttribute('aria-expanded')).toBe('true');
    await page.locator('.bp6-datepicker').waitFor();
    // Yesterday in Lima (the field shows today): the amount is figured again for that day.
    const yesterday = Temporal.Now.plainDateISO('America/Lima').subtract({ days: 1 });
    const typed = `${String(yesterday.day).padStart(2, '0')}/${String(yesterday.month).padStart(2, '0')}/${yesterday.year}`;
    await page.keyboard.press('Control+A');
    await page.keyboard.type(typed);

    // Escape in the date field: only the calendar closes; the dialog and what was typed stay, the field keeps the focus.
    await page.keyboard.press('Escape');
    await page.locator('.bp6-datepicker').waitFor({ state: 'detached' });
    expect(await dialog.isVisible()).toBe(true);
    await expectFocused(date);
    expect(await dialog.getByLabel('Número de operación').inputValue()).toBe('E2E-TECLADO-01');

    // The capture: Tab to the file field, Space opens the file chooser.
    const voucher = dialog.getByLabel('Captura del pago');
    await tabTo(page, voucher);
    const chooser = page.waitForEvent('filechooser');
    await page.keyboard.press('Space');
    await (await chooser).setFiles(CAPTURE);
    await dialog.getByText('captura-yape.png').waitFor();
    await expectFocused(voucher);
    expect(await date.inputValue()).toBe(typed);
    await dialog
      .getByLabel('Monto a pagar')
      .getByText(/^S\/ [\d,.]+$/)
      .waitFor();

    // Escape on the filled dialog asks first; Escape on the question keeps editing.
    await page.keyboard.press('Escape');
    const alert = page.getByRole('alertdialog');
    await alert.getByText('¿Descartar los cambios?').waitFor();
    await alert.getByText('Hay datos sin guardar. ¿Desea descartarlos?').waitFor();
    await expect.poll(() => focusInOverlayOf(alert)).toBe(true);
    await screenshot(page, 'keyboard-confirm-discard');
    await page.keyboard.press('Escape');
    await alert.waitFor({ state: 'detached' });
    expect(await dialog.isVisible()).toBe(true);
    expect(await dialog.getByLabel('Número de operación').inputValue()).toBe('E2E-TECLADO-01');
    await expect.poll(() => focusInOverlayOf(dialog)).toBe(true);

    // Escape again, then "Descartar": the dialog closes and focus is back on "Pagar con Yape o Plin".
    await page.keyboard.press('Escape');
    const discard = alert.getByRole('button', { name: 'Descartar' });
    await discard.waitFor();
    if (!(await focused(discard))) await tabTo(page, discard, { max: 4 });
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await expectFocused(pay);
  });
});
