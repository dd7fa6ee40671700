import { LAND_USE_LABEL, LAND_USES, MAX_LAND_USE_LABEL, type LandUse } from '../../schemas/proyectos/projects';

export { MAX_LAND_USE_LABEL };

/**
 * Land uses in the engineers' own words (docs/import.md "Land use"): how the lot import reads the
 * `uso` of a file, shared by the server (server/modules/proyectos/lot-import/) and the app (the
 * import dialog's mapping step).
 *
 * - {@link landUseKey}: a value as it is compared — accents, case, punctuation and extra spaces
 *   ignored (" Educación " = "EDUCACION" = "educacion").
 * - A use's own name ({@link canonicalLandUse}: its code "CLUB_HOUSE" or its Spanish name
 *   "Club house", "Recreación / parque") is that use, silently.
 * - Any other value is shown to the user in the preview with its lot count; the common words of
 *   Peruvian plans (RNE Norma GH.020 aportes) and their English GIS equivalents
 *   ({@link LAND_USE_SYNONYMS}) come mapped already ({@link synonymLandUse}), the rest must be
 *   mapped by the user — a value is never a reason to refuse a file.
 */

/**
 * A land-use value as the importer compares it: accents removed (NFD), upper case, every run of
 * characters other than A–Z and 0–9 one space, trimmed. " Educación " → "EDUCACION";
 * "Club_House" → "CLUB HOUSE"; "Área verde (pública)" → "AREA VERDE PUBLICA"; "—" → "".
 */
export function landUseKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();
}

/** A use's own names by key: its code ("OTROS USOS") and its Spanish label ("OTROS USOS APORTES"). */
const CANONICAL: ReadonlyMap<string, LandUse> = new Map(
  LAND_USES.flatMap((use) => [
    [landUseKey(use), use],
    [landUseKey(LAND_USE_LABEL[use]), use],
  ]),
);

/** The use a key names by itself (its code or Spanish label), or null. */
export function canonicalLandUse(key: string): LandUse | null {
  return CANONICAL.get(key) ?? null;
}

/**
 * Words of the land uses as engineers' files write them, in keys ({@link landUseKey}), Spanish and
 * the English of GIS exports. Order matters: {@link synonymLandUse} takes the first entry the
 * value starts with, else the first found anywhere in it ("VIVIENDA MULTIFAMILIAR" before
 * "VIVIENDA"). Services (wells, cisterns, treatment plants, reservoirs, substations) are
 * OTROS_USOS: plots handed over for other purposes, not for sale.
 */
export const LAND_USE_SYNONYMS: ReadonlyArray<readonly [string, LandUse]> = [
  ['VIVIENDA MULTIFAMILIAR', 'MULTIFAMILIAR'],
  ['MULTIFAMILIAR', 'MULTIFAMILIAR'],
  ['MULTIFAMILY', 'MULTIFAMILIAR'],
  ['VIVIENDA', 'VIVIENDA'],
  ['UNIFAMILIAR', 'VIVIENDA'],
  ['RESIDENCIAL', 'VIVIENDA'],
  ['HOUSING', 'VIVIENDA'],
  ['RESIDENTIAL', 'VIVIENDA'],
  ['COMERCIO', 'COMERCIO'],
  ['COMERCIAL', 'COMERCIO'],
  ['STRIP MALL', 'COMERCIO'],
  ['MALL', 'COMERCIO'],
  ['TIENDA', 'COMERCIO'],
  ['TIENDAS', 'COMERCIO'],
  ['COMMERCIAL', 'COMERCIO'],
  ['COMMERCE', 'COMERCIO'],
  ['RETAIL', 'COMERCIO'],
  ['EQUIPAMIENTO', 'EQUIPAMIENTO'],
  ['EDUCACION', 'EQUIPAMIENTO'],
  ['EDUCATIVO', 'EQUIPAMIENTO'],
  ['EDUCATIVA', 'EQUIPAMIENTO'],
  ['COLEGIO', 'EQUIPAMIENTO'],
  ['ESCUELA', 'EQUIPAMIENTO'],
  ['SALUD', 'EQUIPAMIENTO'],
  ['POSTA', 'EQUIPAMIENTO'],
  ['EDUCATION', 'EQUIPAMIENTO'],
  ['SCHOOL', 'EQUIPAMIENTO'],
  ['HEALTH', 'EQUIPAMIENTO'],
  ['RECREACION', 'RECREACION'],
  ['RECREACIONAL', 'RECREACION'],
  ['PARQUE', 'RECREACION'],
  ['AREA VERDE', 'RECREACION'],
  ['AREAS VERDES', 'RECREACION'],
  ['PARK', 'RECREACION'],
  ['GREEN AREA', 'RECREACION'],
  ['OPEN SPACE', 'RECREACION'],
  ['CLUB HOUSE', 'CLUB_HOUSE'],
  ['CLUBHOUSE', 'CLUB_HOUSE'],
  ['CASA CLUB', 'CLUB_HOUSE'],
  ['CLUB', 'CLUB_HOUSE'],
  ['OTROS USOS', 'OTROS_USOS'],
  ['OTROS FINES', 'OTROS_USOS'],
  ['APORTE', 'OTROS_USOS'],
  ['APORTES', 'OTROS_USOS'],
  ['SERVICIOS COMUNALES', 'OTROS_USOS'],
  ['POZO', 'OTROS_USOS'],
  ['CISTERNA', 'OTROS_USOS'],
  ['PLANTA', 'OTROS_USOS'],
  ['PTAR', 'OTROS_USOS'],
  ['RESERVORIO', 'OTROS_USOS'],
  ['TANQUE', 'OTROS_USOS'],
  ['SUBESTACION', 'OTROS_USOS'],
  ['WATER WELL', 'OTROS_USOS'],
  ['CISTERN', 'OTROS_USOS'],
  ['TREATMENT PLANT', 'OTROS_USOS'],
  ['RESERVOIR', 'OTROS_USOS'],
  ['WATER TANK', 'OTROS_USOS'],
  ['UTILITIES', 'OTROS_USOS'],
  ['SUBSTATION', 'OTROS_USOS'],
];

/**
 * The use {@link LAND_USE_SYNONYMS} give a key: the first word the value starts with, else the
 * first found anywhere in it (whole words only). "EDUCACION" → EQUIPAMIENTO, "COMERCIO ZONAL" →
 * COMERCIO, "POZO TUBULAR" → OTROS_USOS, "ZONA RESERVADA" → null.
 */
export function synonymLandUse(key: string): LandUse | null {
  for (const [word, use] of LAND_USE_SYNONYMS) if (key === word || key.startsWith(`${word} `)) return use;
  const padded = ` ${key} `;
  for (const [word, use] of LAND_USE_SYNONYMS) if (padded.includes(` ${word} `)) return use;
  return null;
}

/** What a file's `uso` value says (see {@link readLandUseValue}). */
export interface LandUseValue {
  /** The use it names or the synonyms give; null when blank or not recognised. */
  use: LandUse | null;
  /**
   * The value as written (trimmed, spaces collapsed, at most {@link MAX_LAND_USE_LABEL}
   * characters) when it is not a use's own name: the preview lists it so the user sees and may
   * change what it was read as. Null for blank values and a use's own names.
   */
  label: string | null;
}

/**
 * Reads a file's `uso` value: blank (or only punctuation, "-") → none given; a use's own name →
 * that use; anything else → its label with the synonyms' use, or none (the user maps it).
 */
export function readLandUseValue(raw: unknown): LandUseValue {
  if (raw === null || raw === undefined) return { use: null, label: null };
  const label = String(raw).trim().replace(/\s+/g, ' ').slice(0, MAX_LAND_USE_LABEL).trim();
  const key = landUseKey(label);
  if (!key) return { use: null, label: null };
  const canonical = canonicalLandUse(key);
  if (canonical) return { use: canonical, label: null };
  return { use: synonymLandUse(key), label };
}
