import { parse } from 'regexparam';
import type { Parser } from 'wouter';

/**
 * Case-insensitive route parser for wouter (issue "Foundation"; docs/product.md §2: the route table writes
 * /CONFIGURACION/usuarios, the menu /Configuracion/Usuarios, and both must open the same screen).
 * Wraps regexparam's `parse` and makes the pattern ignore case; results are cached per pattern.
 */
const cache = new Map<string, { pattern: RegExp; keys: string[] }>();

export const caseInsensitiveParser = ((route: string, loose?: boolean): { pattern: RegExp; keys: string[] } => {
  const key = `${loose ? 'L' : 'S'}${route}`;
  let hit = cache.get(key);
  if (!hit) {
    const { pattern, keys } = parse(route, loose);
    const flags = pattern.flags.includes('i') ? pattern.flags : `${pattern.flags}i`;
    hit = { pattern: new RegExp(pattern.source, flags), keys };
    cache.set(key, hit);
  }
  return hit;
}) satisfies Parser;
