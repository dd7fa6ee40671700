/**
 * lib/csv ("Exportar a CSV", issue "Configuración"): RFC 4180 quoting, CRLF records and the UTF-8
 * BOM that makes Excel read accents.
 */
import { describe, expect, it } from 'vitest';
import { csvField, dateCell, neutralizeFormula, toCsv, UTF8_BOM } from '../../../src/lib/csv';

describe('csvField', () => {
  it('leaves plain text, numbers and booleans as they are', () => {
    expect(csvField('Lote 12')).toBe('Lote 12');
    expect(csvField(1250.5)).toBe('1250.5');
    expect(csvField(true)).toBe('true');
  });

  it('writes a date cell as dd/mm/yyyy text; a day that is not real, or none, as an empty field', () => {
    expect(csvField(dateCell('2026-03-01'))).toBe('01/03/2026');
    expect(csvField(dateCell('2026-02-30'))).toBe('');
    expect(csvField(dateCell(null))).toBe('');
  });

  it('writes null and undefined as empty fields', () => {
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
  });

  it('quotes commas', () => {
    expect(csvField('Quispe, Lucía')).toBe('"Quispe, Lucía"');
  });

  it('quotes and doubles double quotes', () => {
    expect(csvField('Lote "A"')).toBe('"Lote ""A"""');
  });

  it('quotes line breaks (LF, CRLF, CR)', () => {
    expect(csvField('línea 1\nlínea 2')).toBe('"línea 1\nlínea 2"');
    expect(csvField('a\r\nb')).toBe('"a\r\nb"');
    expect(csvField('a\rb')).toBe('"a\rb"');
  });

  it('keeps accents and ñ untouched', () => {
    expect(csvField('Señor Ñuñez, José')).toBe('"Señor Ñuñez, José"');
    expect(csvField('Áéíóú')).toBe('Áéíóú');
  });
});

describe('toCsv', () => {
  it('starts with the UTF-8 BOM and ends records with CRLF', () => {
    const text = toCsv(
      ['Nombre', 'Monto'],
      [
        ['Ana', 10],
        ['Peña, Luis', null],
      ],
    );
    expect(text.startsWith(UTF8_BOM)).toBe(true);
    expect(text).toBe('\uFEFFNombre,Monto\r\nAna,10\r\n"Peña, Luis",\r\n');
  });

  it('the BOM is encoded as EF BB BF in UTF-8', () => {
    const bytes = new TextEncoder().encode(toCsv(['a'], []));
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('can leave the BOM out', () => {
    expect(toCsv(['a', 'b'], [['1', '2']], { bom: false })).toBe('a,b\r\n1,2\r\n');
  });

  it('a field with quotes, comma and newline survives a round trip through a simple reader', () => {
    const tricky = 'Dijo "sí",\nluego se fue';
    const text = toCsv(['nota'], [[tricky]], { bom: false });
    const body = text.slice(text.indexOf('\r\n') + 2, -2); // the record between the header and the final CRLF
    expect(body.startsWith('"') && body.endsWith('"')).toBe(true);
    expect(body.slice(1, -1).replace(/""/g, '"')).toBe(tricky);
  });
});

// docs/security.md 30.13: a customer named =HYPERLINK(…) was exported as a live formula.
describe('neutralizeFormula (every export, CSV and XLSX)', () => {
  it('prefixes an apostrophe to text a spreadsheet would run as a formula', () => {
    for (const text of [
      '=HYPERLINK("http://x.example","clic")',
      '+cmd|" /C calc"!A0',
      '-2+3+cmd|" /C calc"!A0',
      '@SUM(1+1)*cmd|"/C calc"!A0',
      '\t=1',
      '\r=1',
      '＝1+1',
      '-A1',
    ])
      expect(neutralizeFormula(text)).toBe(`'${text}`);
    expect(csvField('=HYPERLINK("http://x.example","clic")')).toBe(`"'=HYPERLINK(""http://x.example"",""clic"")"`);
    expect(toCsv(['Cliente'], [['=1+1']])).toBe(`${UTF8_BOM}Cliente\r\n'=1+1\r\n`);
  });

  it('leaves names, signed numbers and phones written as text, numbers and empty cells alone', () => {
    for (const value of ['Ana Torres', 'a=b', '-12.50', '+51 987 654 321', '-(1)', 12, -5, true, null, undefined, ''])
      expect(neutralizeFormula(value)).toBe(value);
  });
});
