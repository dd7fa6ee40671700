/**
 * lib/icons (performance, issue "Foundation"): the on-demand icon loader knows every icon name the
 * app passes as a string, loads each icon's paths alone, and still serves an unlisted icon.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { Icons } from '@blueprintjs/icons';
import { loadIconPaths } from '../../../src/lib/icons';
import { ON_DEMAND_ICONS } from '../../../src/lib/icon-paths';
import { MENU_CATALOGUE } from '../../../src/schemas/menu-catalogue';

const VIEWS = path.resolve(import.meta.dirname, '../../../src/views');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

/** Icon names written as string literals in icon props, icon fields and the placeholders' module map. */
function iconLiterals(source: string): string[] {
  const names = new Set<string>();
  const quoted = /['"]([a-z0-9-]+)['"]/g;
  for (const m of source.matchAll(/\b(?:icon|leftIcon|rightIcon|endIcon)=["']([a-z0-9-]+)["']/g)) names.add(m[1]!);
  for (const m of source.matchAll(/\b(?:icon|icono)\s*:\s*["']([a-z0-9-]+)["']/g)) names.add(m[1]!);
  for (const m of source.matchAll(/\b(?:icon|leftIcon|rightIcon|endIcon)=\{([^}]*)\}/g)) {
    for (const q of m[1]!.matchAll(quoted)) names.add(q[1]!);
  }
  for (const m of source.matchAll(/MODULE_ICONS\b[^=]*=\s*\{([^}]*)\}/g)) {
    for (const q of m[1]!.matchAll(/:\s*['"]([a-z0-9-]+)['"]/g)) names.add(q[1]!);
  }
  return [...names];
}

describe('on-demand icons', () => {
  it('lists every icon of the menu catalogue', () => {
    const catalogue = MENU_CATALOGUE.flatMap((g) => [g.icono, ...g.items.map((i) => i.icono)]);
    expect(catalogue.filter((name) => !ON_DEMAND_ICONS.includes(name))).toEqual([]);
  });

  it('lists every icon name written in src/views', () => {
    const used = sourceFiles(VIEWS).flatMap((file) =>
      iconLiterals(readFileSync(file, 'utf8')).map((name) => `${name} (${path.relative(VIEWS, file)})`),
    );
    expect(used.length).toBeGreaterThan(20);
    expect(used.filter((entry) => !ON_DEMAND_ICONS.includes(entry.split(' ')[0]!))).toEqual([]);
  });

  it('lists only real Blueprint icons', () => {
    expect(ON_DEMAND_ICONS.filter((name) => !Icons.isValidIconName(name))).toEqual([]);
  });

  it('loads one icon at 16 and at 20 px', async () => {
    const small = await loadIconPaths('person', 16);
    const large = await loadIconPaths('person', 20);
    expect(small.length).toBeGreaterThan(0);
    expect(large.length).toBeGreaterThan(0);
    expect(small).not.toEqual(large);
  });

  it('still serves an icon missing from the list, with a warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const paths = await loadIconPaths('airplane', 16);
    expect(paths.length).toBeGreaterThan(0);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('"airplane"'));
    warn.mockRestore();
  });
});
