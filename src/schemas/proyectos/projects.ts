import { z } from 'zod';
import { calendarDateSchema } from '../dates';
import { holdUntilSchema, isHoldStatus, LOT_HOLD_MESSAGES, lotHoldSchema } from './lot-holds';
import {
  DEFAULT_LATE_FEE_POLICY,
  LATE_FEE_KINDS,
  MAX_DAILY_AMOUNT_CENTS,
  MAX_GRACE_DAYS,
  MAX_MONTHLY_PERCENT,
} from '../finanzas/late-fees';
import { isoDateSchema } from '../common';
import { LIMIT_MESSAGES, LIMITS, listPriceWithinLimit } from '../limits';
import { dataResponseSchema, listQueryShape, pagedResponseSchema, sortSchema } from '../paging';
import { AT_LEAST_ONE_FIELD, recordVersionSchema, versionInAnswerSchema } from '../versions';

/**
 * Proyectos (issue "Proyectos"; docs/domain.md "Projects and lots", "Maps"; API.md).
 *
 * Calls (main base `/api`, staff with 'Acceso módulo proyectos' + 'Acceso submódulo lotizaciones'
 * unless said otherwise). `{key}` is a subdivision's opaque key (sqids, the same string the browser
 * routes carry as `{id_encrypted}`); a key that does not decode is a 404. Lot, stage and block ids
 * are numeric.
 * - GET|POST /api/subdivisions · GET|PATCH|DELETE /api/subdivisions/{key}
 * - POST /api/subdivisions/{key}/plan (multipart `file`, PNG/JPEG ≤ {@link PLAN_MAX_BYTES}) ·
 *   GET /api/subdivisions/{key}/plan (the image bytes)
 * - GET|POST /api/subdivisions/{key}/stages · PATCH|DELETE /api/stages/{id}
 * - GET|POST /api/subdivisions/{key}/blocks · PATCH|DELETE /api/blocks/{id}
 * - GET|POST /api/subdivisions/{key}/lots · GET|PATCH|DELETE /api/lots/{id}
 * - POST /api/lots/{id}/status · GET /api/lots/{id}/status-history
 * - POST /api/subdivisions/{key}/lots/price-preview · POST /api/subdivisions/{key}/lots/price-update
 * - GET /api/subdivisions/{key}/map (every lot with its polygon; staff map and sales map)
 * - POST /api/subdivisions/{key}/imports/preview · POST /api/subdivisions/{key}/imports
 *   (multipart `file` + `layer`; see the import section)
 * - public base: GET /public/subdivisions/{key}/map and GET /public/subdivisions/{key}/plan
 *   (published subdivisions only, else 404; no personal data; prices only when `public_prices`).
 *
 * Units: money in integer céntimos of the subdivision's `currency`; `price_per_m2` in céntimos per
 * m²; areas in m² and lengths in metres with 2 decimals; dates `YYYY-MM-DD`; instants ISO.
 */

// ---------------------------------------------------------------------------------------------
// Enumerations and rules
// ---------------------------------------------------------------------------------------------

/** Currencies (docs/domain.md "Catalogues"). */
export const currencySchema = z.enum(['PEN', 'USD']);
export type Currency = z.infer<typeof currencySchema>;

/** Subdivision status (docs/domain.md "Projects and lots"). */
export const SUBDIVISION_STATUSES = ['EN_PREVENTA', 'EN_VENTA', 'AGOTADO', 'CERRADO'] as const;
export const subdivisionStatusSchema = z.enum(SUBDIVISION_STATUSES);
export type SubdivisionStatus = z.infer<typeof subdivisionStatusSchema>;

/**
 * Lot status (docs/domain.md "Projects and lots"). NO_VENDIBLE belongs to lots whose land use is
 * not for sale ({@link UNSELLABLE_LAND_USES}: parks, equipment, club house, aportes; issue 13
 * item 4): no status change leads into or out of it; only a change of use does.
 */
export const LOT_STATUSES = ['DISPONIBLE', 'SEPARADO', 'VENDIDO', 'BLOQUEADO', 'RESERVA_COMERCIAL', 'CANJE', 'NO_VENDIBLE'] as const;
export const lotStatusSchema = z.enum(LOT_STATUSES);
export type LotStatus = z.infer<typeof lotStatusSchema>;

/**
 * Spanish label of each lot status, the one map of them: the web app shows it (lots table, status
 * dialog, map legends and filters; re-exported by src/views/proyectos/lot-status.ts) and the server
 * puts it in the 409 messages of POST /api/lots/{id}/status ("El lote ya está en estado Vendido").
 */
export const LOT_STATUS_LABEL: Readonly<Record<LotStatus, string>> = {
  DISPONIBLE: 'Disponible',
  SEPARADO: 'Separado',
  VENDIDO: 'Vendido',
  BLOQUEADO: 'Bloqueado',
  RESERVA_COMERCIAL: 'Reserva comercial',
  CANJE: 'Canje',
  NO_VENDIBLE: 'No vendible',
};

/**
 * Allowed lot status changes (docs/domain.md state chart): DISPONIBLE → SEPARADO → VENDIDO;
 * SEPARADO → DISPONIBLE (reservation expired or annulled); VENDIDO → DISPONIBLE (rescinded);
 * DISPONIBLE ↔ BLOQUEADO; DISPONIBLE ↔ RESERVA_COMERCIAL; DISPONIBLE → CANJE.
 */
export const LOT_STATUS_TRANSITIONS: Readonly<Record<LotStatus, readonly LotStatus[]>> = {
  DISPONIBLE: ['SEPARADO', 'BLOQUEADO', 'RESERVA_COMERCIAL', 'CANJE'],
  SEPARADO: ['VENDIDO', 'DISPONIBLE'],
  VENDIDO: ['DISPONIBLE'],
  BLOQUEADO: ['DISPONIBLE'],
  RESERVA_COMERCIAL: ['DISPONIBLE'],
  CANJE: [],
  NO_VENDIBLE: [],
};

/** Target statuses that need a reason (issue "Proyectos": BLOQUEADO, RESERVA_COMERCIAL, CANJE). */
export const REASON_REQUIRED_STATUSES: readonly LotStatus[] = ['BLOQUEADO', 'RESERVA_COMERCIAL', 'CANJE'];

/** True when docs/domain.md's state chart allows `from` → `to`. */
export function isLotTransitionAllowed(from: LotStatus, to: LotStatus): boolean {
  return LOT_STATUS_TRANSITIONS[from].includes(to);
}

/**
 * Statuses the public and customer maps show (docs/domain.md: internal states show as Vendido;
 * lots not for sale keep NO_VENDIBLE, drawn in their own neutral colour).
 */
export const PUBLIC_LOT_STATUSES = ['DISPONIBLE', 'SEPARADO', 'VENDIDO', 'NO_VENDIBLE'] as const;
export const publicLotStatusSchema = z.enum(PUBLIC_LOT_STATUSES);
export type PublicLotStatus = z.infer<typeof publicLotStatusSchema>;

/** The status a prospect may see: BLOQUEADO, RESERVA_COMERCIAL and CANJE read as VENDIDO. */
export function publicLotStatus(status: LotStatus): PublicLotStatus {
  return status === 'DISPONIBLE' || status === 'SEPARADO' || status === 'NO_VENDIBLE' ? status : 'VENDIDO';
}

/**
 * Land use of a lot (issue 13 item 4; docs/domain.md "Projects and lots"): what the urban plan
 * destines it to. EQUIPAMIENTO covers education and health plots, RECREACION parks and green
 * areas, OTROS_USOS the contributions to the municipality and other authorities (*aportes*).
 */
export const LAND_USES = ['VIVIENDA', 'MULTIFAMILIAR', 'COMERCIO', 'EQUIPAMIENTO', 'RECREACION', 'CLUB_HOUSE', 'OTROS_USOS'] as const;
export const landUseSchema = z.enum(LAND_USES, { error: 'Elija un uso válido' });
export type LandUse = z.infer<typeof landUseSchema>;

/** Spanish label of each land use (lot form, lots table, import preview, map tooltips). */
export const LAND_USE_LABEL: Readonly<Record<LandUse, string>> = {
  VIVIENDA: 'Vivienda',
  MULTIFAMILIAR: 'Multifamiliar',
  COMERCIO: 'Comercio',
  EQUIPAMIENTO: 'Equipamiento (educación, salud)',
  RECREACION: 'Recreación / parque',
  CLUB_HOUSE: 'Club house',
  OTROS_USOS: 'Otros usos (aportes)',
};

/** Uses that are never sold: their lots have status NO_VENDIBLE, and only they do. */
export const UNSELLABLE_LAND_USES: readonly LandUse[] = ['EQUIPAMIENTO', 'RECREACION', 'CLUB_HOUSE', 'OTROS_USOS'];

/** True when lots of this use may be sold (VIVIENDA, MULTIFAMILIAR, COMERCIO). */
export function isSellableLandUse(use: LandUse): boolean {
  return !UNSELLABLE_LAND_USES.includes(use);
}

/** List price in céntimos: round(area m² × price per m² in céntimos). */
export function computeListPrice(areaM2: number, pricePerM2: number): number {
  return Math.round(areaM2 * pricePerM2);
}

/** Lot code from its block and number (docs/domain.md: "MZ A - LT 12"). */
export function lotCode(block: string, number: string): string {
  return `MZ ${block.trim().toUpperCase()} - LT ${number.trim().toUpperCase()}`;
}

/** Largest plan image accepted, in bytes (5 MB). */
export const PLAN_MAX_BYTES = 5 * 1024 * 1024;
/** Plan image types accepted (detected from the bytes). */
export const PLAN_CONTENT_TYPES = ['image/png', 'image/jpeg'] as const;

// ---------------------------------------------------------------------------------------------
// Field schemas
// ---------------------------------------------------------------------------------------------

/**
 * True when `value` stays above 0 once rounded to the 2 decimals areas and lengths are stored with
 * (the services' `round2`): 1e-300 is positive but is stored as 0, which the database refuses
 * (`lots_limits_check`: area_m2 > 0) — so it is refused here as "not greater than zero".
 */
const storedAboveZero = (value: number) => Math.round(value * 100) >= 1;

/** m² or metres with at most 2 decimals, ≥ 0.01 (a value that rounds to 0 gets the "mayor que cero" message). */
const measure = (label: string) => {
  const notPositive = `${label[0]!.toUpperCase()}${label.slice(1)} debe ser mayor que cero`;
  return z
    .number({ error: `Ingrese ${label}` })
    .positive(notPositive)
    .max(LIMITS.maxAreaM2, LIMIT_MESSAGES.areaTooLarge)
    .refine(storedAboveZero, { message: notPositive, abort: true })
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, { message: 'Use como máximo 2 decimales' });
};

/** Optional length in metres (boundaries, perimeter), stored with 2 decimals: ≥ 0.005 so that it stays above 0. */
const optionalMetres = z
  .number()
  .positive('La medida debe ser mayor que cero')
  .max(LIMITS.maxLengthM, LIMIT_MESSAGES.lengthTooLarge)
  .refine(storedAboveZero, { message: 'La medida debe ser mayor que cero' })
  .nullable()
  .optional();
/** Optional neighbour text of a boundary ("Calle Los Pinos", "Lote 13"). */
const neighbour = z.string().trim().max(200).nullable().optional();
/** Money or price per m² in céntimos. */
const cents = (message: string) =>
  z.number().int('Use céntimos enteros').min(0, message).max(LIMITS.maxCents, LIMIT_MESSAGES.priceTooLarge);

/** Block name: letters/digits as engineers write them ("A", "B1", "AA"). */
export const blockNameSchema = z
  .string()
  .trim()
  .min(1, 'Ingrese la manzana')
  .max(10, 'La manzana admite hasta 10 caracteres')
  .regex(/^[A-Za-z0-9Ñ]+(-[A-Za-z0-9Ñ]+)?$/, 'La manzana solo admite letras y números')
  .transform((v) => v.toUpperCase());
/** Lot number within its block ("12", "12A"). */
export const lotNumberSchema = z
  .string()
  .trim()
  .min(1, 'Ingrese el número de lote')
  .max(10, 'El número de lote admite hasta 10 caracteres')
  .regex(/^[A-Za-z0-9]+(-[A-Za-z0-9]+)?$/, 'El número de lote solo admite letras y números')
  .transform((v) => v.toUpperCase());

// ---------------------------------------------------------------------------------------------
// Subdivisions
// ---------------------------------------------------------------------------------------------

/**
 * Lot counts per status; every status present (0 when none). NO_VENDIBLE came later (issue 13):
 * read as 0 from a server that does not send it (tolerant reader).
 */
export const lotCountsSchema = z.object({
  ...(Object.fromEntries(LOT_STATUSES.map((s) => [s, z.number().int()])) as Record<LotStatus, z.ZodNumber>),
  NO_VENDIBLE: z.number().int().default(0),
});
export type LotCounts = z.infer<typeof lotCountsSchema>;

/** Default overlap limit of the lot import, m² (docs/import.md "Checks"; migration 0011). */
export const OVERLAP_LIMIT_DEFAULT_M2 = 0.05;
/** Largest overlap limit a subdivision may set, m² (the database CHECK). */
export const OVERLAP_LIMIT_MAX_M2 = 10;

/** The rescission policy a subdivision starts with (migration 0041; Código Civil arts. 1561, 1563). */
export const DEFAULT_RESCISSION_POLICY = { overdueInstalments: 3, paidShareLimitPct: null, penaltyPct: 10 } as const;
/** Most overdue instalments a policy may ask before resolving. */
export const MAX_RESCISSION_OVERDUE_INSTALMENTS = 24;
/** Messages of the rescission policy's fields. */
export const RESCISSION_MESSAGES = {
  overdueInstalments: `Ingrese un número de cuotas entre 1 y ${MAX_RESCISSION_OVERDUE_INSTALMENTS}`,
  paidShareLimit: 'Ingrese un porcentaje entero entre 1 y 100, o déjelo vacío',
  penalty: 'Ingrese un porcentaje entero entre 0 y 100',
} as const;

/**
 * A subdivision as the API answers it. `key` is the opaque id for routes and API paths;
 * `lot_counts`, `lots_total` and `sold_area_m2` (area of VENDIDO + CANJE lots) are computed at
 * query time; `plan_url` is the staff plan image path (versioned) or null.
 */
export const subdivisionSchema = z.object({
  id: z.number().int(),
  key: z.string(),
  code: z.string(),
  name: z.string(),
  department: z.string(),
  province: z.string(),
  district: z.string(),
  ubigeo: z.string().nullable(),
  address: z.string().nullable(),
  currency: currencySchema,
  total_area_m2: z.number(),
  registry_entry: z.string().nullable(),
  licence_number: z.string().nullable(),
  licence_date: z.nullable(isoDateSchema),
  status: subdivisionStatusSchema,
  published: z.boolean(),
  public_prices: z.boolean(),
  coordinate_system: z.enum(['PLAN', 'GEO']),
  /**
   * Area two lots of an imported file may share before it is an error, m² (issue 13 item 2);
   * 0.05 from a server that does not send it (tolerant reader).
   */
  overlap_limit_m2: z.number().default(OVERLAP_LIMIT_DEFAULT_M2),
  /**
   * Late-fee policy (issue "Money in"; src/lib/finanzas/late-fees.ts): grace days; kind; céntimos
   * a late day; percent a month (decimal text); cap per instalment in céntimos or null. DOMAIN.md's
   * defaults from a server that does not send them (tolerant reader).
   */
  late_fee_grace_days: z.number().int().default(DEFAULT_LATE_FEE_POLICY.graceDays),
  late_fee_kind: z.enum(LATE_FEE_KINDS).default(DEFAULT_LATE_FEE_POLICY.kind),
  late_fee_daily_amount: z.number().int().default(DEFAULT_LATE_FEE_POLICY.dailyAmountCents),
  late_fee_monthly_percent: z.string().default(DEFAULT_LATE_FEE_POLICY.monthlyPercent),
  late_fee_cap: z.number().int().nullable().default(DEFAULT_LATE_FEE_POLICY.capCents),
  /**
   * Rescission policy (docs/domain.md "Contract variables"; migration 0041): overdue instalments
   * that allow resolving (Código Civil art. 1561, default 3), the share of the price paid after
   * which only the balance can be claimed (art. 1562; null = no limit), the penalty percent
   * (art. 1563, default 10). Defaults from a server that does not send them (tolerant reader).
   */
  rescission_overdue_instalments: z
    .number()
    .int()
    .catch(DEFAULT_RESCISSION_POLICY.overdueInstalments)
    .default(DEFAULT_RESCISSION_POLICY.overdueInstalments),
  rescission_paid_share_limit_pct: z.number().int().nullable().catch(null).default(null),
  rescission_penalty_pct: z.number().int().catch(DEFAULT_RESCISSION_POLICY.penaltyPct).default(DEFAULT_RESCISSION_POLICY.penaltyPct),
  plan_url: z.string().nullable(),
  lot_counts: lotCountsSchema,
  lots_total: z.number().int(),
  sold_area_m2: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Edit counter (src/schemas/versions.ts); a plan upload raises it too. */
  version: versionInAnswerSchema,
});
export type Subdivision = z.infer<typeof subdivisionSchema>;

/** POST /api/subdivisions body (the editor validates with the same schema). */
export const createSubdivisionRequestSchema = z.strictObject({
  code: z
    .string()
    .trim()
    .min(1, 'Ingrese el código')
    .max(20, 'El código admite hasta 20 caracteres')
    .regex(/^[A-Za-z0-9-]+$/, 'El código solo admite letras, números y guiones')
    .transform((v) => v.toUpperCase()),
  name: z.string().trim().min(1, 'Ingrese el nombre').max(150),
  department: z.string().trim().min(1, 'Ingrese el departamento').max(60),
  province: z.string().trim().min(1, 'Ingrese la provincia').max(60),
  district: z.string().trim().min(1, 'Ingrese el distrito').max(60),
  ubigeo: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'El ubigeo tiene 6 dígitos')
    .nullable()
    .optional(),
  address: z.string().trim().max(250).nullable().optional(),
  currency: currencySchema.default('PEN'),
  total_area_m2: measure('el área total'),
  registry_entry: z.string().trim().max(40).nullable().optional(),
  licence_number: z.string().trim().max(40).nullable().optional(),
  licence_date: calendarDateSchema().nullable().optional(),
  status: subdivisionStatusSchema.default('EN_PREVENTA'),
  published: z.boolean().default(false),
  public_prices: z.boolean().default(false),
  /** Omitted → 0.05 m² (the database default). */
  overlap_limit_m2: z
    .number({ error: 'Ingrese el área en m²' })
    .min(0, 'El área no puede ser negativa')
    .max(OVERLAP_LIMIT_MAX_M2, `El área admitida es de hasta ${OVERLAP_LIMIT_MAX_M2} m²`)
    .optional(),
  /** Late-fee policy; each omitted field keeps (or starts with) DOMAIN.md's default. */
  late_fee_grace_days: z
    .number({ error: 'Ingrese los días de gracia' })
    .int('Los días de gracia son un número entero')
    .min(0, 'Los días de gracia no pueden ser negativos')
    .max(MAX_GRACE_DAYS, `Se admiten hasta ${MAX_GRACE_DAYS} días de gracia`)
    .optional(),
  late_fee_kind: z.enum(LATE_FEE_KINDS, { error: 'Elija el tipo de mora' }).optional(),
  late_fee_daily_amount: z
    .number({ error: 'Ingrese el monto diario' })
    .int('El monto diario va en céntimos')
    .min(0, 'El monto diario no puede ser negativo')
    .max(MAX_DAILY_AMOUNT_CENTS, `El monto diario admitido es de hasta ${MAX_DAILY_AMOUNT_CENTS / 100} por día`)
    .optional(),
  late_fee_monthly_percent: z
    .string({ error: 'Ingrese el porcentaje mensual' })
    .trim()
    .regex(/^\d{1,2}(\.\d{1,2})?$/, 'Porcentaje no válido (ej. 2 o 1.5)')
    .refine((v) => Number(v) <= MAX_MONTHLY_PERCENT, `El porcentaje admitido es de hasta ${MAX_MONTHLY_PERCENT} % mensual`)
    .optional(),
  late_fee_cap: z
    .number({ error: 'Ingrese el tope' })
    .int('El tope va en céntimos')
    .min(0, 'El tope no puede ser negativo')
    .max(LIMITS.maxCents, LIMIT_MESSAGES.priceTooLarge)
    .nullable()
    .optional(),
  /** Rescission policy; each omitted field keeps (or starts with) its default. */
  rescission_overdue_instalments: z
    .number({ error: RESCISSION_MESSAGES.overdueInstalments })
    .int(RESCISSION_MESSAGES.overdueInstalments)
    .min(1, RESCISSION_MESSAGES.overdueInstalments)
    .max(MAX_RESCISSION_OVERDUE_INSTALMENTS, RESCISSION_MESSAGES.overdueInstalments)
    .optional(),
  rescission_paid_share_limit_pct: z
    .number({ error: RESCISSION_MESSAGES.paidShareLimit })
    .int(RESCISSION_MESSAGES.paidShareLimit)
    .min(1, RESCISSION_MESSAGES.paidShareLimit)
    .max(100, RESCISSION_MESSAGES.paidShareLimit)
    .nullable()
    .optional(),
  rescission_penalty_pct: z
    .number({ error: RESCISSION_MESSAGES.penalty })
    .int(RESCISSION_MESSAGES.penalty)
    .min(0, RESCISSION_MESSAGES.penalty)
    .max(100, RESCISSION_MESSAGES.penalty)
    .optional(),
});
export type CreateSubdivisionRequest = z.input<typeof createSubdivisionRequestSchema>;

/** PATCH /api/subdivisions/{key} body: any subset (no defaults applied); `version` the version read (stale → 409). */
export const updateSubdivisionRequestSchema = z
  .strictObject({
    ...createSubdivisionRequestSchema.shape,
    currency: currencySchema,
    status: subdivisionStatusSchema,
    published: z.boolean(),
    public_prices: z.boolean(),
    version: recordVersionSchema,
  })
  .partial()
  .refine(AT_LEAST_ONE_FIELD.check, AT_LEAST_ONE_FIELD.options);
export type UpdateSubdivisionRequest = z.input<typeof updateSubdivisionRequestSchema>;

/** GET /api/subdivisions query: `q` searches code, name and district; filters status, currency. */
export const subdivisionsQuerySchema = z.strictObject({
  ...listQueryShape,
  sort: sortSchema(['code', 'name', 'status', 'created_at']),
  status: subdivisionStatusSchema.optional(),
  currency: currencySchema.optional(),
});
export type SubdivisionsQuery = z.infer<typeof subdivisionsQuerySchema>;

export const subdivisionsPageSchema = pagedResponseSchema(subdivisionSchema);
export const subdivisionResponseSchema = dataResponseSchema(subdivisionSchema);

/** Path params of every `/api/subdivisions/{key}…` route. */
export const subdivisionKeyParamsSchema = z.strictObject({ key: z.string().min(1).max(40) });

// ---------------------------------------------------------------------------------------------
// Stages and blocks
// ---------------------------------------------------------------------------------------------

/** A stage (etapa). */
export const stageSchema = z.object({ id: z.number().int(), name: z.string(), position: z.number().int(), version: versionInAnswerSchema });
export type Stage = z.infer<typeof stageSchema>;
/** POST /api/subdivisions/{key}/stages and PATCH /api/stages/{id} body. */
export const stageRequestSchema = z.strictObject({
  name: z.string().trim().min(1, 'Ingrese el nombre de la etapa').max(60),
  position: z.number().int().min(0).max(1000).optional(),
});
/** PATCH /api/stages/{id} body: the stage's fields and the version read (stale → 409). */
export const updateStageRequestSchema = stageRequestSchema.extend({ version: recordVersionSchema.optional() });
/** GET …/stages answer (a subdivision has few stages: not paged, at most 100). */
export const stagesResponseSchema = z.object({ data: z.array(stageSchema) });

/** A block (manzana) with its lot count. */
export const blockSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  stage_id: z.number().int().nullable(),
  lots_count: z.number().int(),
  version: versionInAnswerSchema,
});
export type Block = z.infer<typeof blockSchema>;
/** POST /api/subdivisions/{key}/blocks and PATCH /api/blocks/{id} body. */
export const blockRequestSchema = z.strictObject({
  name: blockNameSchema,
  stage_id: z.number().int().nullable().optional(),
});
/**
 * PATCH /api/blocks/{id} body: blockRequestSchema's fields, any subset (the web client may send
 * only `stage_id`), and the version read (stale → 409).
 */
export const updateBlockRequestSchema = blockRequestSchema
  .extend({ version: recordVersionSchema })
  .partial()
  .refine(AT_LEAST_ONE_FIELD.check, AT_LEAST_ONE_FIELD.options);
/** GET …/blocks answer (at most 500 blocks per subdivision: not paged). */
export const blocksResponseSchema = z.object({ data: z.array(blockSchema) });

// ---------------------------------------------------------------------------------------------
// Lots
// ---------------------------------------------------------------------------------------------

/** A lot as the lots list and the lot panel show it (no polygon: see {@link mapLotSchema}). */
export const lotSchema = z.object({
  id: z.number().int(),
  subdivision_id: z.number().int(),
  block_id: z.number().int(),
  block: z.string(),
  stage: z.string().nullable(),
  number: z.string(),
  code: z.string(),
  area_m2: z.number(),
  perimeter_m: z.number().nullable(),
  front_m: z.number().nullable(),
  front_neighbour: z.string().nullable(),
  back_m: z.number().nullable(),
  back_neighbour: z.string().nullable(),
  right_m: z.number().nullable(),
  right_neighbour: z.string().nullable(),
  left_m: z.number().nullable(),
  left_neighbour: z.string().nullable(),
  currency: currencySchema,
  price_per_m2: z.number().int(),
  list_price: z.number().int(),
  list_price_reason: z.string().nullable(),
  is_corner: z.boolean(),
  facing_park: z.boolean(),
  status: lotStatusSchema,
  /** Land use (VIVIENDA when a server does not send it). */
  land_use: landUseSchema.default('VIVIENDA'),
  has_polygon: z.boolean(),
  registry_entry: z.string().nullable(),
  notes: z.string().nullable(),
  updated_at: z.string(),
  /** Edit counter (src/schemas/versions.ts); status and price changes raise it too. */
  version: versionInAnswerSchema,
});
export type Lot = z.infer<typeof lotSchema>;

const lotFields = {
  block: blockNameSchema,
  number: lotNumberSchema,
  area_m2: measure('el área'),
  perimeter_m: optionalMetres,
  front_m: optionalMetres,
  front_neighbour: neighbour,
  back_m: optionalMetres,
  back_neighbour: neighbour,
  right_m: optionalMetres,
  right_neighbour: neighbour,
  left_m: optionalMetres,
  left_neighbour: neighbour,
  price_per_m2: cents('El precio por m² no puede ser negativo'),
  /** Omitted → computed; when it differs from the computed price a reason is required. */
  list_price: cents('El precio de lista no puede ser negativo').nullable().optional(),
  list_price_reason: z.string().trim().max(300).nullable().optional(),
  is_corner: z.boolean().optional(),
  facing_park: z.boolean().optional(),
  /** Omitted on create → VIVIENDA. A use not for sale makes the lot NO_VENDIBLE (only from DISPONIBLE). */
  land_use: landUseSchema.optional(),
  registry_entry: z.string().trim().max(40).nullable().optional(),
  notes: z.string().trim().max(1000).nullable().optional(),
};

/**
 * POST /api/subdivisions/{key}/lots body. `block` is the block's name (created when missing); the
 * code is derived ({@link lotCode}); status starts DISPONIBLE. A `list_price` other than
 * {@link computeListPrice} needs `list_price_reason` (422 on `list_price_reason`).
 */
export const createLotRequestSchema = z.strictObject(lotFields).superRefine((body, ctx) => {
  // Only when both are valid on their own (otherwise their own messages say enough).
  if (body.area_m2 <= LIMITS.maxAreaM2 && body.price_per_m2 <= LIMITS.maxCents && !listPriceWithinLimit(body.area_m2, body.price_per_m2)) {
    ctx.addIssue({ code: 'custom', path: ['price_per_m2'], message: LIMIT_MESSAGES.listPriceTooLarge });
  }
  if (body.list_price == null) return;
  if (body.list_price !== computeListPrice(body.area_m2, body.price_per_m2) && !body.list_price_reason) {
    ctx.addIssue({ code: 'custom', path: ['list_price_reason'], message: 'Indique el motivo del precio de lista distinto al calculado' });
  }
});
export type CreateLotRequest = z.input<typeof createLotRequestSchema>;

/**
 * PATCH /api/lots/{id} body: any subset. The server recomputes the list price when area or price
 * per m² change and no `list_price` is sent; a differing list price needs a reason (checked on the
 * merged record, 422 on `list_price_reason`). Status changes go through /status, never here.
 * `version`: the version read (stale → 409, src/schemas/versions.ts).
 */
export const updateLotRequestSchema = z
  .strictObject({ ...lotFields, version: recordVersionSchema })
  .partial()
  .refine(AT_LEAST_ONE_FIELD.check, AT_LEAST_ONE_FIELD.options);
export type UpdateLotRequest = z.input<typeof updateLotRequestSchema>;

/** GET /api/subdivisions/{key}/lots query: `q` searches code and notes. */
export const lotsQuerySchema = z.strictObject({
  ...listQueryShape,
  sort: sortSchema(['code', 'block', 'number', 'area_m2', 'price_per_m2', 'list_price', 'status', 'updated_at']),
  status: lotStatusSchema.optional(),
  block: z.string().trim().max(10).optional(),
  stage_id: z.coerce.number().int().optional(),
});
export type LotsQuery = z.infer<typeof lotsQuerySchema>;

export const lotsPageSchema = pagedResponseSchema(lotSchema);
export const lotResponseSchema = dataResponseSchema(lotSchema);
/** 202 of POST /api/lots/{id}/status: the hold waits for a supervisor; the lot as it is (./lot-holds.ts). */
export const lotStatusPendingResponseSchema = z.object({ data: lotSchema, hold: lotHoldSchema, message: z.string() });
/** What the web app reads of either answer of POST /api/lots/{id}/status (200 or 202: `message` only on 202). */
export const lotStatusAnswerSchema = z.object({ data: lotSchema, message: z.string().optional() });

/**
 * POST /api/lots/{id}/status body. A transition outside {@link LOT_STATUS_TRANSITIONS} → 409 with
 * a Spanish message; a target in {@link REASON_REQUIRED_STATUSES} without reason → 422 on `reason`;
 * a hold (./lot-holds.ts HOLD_STATUSES) without `until` → 422 on `until` (its bounds, today … 90
 * days, are the server's). Answers 200 `{ data: Lot }` when applied, 202 `{ data: Lot, hold,
 * message }` when the hold waits for a supervisor (the lot unchanged).
 */
export const changeLotStatusRequestSchema = z
  .strictObject({
    status: lotStatusSchema,
    reason: z.string().trim().max(300).nullable().optional(),
    until: holdUntilSchema.nullable().optional(),
  })
  .superRefine((body, ctx) => {
    if (REASON_REQUIRED_STATUSES.includes(body.status) && !body.reason) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Indique el motivo del cambio de estado' });
    }
    if (isHoldStatus(body.status) && !body.until) {
      ctx.addIssue({ code: 'custom', path: ['until'], message: LOT_HOLD_MESSAGES.untilRequired });
    }
  });
export type ChangeLotStatusRequest = z.input<typeof changeLotStatusRequestSchema>;

/** One entry of a lot's status history (newest first); `from_status` null on creation. */
export const lotStatusChangeSchema = z.object({
  id: z.number().int(),
  from_status: lotStatusSchema.nullable(),
  to_status: lotStatusSchema,
  reason: z.string().nullable(),
  user_name: z.string().nullable(),
  changed_at: z.string(),
});
export type LotStatusChange = z.infer<typeof lotStatusChangeSchema>;
/** GET /api/lots/{id}/status-history (paged, newest first). */
export const lotStatusHistoryPageSchema = pagedResponseSchema(lotStatusChangeSchema);
export const lotStatusHistoryQuerySchema = z.strictObject({ ...listQueryShape });

// ---------------------------------------------------------------------------------------------
// Bulk price update
// ---------------------------------------------------------------------------------------------

/** Which lots a bulk price change touches (all given criteria must match; at least one). */
export const lotSelectionSchema = z
  .strictObject({
    blocks: z.array(blockNameSchema).max(500).optional(),
    statuses: z.array(lotStatusSchema).max(LOT_STATUSES.length).optional(),
    lot_ids: z.array(z.number().int()).max(5000).optional(),
  })
  .refine((s) => Boolean(s.blocks?.length || s.statuses?.length || s.lot_ids?.length), {
    message: 'Elija manzanas, estados o lotes',
    path: ['blocks'],
  });
export type LotSelection = z.infer<typeof lotSelectionSchema>;

/** How prices change: a new price per m², a percentage (−90…+500 %), or céntimos added per m². */
export const priceChangeSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('SET_PRICE_PER_M2'), price_per_m2: cents('El precio por m² no puede ser negativo') }),
  z.strictObject({ kind: z.literal('PERCENT'), percent: z.number().min(LIMITS.minPercent).max(LIMITS.maxPercent) }),
  z.strictObject({
    kind: z.literal('AMOUNT_PER_M2'),
    amount_per_m2: z.number().int().min(-LIMITS.maxAmountPerM2).max(LIMITS.maxAmountPerM2),
  }),
]);
export type PriceChange = z.infer<typeof priceChangeSchema>;

/**
 * POST …/lots/price-preview and …/lots/price-update body. The new list price is recomputed from
 * the new price per m² (and its reason cleared); results below 0, or a price per m² or list price
 * past {@link LIMITS}.maxCents → 422 on `change`.
 */
export const bulkPriceRequestSchema = z.strictObject({
  selection: lotSelectionSchema,
  change: priceChangeSchema,
  reason: z.string().trim().min(1, 'Indique el motivo del cambio de precios').max(300),
});
export type BulkPriceRequest = z.input<typeof bulkPriceRequestSchema>;

/** One lot in a preview. */
export const priceChangeRowSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  status: lotStatusSchema,
  area_m2: z.number(),
  old_price_per_m2: z.number().int(),
  new_price_per_m2: z.number().int(),
  old_list_price: z.number().int(),
  new_list_price: z.number().int(),
});
/** Preview answer: totals over every selected lot, the first 100 rows. */
export const priceChangePreviewResponseSchema = z.object({
  data: z.object({
    count: z.number().int(),
    currency: currencySchema,
    total_before: z.number().int(),
    total_after: z.number().int(),
    rows: z.array(priceChangeRowSchema),
  }),
});
/** Update answer. */
export const priceChangeResultResponseSchema = z.object({ data: z.object({ updated: z.number().int() }) });

// ---------------------------------------------------------------------------------------------
// Maps
// ---------------------------------------------------------------------------------------------

/** A polygon: ≥ 3 `[x, y]` vertices, ring not closed (first ≠ last). */
export const polygonSchema = z.array(z.tuple([z.number(), z.number()])).min(3);
export type Polygon = z.infer<typeof polygonSchema>;

/** What every map draws of a subdivision. `bounds` = [minX, minY, maxX, maxY] of all polygons. */
export const mapSubdivisionSchema = z.object({
  key: z.string(),
  code: z.string(),
  name: z.string(),
  currency: currencySchema,
  coordinate_system: z.enum(['PLAN', 'GEO']),
  plan_url: z.string().nullable(),
  plan_width: z.number().int().nullable(),
  plan_height: z.number().int().nullable(),
  bounds: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable(),
});
export type MapSubdivision = z.infer<typeof mapSubdivisionSchema>;

/** A lot on the staff map (GET /api/subdivisions/{key}/map). `polygon` null → not drawn. */
export const mapLotSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  block: z.string(),
  number: z.string(),
  area_m2: z.number(),
  price_per_m2: z.number().int(),
  list_price: z.number().int(),
  status: lotStatusSchema,
  /** Land use, for the tooltip of lots not for sale (absent from servers that do not store it). */
  land_use: landUseSchema.optional(),
  polygon: polygonSchema.nullable(),
  /** The live sale's date (YYYY-MM-DD, Lima); null when the lot has no live sale; absent from older servers. */
  sale_date: z.string().nullable().optional(),
  /**
   * Days late of the live sale: today (Lima) minus the due date of its oldest instalment still owed
   * and due before today, 0 when none; null when the lot has no live sale (docs/decisions.md "Heat map metrics").
   */
  days_late: z.number().int().nullable().optional(),
});
export type MapLot = z.infer<typeof mapLotSchema>;
/** Staff map answer (every lot of the subdivision: bounded by the subdivision, ≤ 20 000). */
export const lotMapResponseSchema = z.object({
  data: z.object({ subdivision: mapSubdivisionSchema, lots: z.array(mapLotSchema) }),
});
export type LotMap = z.infer<typeof lotMapResponseSchema>['data'];

/** A lot on the public / customer map: public status only, prices null unless allowed. */
export const publicMapLotSchema = z.object({
  code: z.string(),
  block: z.string(),
  number: z.string(),
  area_m2: z.number(),
  list_price: z.number().int().nullable(),
  price_per_m2: z.number().int().nullable(),
  status: publicLotStatusSchema,
  /** Land use, for the tooltip of lots not for sale (absent from servers that do not store it). */
  land_use: landUseSchema.optional(),
  polygon: polygonSchema.nullable(),
});
export type PublicMapLot = z.infer<typeof publicMapLotSchema>;
/** GET /public/subdivisions/{key}/map answer (published subdivisions only). */
export const publicLotMapResponseSchema = z.object({
  data: z.object({ subdivision: mapSubdivisionSchema, lots: z.array(publicMapLotSchema) }),
});
export type PublicLotMap = z.infer<typeof publicLotMapResponseSchema>['data'];

// ---------------------------------------------------------------------------------------------
// Import (CSV / XLSX / GeoJSON / DXF)
// ---------------------------------------------------------------------------------------------

/** File formats the importer reads (detected from the content, the extension as a hint). */
export const importFormatSchema = z.enum(['CSV', 'XLSX', 'GEOJSON', 'DXF']);
export type ImportFormat = z.infer<typeof importFormatSchema>;

/** Largest import file, in bytes (20 MB: a DXF of 5 000 lots is ~5 MB). */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;

/**
 * One problem found in a file. `location` says where in the people's terms ("fila 14",
 * "polilínea en capa LOTES cerca de (120.5, 88.0)", "MZ B - LT 3"); `severity` ERROR blocks the
 * import, WARNING (declared vs drawn area > 1 %) does not.
 */
export const importIssueSchema = z.object({
  severity: z.enum(['ERROR', 'WARNING']),
  location: z.string(),
  lot_code: z.string().nullable(),
  field: z.string().nullable(),
  message: z.string(),
  /**
   * What kind of problem it is ({@link IMPORT_ISSUE_KINDS}), for the report's summary and filter.
   * A string, not an enum: a kind this app does not know yet is shown as "Otros" (tolerant reader).
   */
  kind: z.string().optional(),
  /** On a "y N más" row: how many issues of its kind it stands for (N). */
  more: z.number().int().optional(),
});
export type ImportIssue = z.infer<typeof importIssueSchema>;

/**
 * Kinds of import issues and their Spanish names in the report (issue 13 item 6; docs/import.md
 * "Checks"). The server tags every issue with one.
 */
export const IMPORT_ISSUE_KINDS = {
  FILE: 'Archivo',
  COORDINATES: 'Sistema de coordenadas',
  LABEL: 'Rótulos',
  CODE: 'Manzana y lote',
  DUPLICATE: 'Códigos repetidos',
  OVERLAP: 'Superposiciones',
  SLIVER: 'Contactos mínimos',
  SPIKE: 'Puntas eliminadas',
  GEOMETRY: 'Geometría',
  AREA: 'Área declarada',
  VALUE: 'Valores de las filas',
  LIMIT: 'Límites',
  PRICE: 'Precios',
  STAGE: 'Etapas',
  USE: 'Usos del suelo',
  OTHER: 'Otros',
} as const;
export type ImportIssueKind = keyof typeof IMPORT_ISSUE_KINDS;

/** One lot the file would create or update. `action` compares with the subdivision's lots. */
export const importLotRowSchema = z.object({
  block: z.string(),
  number: z.string(),
  code: z.string(),
  area_m2: z.number(),
  /** Area computed from the polygon (m²), when there is one. */
  drawn_area_m2: z.number().nullable(),
  perimeter_m: z.number().nullable(),
  price_per_m2: z.number().int().nullable(),
  has_polygon: z.boolean(),
  action: z.enum(['CREATE', 'UPDATE']),
  /** Stage (etapa) the file puts the lot in ("Etapa 1"), or null; absent from servers that do not read stages. */
  stage: z.string().nullable().optional(),
  /** Land use the file gives the lot (null: none given, a new lot is VIVIENDA, an existing one keeps its own). */
  land_use: landUseSchema.nullable().optional(),
  /**
   * The lot's outline after cleaning, in the file's coordinates (plan metres or lon/lat), for the
   * preview map that highlights the issues (issue 13 item 6); null for tables. Optional: a server
   * may leave it out (then there is no preview map). Read loosely: a bad ring is dropped, not the row.
   */
  polygon: polygonSchema.nullable().optional().catch(null),
});
export type ImportLotRow = z.infer<typeof importLotRowSchema>;

/** A DXF layer as the layer chooser lists it. */
export const dxfLayerSchema = z.object({
  name: z.string(),
  closed_polylines: z.number().int(),
  open_polylines: z.number().int(),
  texts: z.number().int(),
});

/** One stage of an import preview (issue 13 item 3): its name, how many lots the file puts in it, and whether it is new. */
export const importStageSchema = z.object({
  name: z.string(),
  lots: z.number().int(),
  action: z.enum(['CREATE', 'EXISTING']),
});
export type ImportStage = z.infer<typeof importStageSchema>;

/** One land use of an import preview (issue 13 item 4): how many lots of the file have it. */
export const importUseSchema = z.object({ use: landUseSchema, lots: z.number().int() });
export type ImportUse = z.infer<typeof importUseSchema>;

/** Longest land-use value of a file the importer keeps, in characters (longer text is cut). */
export const MAX_LAND_USE_LABEL = 80;
/** Most land-use values an import preview lists (the rest are counted in `use_values_more`). */
export const MAX_IMPORT_USE_VALUES = 100;
/** Most land-use choices one import request may carry. */
export const MAX_IMPORT_USE_CHOICES = 2000;

/**
 * Where the use of a file's land-use value comes from (docs/import.md "Land use"): UNMAPPED (none
 * yet: the user must choose one before importing), SYNONYM (the common words of
 * src/lib/proyectos/land-use-words.ts), REMEMBERED (chosen on an earlier import of this
 * subdivision), CHOSEN (sent with this request).
 */
export const IMPORT_USE_SOURCES = ['UNMAPPED', 'SYNONYM', 'REMEMBERED', 'CHOSEN'] as const;
export type ImportUseSource = (typeof IMPORT_USE_SOURCES)[number];

/**
 * One land-use value of a file that is not a use's own name ("Zona reservada", "Pozo tubular",
 * "Educación"), as the preview lists it: the text as written (its first spelling; values are
 * grouped ignoring accents, case and punctuation), how many lots have it, the use they take (null:
 * none yet) and where that use comes from. Read loosely: a use or source this app does not know
 * reads as none.
 */
export const importUseValueSchema = z.object({
  label: z.string(),
  lots: z.number().int(),
  use: landUseSchema.nullable().catch(null),
  source: z.enum(IMPORT_USE_SOURCES).optional().catch(undefined),
});
export type ImportUseValue = z.infer<typeof importUseValueSchema>;

/**
 * The user's use for one land-use value of the file (docs/import.md "Land use"), sent with the
 * preview and the commit as the multipart text field `land_uses` (a JSON array of these, at most
 * {@link MAX_IMPORT_USE_CHOICES}). `label` is the value as the preview lists it (compared ignoring
 * accents, case and punctuation); the import remembers the choice for the subdivision.
 */
export const importUseChoiceSchema = z.strictObject({
  label: z.string().trim().min(1, 'Indique el valor del archivo').max(MAX_LAND_USE_LABEL),
  use: landUseSchema,
});
export type ImportUseChoice = z.infer<typeof importUseChoiceSchema>;
export const importUseChoicesSchema = z.array(importUseChoiceSchema).max(MAX_IMPORT_USE_CHOICES);

/**
 * One lot of a duplicated code, as the preview shows it side by side with the others (issue 13
 * item 5): `position` is its place among the file's lots (1-based; what a resolution names),
 * `location` where people find it ("fila 14", "elemento 12 (MZ A - LT 3)"), areas in m².
 */
export const importDuplicateCandidateSchema = z.object({
  position: z.number().int(),
  location: z.string(),
  area_m2: z.number().nullable(),
  drawn_area_m2: z.number().nullable(),
  stage: z.string().nullable().optional(),
  land_use: landUseSchema.nullable().optional(),
});
export type ImportDuplicateCandidate = z.infer<typeof importDuplicateCandidateSchema>;

/** A code the file repeats, with every lot that has it (≥ 2), in file order. */
export const importDuplicateSchema = z.object({ code: z.string(), candidates: z.array(importDuplicateCandidateSchema) });
export type ImportDuplicate = z.infer<typeof importDuplicateSchema>;

/** Most duplicated codes a preview lists (the file's first ones; the issues still count them all). */
export const MAX_IMPORT_DUPLICATES = 2000;

/**
 * The user's choice for one lot of a duplicated code (issue 13 item 5; docs/import.md "Duplicated
 * codes"), sent with the preview and the commit as the multipart text field `resolutions` (a JSON
 * array of these, at most 20 000): the lot at `position` (whose code in the file is `code`; the
 * server refuses a choice that does not match the file) is left out (DROP) or gets the lot
 * number `number` in its block (RENAME). Lots without a choice are kept; the server applies the
 * choices and then checks the file again (a renamed code can still be repeated or taken).
 */
export const importResolutionSchema = z
  .strictObject({
    position: z.number().int().min(1).max(20_000),
    code: z.string().min(1).max(80),
    action: z.enum(['DROP', 'RENAME']),
    number: lotNumberSchema.optional(),
  })
  .refine((r) => r.action === 'DROP' || r.number !== undefined, { path: ['number'], message: 'Indique el nuevo número de lote' });
export type ImportResolution = z.infer<typeof importResolutionSchema>;
export const importResolutionsSchema = z.array(importResolutionSchema).max(20_000);

/**
 * POST …/imports/preview answer (nothing stored). `can_import` is false when any ERROR exists.
 * `lots` holds every parsed lot (≤ 20 000).
 */
export const importPreviewResponseSchema = z.object({
  data: z.object({
    format: importFormatSchema,
    layers: z.array(dxfLayerSchema).nullable(),
    layer: z.string().nullable(),
    lots: z.array(importLotRowSchema),
    issues: z.array(importIssueSchema),
    summary: z.object({ create: z.number().int(), update: z.number().int(), errors: z.number().int(), warnings: z.number().int() }),
    can_import: z.boolean(),
    /**
     * Stages the file names, with their lot counts; `CREATE` when the subdivision does not have it
     * yet (the import creates it). Optional: a server that does not read stages leaves it out.
     */
    stages: z.array(importStageSchema).optional(),
    /** Lots per land use the file gives (lots with none are left out). Optional like `stages`. */
    uses: z.array(importUseSchema).optional(),
    /**
     * The codes the file repeats, each with its candidates (issue 13 item 5), whatever the choices
     * sent: so the user can still see and change them. At most {@link MAX_IMPORT_DUPLICATES}.
     * Optional like `stages`.
     */
    duplicates: z.array(importDuplicateSchema).optional(),
    /** Coordinates of the lots' polygons (null: the file has none), for the preview map. Optional. */
    coordinate_system: z.enum(['PLAN', 'GEO']).nullable().optional(),
    /**
     * The file's land-use values that are not a use's own name, each with its lot count and use
     * (docs/import.md "Land use"): those without a use first, at most {@link MAX_IMPORT_USE_VALUES}.
     * A value without a use does not make `can_import` false, but the commit refuses the file until
     * every one has a use (field `land_uses`). Optional: absent means none.
     */
    use_values: z.array(importUseValueSchema).optional(),
    /** Values beyond the listed ones (0 or absent: every value is listed). */
    use_values_more: z.number().int().optional(),
    /** Values of the whole file without a use yet, listed or not (absent: 0). */
    use_values_unmapped: z.number().int().optional(),
  }),
});
export type ImportPreview = z.infer<typeof importPreviewResponseSchema>['data'];

/**
 * POST …/imports answer: all-or-nothing in one transaction. A file with ERRORs → 422
 * `{ message, errors: { file: [...] }, issues: ImportIssue[] }` and nothing stored.
 */
export const importResultResponseSchema = z.object({
  data: z.object({ created: z.number().int(), updated: z.number().int() }),
});

/**
 * POST …/imports refusal (422) when the file has ERRORs: the error body of docs/api.md plus the
 * file's `issues`; nothing was stored.
 */
export const importRejectedResponseSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  issues: z.array(importIssueSchema),
});
