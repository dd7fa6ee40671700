/**
 * Land uses in the engineers' own words (src/lib/proyectos/land-use-words.ts; docs/import.md "Land
 * use"): the key ignores accents, case, punctuation and spaces; a use's own name is that use; the
 * synonyms map the services and reserved areas of real ArcGIS exports; anything else has no use.
 * And the server's per-file resolution (server/modules/proyectos/lot-import/land-uses.ts): the
 * request's choice over the remembered one over the synonym, unmapped values listed first, bounded.
 */
import { describe, expect, it } from 'vitest';
import {
  canonicalLandUse,
  landUseKey,
  LAND_USE_SYNONYMS,
  readLandUseValue,
  synonymLandUse,
} from '../../../../src/lib/proyectos/land-use-words';
import { LAND_USES, MAX_IMPORT_USE_VALUES } from '../../../../src/schemas/proyectos/projects';
import { fileUseValues, listUseValues, resolveLandUses } from '../../../../server/modules/proyectos/lot-import/land-uses';
import { emptyLot, readLandUse } from '../../../../server/modules/proyectos/lot-import/types';

describe('landUseKey', () => {
  it('ignores accents, case, punctuation and extra spaces', () => {
    expect(['Educación', 'EDUCACION', ' educacion ', 'educación.', 'EDUCACIÓN'].map(landUseKey)).toEqual(Array(5).fill('EDUCACION'));
    expect(landUseKey('Club_House')).toBe('CLUB HOUSE');
    expect(landUseKey('  Área   verde (pública) ')).toBe('AREA VERDE PUBLICA');
    expect(landUseKey('Zona  Reservada\t')).toBe('ZONA RESERVADA');
    expect(landUseKey('—')).toBe('');
  });
});

describe('land-use words', () => {
  it("reads a use's own name (code or Spanish label) as that use, without a label", () => {
    for (const use of LAND_USES) expect(canonicalLandUse(landUseKey(use))).toBe(use);
    expect(readLandUseValue('Recreación / parque')).toEqual({ use: 'RECREACION', label: null });
    expect(readLandUseValue(' otros usos ')).toEqual({ use: 'OTROS_USOS', label: null });
    expect(readLandUseValue('Club house')).toEqual({ use: 'CLUB_HOUSE', label: null });
  });

  it('maps the services and reserved areas of real exports (Spanish and English) by synonym, keeping the label', () => {
    const read = (values: string[]) => values.map((v) => readLandUseValue(v));
    expect(read(['Educación', 'EDUCACION', ' educacion ', 'Colegio', 'Education']).map((v) => v.use)).toEqual(
      Array(5).fill('EQUIPAMIENTO'),
    );
    expect(read(['Comercio zonal', 'STRIP MALL', 'Strip-mall', 'Retail']).map((v) => v.use)).toEqual(Array(4).fill('COMERCIO'));
    expect(
      read(['Pozo', 'POZO TUBULAR', 'Cisterna', 'Planta de tratamiento', 'PTAR', 'Reservorio', 'Water well', 'Treatment plant']).map(
        (v) => v.use,
      ),
    ).toEqual(Array(8).fill('OTROS_USOS'));
    expect(readLandUseValue('  Planta  de tratamiento ')).toEqual({ use: 'OTROS_USOS', label: 'Planta de tratamiento' });
    expect(readLandUseValue('Vivienda Multifamiliar')).toEqual({ use: 'MULTIFAMILIAR', label: 'Vivienda Multifamiliar' });
  });

  it('leaves unknown values without a use, and blank or punctuation-only values as none given', () => {
    expect(readLandUseValue('Zona reservada')).toEqual({ use: null, label: 'Zona reservada' });
    expect(readLandUseValue('Reserved zone')).toEqual({ use: null, label: 'Reserved zone' });
    expect(readLandUseValue('x'.repeat(200)).label).toHaveLength(80);
    for (const blank of [null, undefined, '', '   ', '-', '—']) expect(readLandUseValue(blank)).toEqual({ use: null, label: null });
  });

  it('takes the word the value starts with before one found inside it, whole words only', () => {
    expect(synonymLandUse('PARQUE CON POZO')).toBe('RECREACION');
    expect(synonymLandUse('AREA DE POZO')).toBe('OTROS_USOS');
    expect(synonymLandUse('POZOS')).toBeNull();
    expect(synonymLandUse('MALLA')).toBeNull();
    // Every synonym is written as a key (else it could never match).
    for (const [word] of LAND_USE_SYNONYMS) expect(landUseKey(word)).toBe(word);
  });
});

describe('land-use values of a file (server)', () => {
  const lots = (values: string[]) =>
    values.map((value, i) => {
      const lot = emptyLot('A', String(i + 1), `fila ${i + 2}`);
      readLandUse(lot, value);
      return lot;
    });

  it('resolves each value: the request, else the remembered choice, else the synonym; lists unmapped first', () => {
    const file = lots(['Zona reservada', 'ZONA RESERVADA ', 'Pozo', 'Cementerio', 'Vivienda', 'Educación', 'Huerto']);
    const choices = {
      chosen: { CEMENTERIO: 'OTROS_USOS' as const },
      remembered: { POZO: 'RECREACION' as const, CEMENTERIO: 'VIVIENDA' as const },
    };
    resolveLandUses(file, choices);
    expect(file.map((l) => l.land_use)).toEqual([null, null, 'RECREACION', 'OTROS_USOS', 'VIVIENDA', 'EQUIPAMIENTO', null]);
    expect(fileUseValues(file, choices).map(({ key, label, lots: n, use, source }) => [key, label, n, use, source])).toEqual([
      ['ZONA RESERVADA', 'Zona reservada', 2, null, 'UNMAPPED'],
      ['HUERTO', 'Huerto', 1, null, 'UNMAPPED'],
      ['CEMENTERIO', 'Cementerio', 1, 'OTROS_USOS', 'CHOSEN'],
      ['EDUCACION', 'Educación', 1, 'EQUIPAMIENTO', 'SYNONYM'],
      ['POZO', 'Pozo', 1, 'RECREACION', 'REMEMBERED'],
    ]);
  });

  it(`lists at most ${MAX_IMPORT_USE_VALUES} values, the unmapped ones first, and counts the rest`, () => {
    const file = lots([...Array.from({ length: 150 }, (_, i) => `Uso raro ${i}`), 'Pozo', 'Pozo']);
    resolveLandUses(file);
    const listed = listUseValues(file);
    expect(listed.useValues).toHaveLength(MAX_IMPORT_USE_VALUES);
    expect(listed.useValues.every((v) => v.use === null)).toBe(true);
    expect(listed).toMatchObject({ useValuesMore: 51, useValuesUnmapped: 150 });
  });
});
