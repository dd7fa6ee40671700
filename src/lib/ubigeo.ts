import regionData from 'ubigeos/dist/data/region.data.js';
import provinceData from 'ubigeos/dist/data/province.data.js';
import districtData from 'ubigeos/dist/data/district.data.js';

/**
 * Peru's ubigeo (INEI codes of department, province and district: "15", "1501", "150101") from the
 * `ubigeos` package (ISC; 25 departments, 196 provinces, 1 867 districts; docs/dependencies.md and
 * docs/decisions.md "Ubigeo" say why this one and what it lacks). Shared by the server (validation)
 * and the web app (the department → province → district cascade of the customer form, loaded only
 * with that screen's chunk). Codes are strings of 2, 4 and 6 digits.
 */

/** A department, province or district. */
export interface UbigeoPlace {
  code: string;
  name: string;
}

/**
 * The package ships CommonJS modules with `exports.default = new Map()`; bundlers hand us that Map
 * as the default import, Node's ESM loader hands us the exports object. Accept both.
 */
function asMap(module: unknown): ReadonlyMap<string, string> {
  if (module instanceof Map) return module as ReadonlyMap<string, string>;
  const inner = (module as { default?: unknown } | null)?.default;
  if (inner instanceof Map) return inner as ReadonlyMap<string, string>;
  throw new Error('ubigeos: unexpected data module');
}

const REGIONS = asMap(regionData);
const PROVINCES = asMap(provinceData);
const DISTRICTS = asMap(districtData);

const collator = new Intl.Collator('es');
const byCode = (map: ReadonlyMap<string, string>, prefix: string, length: number): UbigeoPlace[] =>
  [...map]
    .filter(([code]) => code.length === length && code.startsWith(prefix))
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => collator.compare(a.name, b.name));

/** The 25 departments (including the Constitutional Province of Callao), by name. */
export function departments(): UbigeoPlace[] {
  return byCode(REGIONS, '', 2);
}

/** The provinces of a department (2-digit code), by name; empty for an unknown code. */
export function provincesOf(departmentCode: string): UbigeoPlace[] {
  return /^\d{2}$/.test(departmentCode) ? byCode(PROVINCES, departmentCode, 4) : [];
}

/** The districts of a province (4-digit code), by name; empty for an unknown code. */
export function districtsOf(provinceCode: string): UbigeoPlace[] {
  return /^\d{4}$/.test(provinceCode) ? byCode(DISTRICTS, provinceCode, 6) : [];
}

/** Whether `code` is a district of the dataset (6 digits). */
export function isDistrictCode(code: string): boolean {
  return /^\d{6}$/.test(code) && DISTRICTS.has(code);
}

/**
 * "Department / Province / District" of a district code, as addresses show it.
 * @returns null when the code is not a district of the dataset.
 */
export function ubigeoLabel(code: string): string | null {
  if (!isDistrictCode(code)) return null;
  return `${REGIONS.get(code.slice(0, 2)) ?? ''} / ${PROVINCES.get(code.slice(0, 4)) ?? ''} / ${DISTRICTS.get(code) ?? ''}`;
}
