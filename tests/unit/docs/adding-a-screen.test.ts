import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/adding-a-screen.md lists the exact files a new screen touches (issue "One place per
 * screen" item 9): every concrete path it names in backticks must exist, so the page cannot drift
 * from the code unnoticed. Paths with placeholders (`<modulo>`, `00NN`) are templates, not checked.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const DOC = readFileSync(path.join(ROOT, 'docs/adding-a-screen.md'), 'utf8');

/** Backticked paths under src/, server/, tests/ or docs/ without placeholders. */
function namedPaths(text: string): string[] {
  const paths = new Set<string>();
  for (const [, inside] of text.matchAll(/`([^`\n]+)`/g)) {
    const candidate = inside!.trim();
    if (!/^(src|server|tests|docs)\//.test(candidate)) continue;
    if (/[<>{}*]|00NN|\s/.test(candidate)) continue;
    paths.add(candidate.replace(/[.,;:]$/, ''));
  }
  return [...paths];
}

describe('docs/adding-a-screen.md', () => {
  const paths = namedPaths(DOC);

  it('names the files of the screen table, the machine registry, the server modules and the contracts', () => {
    for (const wanted of [
      'src/config/screens.ts',
      'src/machines/screen-machines.ts',
      'server/modules/index.ts',
      'src/views/historial/labels.ts',
      'server/testing/fixtures.ts',
    ]) {
      expect(paths).toContain(wanted);
    }
  });

  it.each(namedPaths(DOC))('%s exists', (named) => {
    expect(existsSync(path.join(ROOT, named)), named).toBe(true);
  });
});
