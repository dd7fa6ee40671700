/**
 * lib/xlsx ("Exportar a Excel", issue "Configuración"): exceljs, imported on demand, writes a
 * workbook whose first sheet holds the header and the rows (read back with exceljs).
 */
import { describe, expect, it } from 'vitest';
import { toXlsx } from '../../../src/lib/xlsx';

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
});
