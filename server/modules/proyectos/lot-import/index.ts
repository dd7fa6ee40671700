import { coordinatesWithinLimits, LIMIT_MESSAGES, LIMITS, listPriceWithinLimit, withinLimit } from '../../../../src/schemas/limits';
import {
  lotCode,
  MAX_IMPORT_DUPLICATES,
  type ImportDuplicate,
  type ImportFormat,
  type ImportIssue,
  type ImportIssueKind,
  type ImportResolution,
} from '../../../../src/schemas/proyectos/projects';
import { cleanRing, geoDistance, OVERLAP_ERROR_M2, overlappingPairs } from './geometry';
import { listUseValues, resolveLandUses, type LandUseChoices } from './land-uses';
import { looksLikeDxf, parseDxf, parseGeoJson } from './spatial';
import { parseCsv, parseXlsx } from './table';
import { issue, kindOf, validateBlockAndNumber, type ParsedLot, type ParseResult } from './types';

export type { ParsedLot, ParseResult } from './types';
export type { LandUseChoices } from './land-uses';

/**
 * Lot import: reads a CSV, XLSX, GeoJSON or DXF file and checks it (issue "Proyectos" → Import;
 * docs/import.md). Pure: no database. The route adds the comparison with the subdivision's lots.
 */

/** What the check of a file depends on besides its bytes (see {@link readImportFile}). */
export interface ImportCheckOptions {
  resolutions?: readonly ImportResolution[];
  overlapLimitM2?: number;
  /** Uses of the file's land-use values: the request's and the subdivision's remembered ones (./land-uses.ts). */
  landUses?: LandUseChoices;
}

/** Most lots one file may hold (the preview answer's bound). */
export const MAX_IMPORT_LOTS = 20_000;
/** Declared vs drawn area difference above which a WARNING is raised (1 %). */
export const AREA_TOLERANCE = 0.01;

/**
 * The file's format from its bytes, the name's extension only breaking ties (CSV vs text).
 * @returns the format, or null when it is none of the four.
 */
export function detectFormat(bytes: Buffer, filename: string): ImportFormat | null {
  const ext = filename.toLowerCase().split('.').pop() ?? '';
  if (bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return 'XLSX';
  const head = bytes.subarray(0, 4096);
  if (head.includes(0)) return null; // binary, not one of ours
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  if (looksLikeDxf(text)) return 'DXF';
  if (/^\s*\{/.test(text)) return 'GEOJSON';
  if (ext === 'dxf' || ext === 'geojson' || ext === 'json' || ext === 'xlsx') return null;
  if (ext === 'csv' || ext === 'txt' || /[,;\t]/.test(text.split(/\r?\n/)[0] ?? '')) return 'CSV';
  return null;
}

/** Spanish message for a file that is none of the formats (mentions the extension's format). */
function unknownFormatMessage(filename: string): string {
  const ext = filename.toLowerCase().split('.').pop() ?? '';
  if (ext === 'dxf') return 'El archivo no es un DXF válido (se espera un DXF ASCII de AutoCAD)';
  if (ext === 'geojson' || ext === 'json') return 'El archivo no es un GeoJSON válido';
  if (ext === 'xlsx') return 'El archivo no es un libro de Excel (.xlsx) válido';
  return 'Formato de archivo no reconocido: use CSV, XLSX, GeoJSON o DXF';
}

/** The ERROR of a file with more than {@link MAX_IMPORT_LOTS} lots. */
function tooManyLots(): ImportIssue {
  return issue('ERROR', 'archivo', `El archivo tiene más de ${formatCount(MAX_IMPORT_LOTS)} lotes`, { field: 'file', kind: 'FILE' });
}

/** Issues of one kind reported before the rest are summarised as "y N más" (issue 11 item 1). */
export const MAX_ISSUES_PER_KIND = 100;

/**
 * Checks across lots: duplicated codes (ERROR), overlapping polygons (ERROR above `overlapLimitM2`
 * m² in common — the subdivision's setting, 0.05 by default —, WARNING below; shared edges are
 * fine: tolerance 1 cm in plans, ~1 cm in degrees for lon/lat), declared vs drawn area > 1 %
 * (WARNING). O(n log n) (flatbush for overlaps). Bounded: at most {@link MAX_ISSUES_PER_KIND} of
 * each kind, then one "y N más" issue (overlaps: the search stops there, so the message says "más
 * de"); a file over {@link MAX_IMPORT_LOTS} lots is refused without the overlap search.
 */
export function checkLots(result: ParseResult, overlapLimitM2: number = OVERLAP_ERROR_M2): ImportIssue[] {
  const issues: ImportIssue[] = [];
  const seen = new Map<string, string>();
  let duplicates = 0;
  let areaWarnings = 0;
  for (const lot of result.lots) {
    const first = seen.get(lot.code);
    if (first !== undefined) {
      duplicates += 1;
      if (duplicates <= MAX_ISSUES_PER_KIND) {
        issues.push(
          issue('ERROR', lot.location, `Código repetido: ${lot.code} ya aparece en ${first}`, { lot_code: lot.code, kind: 'DUPLICATE' }),
        );
      }
    } else seen.set(lot.code, lot.location);
    if (lot.declared_area_m2 !== null && lot.drawn_area_m2 !== null && lot.drawn_area_m2 > 0) {
      const diff = Math.abs(lot.declared_area_m2 - lot.drawn_area_m2) / lot.drawn_area_m2;
      if (diff > AREA_TOLERANCE) {
        areaWarnings += 1;
        if (areaWarnings <= MAX_ISSUES_PER_KIND) {
          issues.push(
            issue(
              'WARNING',
              lot.location,
              `El área declarada (${lot.declared_area_m2.toFixed(2)} m²) difiere ${(diff * 100).toFixed(1)} % del área dibujada (${lot.drawn_area_m2.toFixed(2)} m²)`,
              { lot_code: lot.code, field: 'area_m2', kind: 'AREA' },
            ),
          );
        }
      }
    }
  }
  if (duplicates > MAX_ISSUES_PER_KIND) {
    issues.push(
      issue('ERROR', 'archivo', `y ${formatCount(duplicates - MAX_ISSUES_PER_KIND)} códigos repetidos más`, {
        field: 'file',
        kind: 'DUPLICATE',
        more: duplicates - MAX_ISSUES_PER_KIND,
      }),
    );
  }
  if (areaWarnings > MAX_ISSUES_PER_KIND) {
    issues.push(
      issue(
        'WARNING',
        'archivo',
        `y ${formatCount(areaWarnings - MAX_ISSUES_PER_KIND)} lotes más con el área declarada distinta de la dibujada`,
        {
          field: 'area_m2',
          kind: 'AREA',
          more: areaWarnings - MAX_ISSUES_PER_KIND,
        },
      ),
    );
  }
  if (result.lots.length > MAX_IMPORT_LOTS) {
    issues.push(tooManyLots());
    return issues;
  }
  const shapes = [
    ...result.lots
      .filter((l) => l.polygon !== null)
      .map((l) => ({ ring: l.polygon!, location: l.location, code: l.code as string | null })),
    ...(result.strayRings ?? []).map((s) => ({ ...s, code: null })),
  ];
  const geographic = result.coordinateSystem === 'GEO';
  const tolerance = geographic ? 1e-7 : 0.01;
  const name = (s: (typeof shapes)[number]) => s.code ?? `la polilínea ${s.location.replace(/^.*polilínea /, '')}`;
  const pairs = overlappingPairs(
    shapes.map((s) => s.ring),
    { tolerance, geographic, errorArea: overlapLimitM2, limit: MAX_ISSUES_PER_KIND + 1 },
  );
  let overlaps = 0;
  let slivers = 0;
  for (const { i, j, area_m2 } of pairs) {
    const a = shapes[i]!,
      b = shapes[j]!;
    const subject = b.code ? `El lote ${b.code}` : 'La polilínea';
    if (area_m2 > overlapLimitM2) {
      if (++overlaps <= MAX_ISSUES_PER_KIND) {
        issues.push(
          issue('ERROR', b.location, `${subject} se superpone con ${name(a)} (${formatArea(area_m2)} m² en común)`, {
            lot_code: b.code,
            kind: 'OVERLAP',
          }),
        );
      }
    } else if (++slivers <= MAX_ISSUES_PER_KIND) {
      issues.push(
        issue(
          'WARNING',
          b.location,
          `${subject} comparte ${formatArea(area_m2)} m² con ${name(a)} (hasta ${formatArea(overlapLimitM2)} m²: se acepta)`,
          {
            lot_code: b.code,
            kind: 'SLIVER',
          },
        ),
      );
    }
  }
  if (overlaps > MAX_ISSUES_PER_KIND) {
    issues.push(
      issue(
        'ERROR',
        'archivo',
        `Hay más de ${MAX_ISSUES_PER_KIND} superposiciones; se dejó de buscar: corrija estas y vuelva a comprobar el archivo`,
        { field: 'file', kind: 'OVERLAP' },
      ),
    );
  }
  if (slivers > MAX_ISSUES_PER_KIND) {
    issues.push(
      issue(
        'WARNING',
        'archivo',
        `y ${formatCount(slivers - MAX_ISSUES_PER_KIND)} contactos más de hasta ${formatArea(overlapLimitM2)} m²`,
        {
          field: 'file',
          kind: 'SLIVER',
          more: slivers - MAX_ISSUES_PER_KIND,
        },
      ),
    );
  }
  return issues;
}

/** Square metres for a message: 0.66, 0.003 (three decimals under 0.01 m², so a small area is not "0.00"). */
function formatArea(m2: number): string {
  return m2 < 0.01 ? m2.toFixed(3) : m2.toFixed(2);
}

/** Metres for a message, two decimals. */
function formatLength(m: number): string {
  return m.toFixed(2);
}

/**
 * Cleans every lot's polygon before the checks (issue 13 item 1; {@link cleanRing}): repeated
 * vertices and zero-area back-tracking spikes are removed from `lot.polygon` (so the preview, the
 * database and the maps get the clean ring), and each lot that had a spike gets a WARNING naming
 * it ("se eliminó una punta de 0.66 m en MZ AD - LT 11") — never an error. Stray rings (polylines
 * without a lot) are cleaned too, silently, so their overlap check sees the clean shape.
 * @returns the warnings (at most {@link MAX_ISSUES_PER_KIND}, then one "y N más")
 */
export function cleanLots(result: ParseResult): ImportIssue[] {
  const geographic = result.coordinateSystem === 'GEO';
  const tolerance = geographic ? 1e-7 : 0.01;
  const issues: ImportIssue[] = [];
  let cleaned = 0;
  for (const lot of result.lots) {
    if (!lot.polygon) continue;
    const { ring, spikes } = cleanRing(lot.polygon, tolerance, geographic ? geoDistance : undefined);
    if (ring.length >= 3) lot.polygon = ring;
    if (spikes.length === 0) continue;
    cleaned += 1;
    if (cleaned > MAX_ISSUES_PER_KIND) continue;
    const what =
      spikes.length === 1
        ? `una punta de ${formatLength(spikes[0]!)} m`
        : `${spikes.length} puntas (la mayor de ${formatLength(Math.max(...spikes))} m)`;
    issues.push(
      issue('WARNING', lot.location, `Se eliminó ${what} en ${lot.code}: el contorno iba y volvía por la misma línea`, {
        lot_code: lot.code,
        kind: 'SPIKE',
      }),
    );
  }
  for (const stray of result.strayRings ?? []) {
    const { ring } = cleanRing(stray.ring, tolerance);
    if (ring.length >= 3) stray.ring = ring;
  }
  if (cleaned > MAX_ISSUES_PER_KIND) {
    issues.push(
      issue('WARNING', 'archivo', `y ${formatCount(cleaned - MAX_ISSUES_PER_KIND)} lotes más con puntas eliminadas`, {
        field: 'file',
        kind: 'SPIKE',
        more: cleaned - MAX_ISSUES_PER_KIND,
      }),
    );
  }
  return issues;
}

/**
 * Applies the shared numeric limits (src/schemas/limits.ts; issue 11 item 2) to every parsed lot:
 * areas (declared and drawn) and lengths finite and within their maxima, the stored area above 0
 * once rounded to 2 decimals (docs/security.md 30.11), price per m² and list
 * price (area × price) within LIMITS.maxCents, every vertex finite and within
 * LIMITS.maxAbsCoordinate. A lot breaking any is dropped from `result.lots` (so nothing infinite
 * reaches the preview or the database) and gets an ERROR issue per broken rule.
 */
export function enforceLimits(result: ParseResult): void {
  const kept: ParsedLot[] = [];
  for (const lot of result.lots) {
    const problems: Array<{ field: string; message: string }> = [];
    if (lot.polygon && !coordinatesWithinLimits(lot.polygon))
      problems.push({ field: 'polygon', message: LIMIT_MESSAGES.coordinatesOutOfRange });
    else {
      for (const area of [lot.area_m2, lot.declared_area_m2, lot.drawn_area_m2]) {
        if (area !== null && !withinLimit(area, LIMITS.maxAreaM2)) {
          problems.push({ field: 'area_m2', message: Number.isFinite(area) ? LIMIT_MESSAGES.areaTooLarge : LIMIT_MESSAGES.notANumber });
          break;
        }
      }
      // Areas are rounded to 2 decimals when read: 0.004 m² (or a speck of a polygon) became 0,
      // which the database refuses (area_m2 > 0).
      if (!problems.length && lot.area_m2 !== null && lot.area_m2 <= 0)
        problems.push({ field: 'area_m2', message: LIMIT_MESSAGES.areaNotPositive });
      for (const length of [lot.perimeter_m, lot.front_m, lot.back_m, lot.right_m, lot.left_m]) {
        if (length !== null && !withinLimit(length, LIMITS.maxLengthM)) {
          problems.push({
            field: 'perimeter_m',
            message: Number.isFinite(length) ? LIMIT_MESSAGES.lengthTooLarge : LIMIT_MESSAGES.notANumber,
          });
          break;
        }
      }
    }
    if (lot.price_per_m2 !== null) {
      if (!withinLimit(lot.price_per_m2, LIMITS.maxCents)) problems.push({ field: 'price_per_m2', message: LIMIT_MESSAGES.priceTooLarge });
      else if (lot.area_m2 !== null && !problems.length && !listPriceWithinLimit(lot.area_m2, lot.price_per_m2)) {
        problems.push({ field: 'price_per_m2', message: LIMIT_MESSAGES.listPriceTooLarge });
      }
    }
    if (problems.length === 0) kept.push(lot);
    else for (const p of problems) result.issues.push(issue('ERROR', lot.location, p.message, { lot_code: lot.code, field: p.field }));
  }
  result.lots = kept;
  if (result.strayRings) result.strayRings = result.strayRings.filter((s) => coordinatesWithinLimits(s.ring));
}

/** "1 234" as people read counts in Peru. */
function formatCount(n: number): string {
  return n.toLocaleString('es-PE');
}

/**
 * Caps the issues of each kind (same severity and field) at {@link MAX_ISSUES_PER_KIND}, the rest
 * summarised by one "y N más" issue of that kind, so a file with an error on every one of its
 * thousands of rows still gets a bounded answer. Order kept.
 */
export function capIssues(issues: readonly ImportIssue[]): ImportIssue[] {
  const counts = new Map<string, number>();
  const kept: ImportIssue[] = [];
  for (const i of issues) {
    const key = `${i.severity}|${i.field ?? ''}|${kindOf(i)}`;
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    if (n <= MAX_ISSUES_PER_KIND) kept.push(i);
  }
  for (const [key, n] of counts) {
    if (n <= MAX_ISSUES_PER_KIND) continue;
    const [severity, field, kind] = key.split('|') as [ImportIssue['severity'], string, ImportIssueKind];
    const more = n - MAX_ISSUES_PER_KIND;
    const what = severity === 'ERROR' ? (more === 1 ? 'error' : 'errores') : more === 1 ? 'advertencia' : 'advertencias';
    kept.push(issue(severity, 'archivo', `y ${formatCount(more)} ${what} más de este tipo`, { field: field || null, kind, more }));
  }
  return kept;
}

/**
 * The codes `lots` repeats, each with its lots in file order (issue 13 item 5), at most
 * {@link MAX_IMPORT_DUPLICATES} codes (the first ones found).
 */
export function duplicateGroups(lots: readonly ParsedLot[]): ImportDuplicate[] {
  const byCode = new Map<string, ParsedLot[]>();
  for (const lot of lots) {
    const group = byCode.get(lot.code);
    if (group) group.push(lot);
    else byCode.set(lot.code, [lot]);
  }
  const groups: ImportDuplicate[] = [];
  for (const [code, group] of byCode) {
    if (group.length < 2) continue;
    groups.push({
      code,
      candidates: group.map((lot) => ({
        position: lot.position,
        location: lot.location,
        area_m2: lot.area_m2,
        drawn_area_m2: lot.drawn_area_m2,
        stage: lot.stage,
        land_use: lot.land_use,
      })),
    });
    if (groups.length >= MAX_IMPORT_DUPLICATES) break;
  }
  return groups;
}

/**
 * Applies the user's choices on duplicated codes (issue 13 item 5; docs/import.md "Duplicated
 * codes") to `result.lots`: a DROP leaves the lot at that position out, a RENAME gives it the new
 * lot number in its block (code recomputed). Each applied choice is a WARNING of kind DUPLICATE
 * saying what was done, so the preview records it. A choice whose position holds no lot or a lot
 * of another code (the file changed since the preview), or whose new number breaks the lot-number
 * rules, is an ERROR and changes nothing. The duplicate check runs afterwards on the result.
 */
export function applyResolutions(result: ParseResult, resolutions: readonly ImportResolution[]): ImportIssue[] {
  const issues: ImportIssue[] = [];
  if (resolutions.length === 0) return issues;
  const byPosition = new Map(result.lots.map((lot) => [lot.position, lot]));
  const dropped = new Set<ParsedLot>();
  const seen = new Set<number>();
  for (const choice of resolutions) {
    const lot = byPosition.get(choice.position);
    const where = lot?.location ?? `lote ${choice.position} del archivo`;
    if (!lot || lot.code !== choice.code || seen.has(choice.position)) {
      issues.push(
        issue(
          'ERROR',
          where,
          seen.has(choice.position)
            ? `Hay dos elecciones para el mismo lote (${choice.code}): elija una`
            : `La elección para ${choice.code} no corresponde a este archivo: vuelva a comprobarlo`,
          { lot_code: choice.code, field: 'resolutions', kind: 'DUPLICATE' },
        ),
      );
      continue;
    }
    seen.add(choice.position);
    if (choice.action === 'DROP') {
      dropped.add(lot);
      issues.push(
        issue('WARNING', lot.location, `Se descartó ${lot.code} de ${lot.location} (código repetido)`, {
          lot_code: lot.code,
          kind: 'DUPLICATE',
        }),
      );
      continue;
    }
    const valid = validateBlockAndNumber(lot.block, choice.number ?? '');
    if (!valid.ok) {
      for (const message of valid.messages)
        issues.push(issue('ERROR', lot.location, message, { lot_code: lot.code, field: 'resolutions', kind: 'DUPLICATE' }));
      continue;
    }
    const renamed = lotCode(valid.block, valid.number);
    issues.push(
      issue('WARNING', lot.location, `Se renombró ${lot.code} de ${lot.location} a ${renamed}`, { lot_code: renamed, kind: 'DUPLICATE' }),
    );
    lot.number = valid.number;
    lot.code = renamed;
  }
  if (dropped.size > 0) result.lots = result.lots.filter((lot) => !dropped.has(lot));
  return issues;
}

/**
 * Parses and checks a file. Never throws for bad input: unreadable files come back as an ERROR
 * issue with location "archivo". Issues are ordered errors first, then by where they were found.
 * @param layer DXF layer to read (default: the one with most closed polylines).
 * @param options `resolutions`: the user's choices on duplicated codes ({@link applyResolutions}),
 *   applied after cleaning and before the checks (`result.duplicates` lists the file's repeats as
 *   read); `overlapLimitM2`: the subdivision's overlap limit in m² ({@link checkLots}; 0.05 by default);
 *   `landUses`: the uses of the file's land-use values chosen with the request and remembered for
 *   the subdivision (./land-uses.ts), applied before the duplicates are listed; `result.useValues`
 *   lists the values of the lots kept.
 */
export async function readImportFile(
  bytes: Buffer,
  filename: string,
  layer?: string | null,
  options: ImportCheckOptions = {},
): Promise<ParseResult> {
  const { resolutions = [], overlapLimitM2 = OVERLAP_ERROR_M2, landUses = {} } = options;
  const format = detectFormat(bytes, filename);
  let result: ParseResult;
  if (format === null) {
    result = {
      format: 'CSV',
      layers: null,
      layer: null,
      lots: [],
      issues: [issue('ERROR', 'archivo', unknownFormatMessage(filename), { field: 'file' })],
      coordinateSystem: null,
    };
    const ext = filename.toLowerCase().split('.').pop();
    if (ext === 'dxf') result.format = 'DXF';
    else if (ext === 'geojson' || ext === 'json') result.format = 'GEOJSON';
    else if (ext === 'xlsx') result.format = 'XLSX';
    return result;
  }
  if (format === 'XLSX') {
    try {
      result = await parseXlsx(bytes, MAX_IMPORT_LOTS);
    } catch {
      result = {
        format,
        layers: null,
        layer: null,
        lots: [],
        issues: [issue('ERROR', 'archivo', 'El libro de Excel está dañado y no se puede leer', { field: 'file' })],
        coordinateSystem: null,
      };
    }
  } else {
    const text = bytes.toString('utf8');
    try {
      result = format === 'DXF' ? parseDxf(text, layer) : format === 'GEOJSON' ? parseGeoJson(text) : parseCsv(text, MAX_IMPORT_LOTS);
    } catch {
      // The parsers report bad input as issues (fuzzed: tests/unit/lot-import/parsers-fuzz.test.ts);
      // this net keeps an unforeseen case a Spanish 422 instead of a 500 (issue 11 item 7).
      result = {
        format,
        layers: null,
        layer: null,
        lots: [],
        issues: [issue('ERROR', 'archivo', 'El archivo está dañado y no se puede leer', { field: 'file' })],
        coordinateSystem: null,
      };
    }
  }
  // Over the lot limit nothing is previewed: one ERROR and no lots (issue 11 item 8: the preview of
  // a 1 M-row workbook returned all its lots although the file was refused).
  if (result.truncated || result.lots.length > MAX_IMPORT_LOTS) {
    result.lots = [];
    result.strayRings = [];
    for (const found of result.issues) found.kind = kindOf(found);
    result.issues = capIssues(result.issues).concat(tooManyLots());
    result.issues.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'ERROR' ? -1 : 1));
    return result;
  }
  // concat, not push(...): a spread of thousands of issues overflowed the call stack (issue 11 item 1).
  // Limits first (their issues are LIMIT), then every parser issue gets its kind.
  const parsedIssues = result.issues.length;
  enforceLimits(result);
  result.issues.forEach((i, n) => {
    i.kind = n >= parsedIssues ? 'LIMIT' : kindOf(i);
  });
  result.lots.forEach((lot, i) => {
    lot.position = i + 1;
  });
  const cleaning = cleanLots(result);
  resolveLandUses(result.lots, landUses);
  result.duplicates = duplicateGroups(result.lots);
  const choices = applyResolutions(result, resolutions);
  Object.assign(result, listUseValues(result.lots, landUses));
  result.issues = capIssues(result.issues.concat(cleaning, choices)).concat(checkLots(result, overlapLimitM2));
  result.issues.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'ERROR' ? -1 : 1));
  return result;
}
