/**
 * Numeric limits of lots and subdivisions: the ONE set shared by the form schemas
 * (`projects.ts`), the lot import (`server/modules/proyectos/lot-import/`), the bulk price update
 * (`server/modules/proyectos/lots.service.ts`) and the database CHECK constraints (migration
 * `0006-numeric-limits`). Source: issue 11 items 2–3 (numbers that break the readers: every value
 * must be finite, and money must stay an exact integer far below 2^53 so sums of a whole
 * subdivision stay exact). docs/security.md lists them.
 *
 * Units: areas m², lengths metres, money integer céntimos, coordinates in the plan's units (metres)
 * or degrees.
 */
export const LIMITS = {
  /** Largest area of a lot or a subdivision, m² (10 000 ha). */
  maxAreaM2: 100_000_000,
  /** Largest length (perimeter, a boundary), metres. */
  maxLengthM: 100_000,
  /** Largest price per m² and largest list price, céntimos (S/ 10 000 000 000). */
  maxCents: 1_000_000_000_000,
  /** Largest |x| or |y| of a polygon vertex (plan metres — UTM northings reach 1e7 — or degrees). */
  maxAbsCoordinate: 100_000_000,
  /** Bulk price change by percentage: −90 % … +500 % in one change. */
  minPercent: -90,
  maxPercent: 500,
  /** Bulk price change by an amount per m², céntimos (either sign). */
  maxAmountPerM2: 1_000_000_000,
} as const;

/** 100000000 → "100 000 000" (spaces as group separators, the same on every ICU build). */
function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

/** Spanish messages of the limits (shared by forms, import and bulk update). */
export const LIMIT_MESSAGES = {
  areaTooLarge: `El área supera el máximo de ${grouped(LIMITS.maxAreaM2)} m²`,
  /** An area of 0, or one that rounds to 0.00 m² (stored with 2 decimals). */
  areaNotPositive: 'El área debe ser mayor que cero',
  lengthTooLarge: `La medida supera el máximo de ${grouped(LIMITS.maxLengthM)} m`,
  priceTooLarge: `El precio supera el máximo permitido (${grouped(LIMITS.maxCents / 100)})`,
  listPriceTooLarge: `El precio de lista (área × precio por m²) supera el máximo permitido (${grouped(LIMITS.maxCents / 100)})`,
  notANumber: 'El valor no es un número válido',
  coordinatesOutOfRange: `Coordenadas no válidas: cada coordenada debe ser un número finito de valor absoluto hasta ${grouped(LIMITS.maxAbsCoordinate)}`,
} as const;

/** True when `value` is a finite number in [0, max]. */
export function withinLimit(value: number, max: number): boolean {
  return Number.isFinite(value) && value >= 0 && value <= max;
}

/** True when every vertex of `ring` is finite with |x|, |y| ≤ {@link LIMITS.maxAbsCoordinate}. */
export function coordinatesWithinLimits(ring: ReadonlyArray<readonly [number, number]>): boolean {
  for (const [x, y] of ring) {
    if (!Number.isFinite(x) || !Number.isFinite(y) || Math.abs(x) > LIMITS.maxAbsCoordinate || Math.abs(y) > LIMITS.maxAbsCoordinate)
      return false;
  }
  return true;
}

/**
 * True when the list price of `areaM2` × `pricePerM2` (céntimos, rounded as `computeListPrice`
 * does) stays within {@link LIMITS.maxCents}.
 */
export function listPriceWithinLimit(areaM2: number, pricePerM2: number): boolean {
  return withinLimit(Math.round(areaM2 * pricePerM2), LIMITS.maxCents);
}
