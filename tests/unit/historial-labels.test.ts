/**
 * Spanish labels and values of the change-history diff, and their coverage: every entity the
 * server audits (the `entity` of each `recordChange(...)` call in server/, plus the Proyectos
 * tables) has a Spanish label, so the "Entidad" column and filter never show a table name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTITY_LABELS, FIELD_LABELS, entityLabel, fieldLabel, showValue } from '../../src/views/historial/labels';

const SERVER_DIR = path.resolve(import.meta.dirname, '../../server');

/** Tables of Proyectos audited by the server (issue "Proyectos"), whether or not their routes exist yet. */
const PROJECT_ENTITIES = ['subdivisions', 'stages', 'blocks', 'lots'];

/** Every .ts file under `dir`, recursively. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The string values of `const NAME = { ... }` in `source` (e.g. ACCOUNT_ENTITY's table names), or null. */
function stringValuesOfConst(source: string, name: string): string[] | null {
  const match = new RegExp(`const\\s+${name}\\s*=\\s*\\{([^}]*)\\}`).exec(source);
  return match ? [...match[1]!.matchAll(/:\s*['"]([a-z_]+)['"]/g)].map((m) => m[1]!) : null;
}

/**
 * The entities passed to `recordChange(...)` across server/: quoted literals, or the string values
 * of a constant object indexed in the same file (`ACCOUNT_ENTITY[userType]`).
 * @returns the entity names and the calls whose entity could not be read (file:line and text).
 */
function auditedEntities(): { entities: Set<string>; unreadable: string[] } {
  const entities = new Set<string>();
  const unreadable: string[] = [];
  for (const file of tsFiles(SERVER_DIR)) {
    const source = readFileSync(file, 'utf8');
    for (const call of source.matchAll(/(?<!function\s)\brecordChange\(/g)) {
      const line = source.slice(0, call.index).split('\n').length;
      const where = `${path.relative(SERVER_DIR, file)}:${line}`;
      // The change object is the third argument; its `entity` comes within the next few lines.
      const window = source.slice(call.index, call.index + 600);
      const value = /\bentity:\s*([^,}\n]+)/.exec(window)?.[1]?.trim();
      const literal = value ? /^['"`]([a-z_]+)['"`]$/.exec(value) : null;
      const indexed = value ? /^([A-Z_]+)\[/.exec(value) : null;
      const values = indexed ? stringValuesOfConst(source, indexed[1]!) : null;
      if (literal) entities.add(literal[1]!);
      else if (values && values.length > 0) values.forEach((v) => entities.add(v));
      else unreadable.push(`${where} entity: ${value ?? '(none found)'}`);
    }
  }
  return { entities, unreadable };
}

describe('change-history labels', () => {
  it('names entities and fields in Spanish, raw names otherwise', () => {
    expect(entityLabel('users')).toBe('Usuario');
    expect(entityLabel('lots')).toBe('Lote');
    expect(entityLabel('unknown_table')).toBe('unknown_table');
    expect(fieldLabel('surname')).toBe('Apellidos');
    expect(fieldLabel('x_y')).toBe('x_y');
  });

  it('labels the Proyectos entities and their fields', () => {
    expect([entityLabel('subdivisions'), entityLabel('stages'), entityLabel('blocks'), entityLabel('lots')]).toEqual([
      'Lotización',
      'Etapa',
      'Manzana',
      'Lote',
    ]);
    expect(fieldLabel('total_area_m2')).toBe('Área total (m²)');
    expect(fieldLabel('licence_number')).toBe('N.º de licencia');
    expect(fieldLabel('front_neighbour')).toBe('Colinda por el frente');
    expect(fieldLabel('price_per_m2')).toBe('Precio por m²');
    expect(fieldLabel('facing_park')).toBe('Frente a parque');
    expect(fieldLabel('notes')).toBe('Observaciones');
    expect(Object.values(FIELD_LABELS).every((label) => label.trim() !== '')).toBe(true);
  });

  it('every entity the server audits has a Spanish label', () => {
    const { entities, unreadable } = auditedEntities();
    // Sanity: the scan finds the known calls (users via ACCOUNT_ENTITY too).
    expect([...entities]).toEqual(expect.arrayContaining(['users', 'roles', 'customers', 'companies', 'locals']));
    expect(unreadable, 'recordChange calls whose entity is not a literal: name the table there or teach this test').toEqual([]);
    const missing = [...entities, ...PROJECT_ENTITIES].filter((entity) => !(entity in ENTITY_LABELS));
    expect(missing, 'audited entities without a Spanish label in src/views/historial/labels.ts').toEqual([]);
  });

  it('shows values as people read them', () => {
    const instant = (iso: string) => `<${iso}>`;
    expect(showValue(null, instant)).toBe('—');
    expect(showValue(true, instant)).toBe('Sí');
    expect(showValue(false, instant)).toBe('No');
    expect(showValue('2026-11-22T14:21:26.105Z', instant)).toBe('<2026-11-22T14:21:26.105Z>');
    expect(showValue('1990-05-14', instant)).toBe('14/05/1990');
    expect(showValue([3, 4], instant)).toBe('3, 4');
    expect(showValue({ a: 1 }, instant)).toBe('{"a":1}');
    expect(showValue('Lucía', instant)).toBe('Lucía');
  });
});
