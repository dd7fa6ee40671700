/**
 * lib/xlsx ("Exportar a Excel", issue "Configuración"): exceljs, imported on demand, writes a
 * workbook whose first sheet holds the header and the rows (read back with exceljs).
 */
import { describe, expect, it } from 'vitest';
import { dateCell } from '../../../src/lib/csv';
import { toXlsx, XLSX_DATE_FORMAT } from '../../../src/lib/xlsx';

describe('toXlsx', () => {
  it('writes an .xlsx (a zip) with a bold header and the rows, accents intact', async () => {
    const bytes = await toXlsx(
      'usuarios',
      ['Nombre', 'Monto'],
      [
        ['Peña, José', 1250.5],
        ['Ana "A"', null],
      ],
    );
    expect(String.fromCharCode(bytes[0]!, bytes[1]!)).toBe('PK');
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes.buffer as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('usuarios');
    expect(sheet.getRow(1).values).toEqual([undefined, 'Nombre', 'Monto']);
    expect(sheet.getRow(1).font?.bold).toBe(true);
    expect(sheet.getRow(2).values).toEqual([undefined, 'Peña, José', 1250.5]);
    expect(sheet.getCell('A3').value).toBe('Ana "A"');
  });

  it('writes text a spreadsheet would run as a formula as neutralised text (docs/security.md 30.13)', async () => {
    const bytes = await toXlsx('clientes', ['Cliente', 'Monto'], [['=HYPERLINK("http://x.example","clic")', -5]]);
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes.buffer as ArrayBuffer);
    const cell = workbook.worksheets[0]!.getCell('A2');
    expect(cell.type).toBe(ExcelJS.ValueType.String);
    expect(cell.value).toBe(`'=HYPERLINK("http://x.example","clic")`);
    expect(workbook.worksheets[0]!.getCell('B2').value).toBe(-5);
  });

  it('writes a date cell as a real Excel date of its day, shown dd/mm/yyyy; a day that is not real as an empty cell', async () => {
    const bytes = await toXlsx(
      'cuotas',
      ['Vencimiento', 'Nota'],
      [
        [dateCell('2026-03-01'), 'x'],
        [dateCell('2025-12-31'), null],
        [dateCell('2026-02-30'), null],
        [dateCell(null), null],
      ],
    );
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes.buffer as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const a2 = sheet.getCell('A2');
    expect(a2.type).toBe(ExcelJS.ValueType.Date);
    expect(a2.numFmt).toBe(XLSX_DATE_FORMAT);
    // The day itself, whatever the machine's time zone (exceljs reads the serial day as UTC midnight).
    expect((a2.value as Date).toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect((sheet.getCell('A3').value as Date).toISOString()).toBe('2025-12-31T00:00:00.000Z');
    expect(sheet.getCell('A4').value ?? '').toBe('');
    expect(sheet.getCell('A5').value ?? '').toBe('');
  });
});
