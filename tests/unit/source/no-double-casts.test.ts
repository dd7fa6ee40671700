/**
 * Issue 10 item 2: the app's code is typed end to end — the CRUD machines are generic over their
 * rows and bodies, events are narrowed with XState's `assertEvent` or guard params — so no
 * `as unknown as` double cast is left in src/. This test reads every source file and fails,
 * naming file and line, when one comes back.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../../src');
const SOURCE_FILE = /\.(ts|tsx|mts|cts)$/;
const DOUBLE_CAST = /\bas\s+unknown\s+as\b/;

/** Every TypeScript file under `dir`, recursively. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return SOURCE_FILE.test(entry.name) ? [full] : [];
  });
}

describe('src/ has no `as unknown as`', () => {
  it('finds the source files', () => {
    expect(sourceFiles(SRC).length).toBeGreaterThan(50);
  });

  it('no file casts through unknown', () => {
    const found = sourceFiles(SRC).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (DOUBLE_CAST.test(line) ? [`${path.relative(SRC, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
