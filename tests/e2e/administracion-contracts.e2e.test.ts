/**
 * E2E of a sale's contract (docs/domain.md "Contract templates", "Contracts"), in real Chromium
 * against the built app and the real server (temp database, demo seed): the administrator writes
 * and publishes a template for the subdivision and kind of a demo sale in Generar Contrato →
 * Plantillas, opens the sale in Comercial → Ventas and follows its "Contrato" button, creates the
 * draft, sees the preview filled with the sale's data, supplies the value the company lacks (the
 * representative's DNI, which the test clears first: the demo company has it), issues it (number C-YYYY-NNNNNN, the PDF downloads and names the buyer),
 * uploads the signed scan (a PNG) → Firmado, and finds it Firmado in Registro de Contratos.
 * Screenshots in test-results/e2e/ (and under SHOTS_DIR when set).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { extractText, getDocumentProxy } from 'unpdf';
import { formatMoney } from '../../src/lib/money';
import { SCREENSHOTS, animationsSettled, api, e2eEnvironment, newPage, screenshot, staffLogin, openFromMenu } from './harness';

const env = e2eEnvironment();

/** CRC-32 of PNG chunks (ISO 3309, as zlib's). */
function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** A small grey RGB PNG of `width` × `height` px: the "scan" of the signed contract. */
function pngScan(width = 40, height = 56): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter method, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0xc8)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Saves a screenshot in test-results/e2e/ and, when SHOTS_DIR is set, there too. */
async function shot(page: Page, name: string) {
  await screenshot(page, name);
  if (process.env.SHOTS_DIR) {
    mkdirSync(process.env.SHOTS_DIR, { recursive: true });
    await page.screenshot({ path: path.join(process.env.SHOTS_DIR, `${name}.png`), fullPage: true });
  }
}

/** The calendar year in Lima (contract numbers are counted per Lima year). */
const limaYear = () => new Intl.DateTimeFormat('en', { timeZone: 'America/Lima', year: 'numeric' }).format(new Date());

interface SaleRow {
  id: number;
  number: string;
  type: string;
  final_price: number;
  lot: { code: string; subdivision_name: string };
  holders: { role: string; display_name: string }[];
}

describe('contratos e2e', () => {
  it('generates and signs a contract from a sale: template published, preview, missing value, issue, PDF, signed scan, register', async () => {
    const { page, context } = await newPage(env.browser, env.server.baseUrl);
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    // The company lacks its representative's DNI (the demo has it: Configuración → Empresas clears it).
    const company = await api<{ data: { version: number } }>(page, '/api/company');
    const cleared = await api<{ data: { legal_representative_dni: string | null } }>(page, '/api/company', {
      method: 'PATCH',
      body: { legal_representative_dni: null, version: company.body.data.version },
    });
    expect(cleared.body.data.legal_representative_dni).toBeNull();
    // A demo sale in instalments (a FINANCIADO sale takes a "Compraventa a plazos" contract).
    const sales = await api<{ data: SaleRow[] }>(page, '/api/sales?type=FINANCIADO&status=EN_CUOTAS&per_page=1&sort=-sale_date');
    const sale = sales.body.data[0]!;
    const buyer = sale.holders.find((h) => h.role === 'TITULAR')!.display_name;

    // Generar Contrato → Plantillas: a template for the sale's subdivision and kind, published.
    await openFromMenu(page, 'Administración', 'Generar Contrato');
    await page.getByRole('heading', { name: 'Generar Contrato' }).waitFor();
    await page.getByRole('button', { name: 'Nueva plantilla' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nueva plantilla' });
    await dialog.getByLabel('Lotización').selectOption({ label: sale.lot.subdivision_name });
    await dialog.getByLabel('Tipo de documento').selectOption({ label: 'Compraventa a plazos (reserva de propiedad)' });
    await dialog.getByLabel('Nombre').fill('Compraventa a plazos e2e');
    await dialog.getByRole('button', { name: 'Crear' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const doc = page.getByRole('textbox', { name: 'Contenido de la plantilla' });
    await expect.poll(() => doc.getAttribute('contenteditable')).toBe('true');
    await doc.click();
    await page.keyboard.press('Control+End');
    const listbox = page.getByRole('listbox', { name: 'Variables' });
    /** Types "@query", waits for the variable `key` to lead the menu (label, then key), picks it with Enter. */
    const variable = async (query: string, label: string, key: string) => {
      await page.keyboard.type(`@${query}`);
      await expect.poll(() => listbox.getByRole('option').first().textContent()).toBe(`${label}${key}`);
      await page.keyboard.press('Enter');
      await listbox.waitFor({ state: 'hidden' });
      await doc.locator(`[data-variable="${key}"]`).waitFor();
    };
    await page.keyboard.type('PRIMERA: El vendedor es ');
    await variable('razon', 'Razón social', 'empresa.razon_social');
    await page.keyboard.type('representado por su apoderado con DNI ');
    await variable('representante_dni', 'DNI del representante', 'empresa.representante_dni');
    await page.keyboard.press('Enter');
    await page.keyboard.type('SEGUNDA: El comprador es ');
    await variable('comprador.nombre', 'Nombre del titular', 'comprador.nombre');
    await page.keyboard.type('identificado con ');
    await variable('comprador.documento', 'DNI/RUC del titular', 'comprador.documento');
    await page.keyboard.press('Enter');
    await page.keyboard.type('TERCERA: El precio del lote ');
    await variable('lote.numero', 'Número de lote', 'lote.numero');
    await page.keyboard.type('es ');
    await variable('venta.precio', 'Precio', 'venta.precio');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Cambios sin guardar').waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Publicar' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Publicar' }).click();
    await page.getByText('Versión publicada: solo lectura').waitFor();

    // Comercial → Ventas: the sale's drawer, "Contrato" → Generar Contrato with the sale.
    await page.goto(`/COMERCIO/ventas?q=${sale.number}`);
    const row = page.getByRole('table', { name: 'Ventas' }).getByRole('row').filter({ hasText: sale.lot.code });
    await row.getByRole('button', { name: /Acciones/ }).click();
    await page.getByRole('menuitem', { name: 'Ver' }).click();
    await page.getByRole('button', { name: 'Contrato', exact: true }).click();
    await page.waitForURL(new RegExp(`/ADMINISTRACION/GenerarContrato\\?venta=${sale.id}$`, 'i'));
    const panel = page.getByRole('region', { name: 'Generar contrato' });
    await panel.getByRole('heading', { name: `Venta ${sale.number}` }).waitFor();
    await expect
      .poll(() => panel.getByLabel('Plantilla').locator('option:checked').textContent())
      .toBe('Compraventa a plazos e2e (versión 1)');
    await panel.getByRole('button', { name: 'Crear borrador' }).click();

    // The preview: the sale's data, and the value the company lacks marked and asked for.
    const preview = panel.getByLabel('Vista previa del contrato');
    await preview.getByText(buyer).first().waitFor();
    await preview.getByText('Falta: DNI del representante').waitFor();
    await preview.getByText(formatMoney(sale.final_price, 'PEN')).first().waitFor();
    const values = panel.getByRole('form', { name: 'Datos del contrato' });
    await values.getByRole('heading', { name: 'Datos faltantes' }).waitFor();
    expect(await panel.getByRole('button', { name: 'Emitir' }).isDisabled()).toBe(true);
    await values.getByLabel('DNI del representante').fill('40506070');
    await values.getByRole('button', { name: 'Guardar datos' }).click();
    await preview.getByText('Falta: DNI del representante').waitFor({ state: 'detached' });
    await preview.getByText(/40506070/).waitFor();
    // The A4 page starts inside the preview (a page wider than the column scrolls; none of it out of reach on the left).
    const firstPage = preview.getByRole('article', { name: /^Página 1 de/ });
    expect((await firstPage.boundingBox())!.x).toBeGreaterThanOrEqual((await preview.boundingBox())!.x);
    await animationsSettled(page);
    await shot(page, 'contratos-generar-vista-previa');

    // "Emitir": the number C-YYYY-NNNNNN, the PDF downloads and names the buyer.
    const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Emitir' }).click()]);
    const numberText = panel.getByText(new RegExp(`^C-${limaYear()}-\\d{6}$`));
    await numberText.waitFor();
    const number = (await numberText.textContent())!;
    expect(download.suggestedFilename()).toBe(`${number}.pdf`);
    mkdirSync(SCREENSHOTS, { recursive: true });
    const pdfPath = path.join(SCREENSHOTS, 'contratos-emitido.pdf');
    await download.saveAs(pdfPath);
    const bytes = readFileSync(pdfPath);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
    expect(text.replace(/\s+/g, ' ')).toContain(buyer);
    expect(text).toContain('40506070');
    await panel.getByText('Emitido', { exact: true }).waitFor();

    // The signed scan → Firmado.
    await panel
      .getByLabel('Subir contrato firmado')
      .setInputFiles({ name: 'contrato-firmado.png', mimeType: 'image/png', buffer: pngScan() });
    await panel.getByText('Firmado', { exact: true }).waitFor();
    await panel.getByRole('button', { name: 'Descargar firmado' }).waitFor();
    expect(await panel.getByLabel('Subir contrato firmado').count()).toBe(0);

    // Registro de Contratos: the contract, Firmado.
    await openFromMenu(page, 'Administración', 'Registro de Contratos');
    await page.getByRole('heading', { name: 'Registro de Contratos' }).waitFor();
    const register = page.getByRole('table', { name: 'Contratos' });
    const contractRow = register.getByRole('row').filter({ hasText: number });
    await contractRow.waitFor();
    expect(await contractRow.textContent()).toContain(sale.number);
    expect(await contractRow.textContent()).toContain(buyer);
    await contractRow.getByText('Firmado', { exact: true }).waitFor();
    await animationsSettled(page);
    await shot(page, 'contratos-registro');
    await context.close();
  }, 240_000);
});
