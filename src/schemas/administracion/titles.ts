import { z } from 'zod';
import { calendarDateSchema } from '../dates';
import { LIMITS } from '../limits';
import { dataResponseSchema, listQueryShape, pagedResponseSchema, sortSchema } from '../paging';
import { recordVersionSchema, versionInAnswerSchema, AT_LEAST_ONE_FIELD } from '../versions';

/**
 * Titles at SUNARP (Administración → Registros de partidas y títulos; docs/domain.md "Titles at
 * SUNARP"): one title process per sale, moved through {@link TITLE_TRANSITIONS} by POST
 * /api/title-processes/{id}/transition, and the public holidays the working days count
 * (/api/public-holidays). Requests are strict; answers are read tolerantly (docs/contracts.md).
 */

/** The states of a title process, in the order of the board. */
export const TITLE_STATES = [
  'PENDIENTE',
  'MINUTA_FIRMADA',
  'ESCRITURA',
  'PRESENTADO',
  'OBSERVADO',
  'LIQUIDADO',
  'TACHADO',
  'INSCRITO',
  'ENTREGADO',
] as const;
export const titleStateSchema = z.enum(TITLE_STATES, { error: 'Estado no válido' });
export type TitleState = z.infer<typeof titleStateSchema>;

/** Spanish labels of the states (the board's columns). */
export const TITLE_STATE_LABELS: Record<TitleState, string> = {
  PENDIENTE: 'Pendiente',
  MINUTA_FIRMADA: 'Minuta firmada',
  ESCRITURA: 'Escritura pública',
  PRESENTADO: 'Presentado a SUNARP',
  OBSERVADO: 'Observado',
  LIQUIDADO: 'Liquidado',
  TACHADO: 'Tachado',
  INSCRITO: 'Inscrito',
  ENTREGADO: 'Entregado',
};

/**
 * Every allowed move, from → to: the only table the server checks (a move not in it is a 409 with
 * {@link TITLE_MESSAGES}.transitionNotAllowed, nothing written). OBSERVADO goes back to PRESENTADO
 * on re-entry and LIQUIDADO on payment of the mayor derecho; either may end TACHADO when the asiento
 * de presentación expires; a TACHADO título starts again at PRESENTADO with a new título number.
 */
export const TITLE_TRANSITIONS: Readonly<Record<TitleState, readonly TitleState[]>> = {
  PENDIENTE: ['MINUTA_FIRMADA'],
  MINUTA_FIRMADA: ['ESCRITURA'],
  ESCRITURA: ['PRESENTADO'],
  PRESENTADO: ['OBSERVADO', 'LIQUIDADO', 'TACHADO', 'INSCRITO'],
  OBSERVADO: ['PRESENTADO', 'TACHADO'],
  LIQUIDADO: ['PRESENTADO', 'TACHADO'],
  TACHADO: ['PRESENTADO'],
  INSCRITO: ['ENTREGADO'],
  ENTREGADO: [],
};

/** Whether `from` → `to` is in {@link TITLE_TRANSITIONS}. */
export const isTitleTransitionAllowed = (from: TitleState, to: TitleState): boolean => TITLE_TRANSITIONS[from].includes(to);

/** States in which the asiento de presentación runs (its deadline is shown). */
export const PRESENTATION_STATES: readonly TitleState[] = ['PRESENTADO', 'OBSERVADO', 'LIQUIDADO'];

/** Spanish messages of the titles (409 conflicts, 422 per field). */
export const TITLE_MESSAGES = {
  saleRequired: 'Seleccione la venta',
  saleNotFound: 'La venta no existe',
  saleAnnulled: 'La venta está anulada: no tiene trámite de título',
  duplicate: 'Esta venta ya tiene su trámite de título',
  transitionNotAllowed: 'Ese cambio de estado no está permitido para el trámite en su estado actual',
  notPaidOff:
    'Solo una venta cancelada (pagada por completo) pasa a escritura; una venta financiada necesita el pacto de reserva de propiedad declarado',
  pactNoteRequired: 'Indique dónde consta el pacto de reserva de propiedad',
  dateInFuture: 'La fecha no puede ser posterior a hoy',
  dateBeforePrevious: 'La fecha no puede ser anterior a la del estado actual',
  tituloRequired: 'Indique el número de título',
  reentryOnly: 'Al reingresar un título observado o liquidado no se cambia el número de título',
  holidayDuplicate: 'Ya hay un feriado en esa fecha',
  deliveryRequired: 'Adjunte el acta de entrega (PDF o imagen) o indique su referencia',
  deliveryRecordMissing: 'Adjunte el acta de entrega (PDF o imagen)',
  deliveryRecordTooLarge: 'El acta de entrega no puede pesar más de 10 MB',
  deliveryRecordType: 'El acta de entrega debe ser un PDF o una imagen (PNG, JPEG o WebP)',
  deliveryRecordState: 'El acta de entrega se adjunta cuando el título está inscrito o entregado',
  deliveryRecordNone: 'Este trámite no tiene acta de entrega adjunta',
} as const;

/** Largest delivery record (acta de entrega) accepted: 10 MB. */
export const DELIVERY_RECORD_MAX_BYTES = 10 * 1024 * 1024;

/** Types a delivery record may have, read from its bytes (never from its name): a PDF or an image. */
export const DELIVERY_RECORD_CONTENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/webp'] as const;
export type DeliveryRecordContentType = (typeof DELIVERY_RECORD_CONTENT_TYPES)[number];

/** States in which the delivery record may be uploaded (or replaced): before the move to ENTREGADO, and after it. */
export const DELIVERY_RECORD_STATES: readonly TitleState[] = ['INSCRITO', 'ENTREGADO'];

const text = (max: number, required: string) => z.string({ error: required }).trim().min(1, required).max(max);
const optionalNote = z.string().trim().max(1000).nullable().optional();
const date = (message: string) => calendarDateSchema(message);

/** The number of a título at SUNARP ("2026-01234567" or digits). */
const tituloNumber = z
  .string({ error: TITLE_MESSAGES.tituloRequired })
  .trim()
  .regex(/^\d{4}-?\d{1,8}$|^\d{1,12}$/, 'Número de título no válido (p. ej. 2026-01234567)');

/**
 * POST /api/title-processes/{id}/transition body: the target state `to`, the `version` read, the
 * `date` the step happened (not after today, not before the date of the current state) and the
 * fields of the state reached:
 * - MINUTA_FIRMADA: `date` the minuta was signed;
 * - ESCRITURA: `notary`, `escritura_number`, `date` of the escritura pública;
 * - PRESENTADO: from ESCRITURA or TACHADO `titulo_number` and `date` of presentation (a new
 *   asiento); from OBSERVADO `date` of re-entry, from LIQUIDADO `date` the mayor derecho was paid
 *   (the título keeps its number and asiento);
 * - OBSERVADO: `observation` (the registrador's text) and its `date`;
 * - LIQUIDADO: mayor derecho `amount` (céntimos) and `currency`, `date` of the liquidación;
 * - TACHADO: `date`;
 * - INSCRITO: `partida` (partida electrónica), `asiento`, `date` of inscription;
 * - ENTREGADO: `date` and `delivery_reference` (a text reference of the delivery record); the
 *   reference may be left out when the record's file was uploaded first (POST
 *   /api/title-processes/{id}/delivery-record), one of the two is required.
 * Every body may carry a `note`.
 */
const base = { version: recordVersionSchema, date: date('Indique la fecha (AAAA-MM-DD)'), note: optionalNote };
export const titleTransitionRequestSchema = z.discriminatedUnion(
  'to',
  [
    z.strictObject({ to: z.literal('MINUTA_FIRMADA'), ...base }),
    z.strictObject({
      to: z.literal('ESCRITURA'),
      ...base,
      notary: text(200, 'Indique la notaría'),
      escritura_number: text(40, 'Indique el número de escritura'),
    }),
    z.strictObject({ to: z.literal('PRESENTADO'), ...base, titulo_number: tituloNumber.optional() }),
    z.strictObject({ to: z.literal('OBSERVADO'), ...base, observation: text(4000, 'Indique la observación del registrador') }),
    z.strictObject({
      to: z.literal('LIQUIDADO'),
      ...base,
      amount: z
        .number({ error: 'Indique el mayor derecho en céntimos' })
        .int('El mayor derecho va en céntimos')
        .positive('El mayor derecho debe ser mayor que cero')
        .max(LIMITS.maxCents),
      currency: z.enum(['PEN', 'USD'], { error: 'Moneda no válida' }),
    }),
    z.strictObject({ to: z.literal('TACHADO'), ...base }),
    z.strictObject({
      to: z.literal('INSCRITO'),
      ...base,
      partida: z
        .string({ error: 'Indique la partida electrónica' })
        .trim()
        .regex(/^\d{8,11}$/, 'La partida electrónica tiene de 8 a 11 dígitos'),
      asiento: text(20, 'Indique el asiento'),
    }),
    z.strictObject({
      to: z.literal('ENTREGADO'),
      ...base,
      delivery_reference: text(300, 'Indique la constancia de entrega').nullable().optional(),
    }),
  ],
  { error: 'Estado no válido' },
);
export type TitleTransitionRequest = z.input<typeof titleTransitionRequestSchema>;

/**
 * POST /api/title-processes body: the sale (one process per sale) and, for a financed sale that
 * registers before it is paid off, the retention-of-title pact (`retention_pact_stated` with a note
 * saying where it is stated).
 */
export const createTitleProcessRequestSchema = z.strictObject({
  sale_id: z.number({ error: TITLE_MESSAGES.saleRequired }).int().positive(TITLE_MESSAGES.saleRequired),
  retention_pact_stated: z.boolean().optional(),
  retention_pact_note: optionalNote,
  notes: optionalNote,
});
export type CreateTitleProcessRequest = z.input<typeof createTitleProcessRequestSchema>;

/** PATCH /api/title-processes/{id} body: the pact and the notes, with the version read. */
export const updateTitleProcessRequestSchema = z
  .strictObject({
    version: recordVersionSchema,
    retention_pact_stated: z.boolean().optional(),
    retention_pact_note: optionalNote,
    notes: optionalNote,
  })
  .refine(AT_LEAST_ONE_FIELD.check, AT_LEAST_ONE_FIELD.options);
export type UpdateTitleProcessRequest = z.input<typeof updateTitleProcessRequestSchema>;

/** GET /api/title-processes query: `q` (sale number, lot code, titular, título, partida), filters by state and subdivision. */
export const titleProcessesQuerySchema = z.strictObject({
  ...listQueryShape,
  sort: sortSchema(['state_since', 'created_at', 'deadline']),
  state: titleStateSchema.optional(),
  subdivision_id: z.coerce.number({ error: 'Lotización no válida' }).int().positive('Lotización no válida').optional(),
});
export type TitleProcessesQuery = z.infer<typeof titleProcessesQuerySchema>;

/** One step of a process's history (GET one). */
export const titleEventSchema = z.object({
  id: z.number().int(),
  from_state: z.string().nullable().default(null),
  to_state: z.string(),
  date: z.string(),
  details: z.record(z.string(), z.unknown()).catch({}).default({}),
  note: z.string().nullable().default(null),
  user: z.object({ id: z.number().int(), name: z.string() }).nullable().catch(null).default(null),
  created_at: z.string(),
});
export type TitleEvent = z.infer<typeof titleEventSchema>;

/**
 * A title process as the routes answer it. `days_in_state`: calendar days since `state_since`
 * (today, Lima). `presentation`: the asiento's last day (35 working days after `presented_on`) and
 * the day its warning is due (5 working days before), while the título is PRESENTADO, OBSERVADO or
 * LIQUIDADO; null otherwise.
 */
export const titleProcessSchema = z.object({
  id: z.number().int(),
  state: titleStateSchema.catch('PENDIENTE'),
  state_since: z.string(),
  days_in_state: z.number().int().default(0),
  sale: z.object({
    id: z.number().int(),
    number: z.string(),
    status: z.string().default(''),
    type: z.string().default(''),
    titular: z.string().default(''),
  }),
  lot: z.object({ id: z.number().int(), code: z.string(), subdivision_id: z.number().int(), subdivision_name: z.string().default('') }),
  retention_pact_stated: z.boolean().default(false),
  retention_pact_note: z.string().nullable().default(null),
  notes: z.string().nullable().default(null),
  minuta_signed_on: z.string().nullable().default(null),
  notary: z.string().nullable().default(null),
  escritura_number: z.string().nullable().default(null),
  escritura_date: z.string().nullable().default(null),
  titulo_number: z.string().nullable().default(null),
  presented_on: z.string().nullable().default(null),
  presentation: z
    .object({ deadline: z.string(), notice_on: z.string(), notice_due: z.boolean().default(false) })
    .nullable()
    .catch(null)
    .default(null),
  observation: z.string().nullable().default(null),
  reentry_on: z.string().nullable().default(null),
  mayor_derecho: z
    .object({ amount: z.number().int(), currency: z.enum(['PEN', 'USD']), paid_on: z.string().nullable().default(null) })
    .nullable()
    .catch(null)
    .default(null),
  partida: z.string().nullable().default(null),
  asiento: z.string().nullable().default(null),
  inscribed_on: z.string().nullable().default(null),
  delivery_reference: z.string().nullable().default(null),
  delivered_on: z.string().nullable().default(null),
  /** The uploaded delivery record (acta de entrega), downloaded from GET /api/title-processes/{id}/delivery-record; null when none. */
  delivery_record: z
    .object({ content_type: z.string(), size: z.number().int(), uploaded_at: z.string() })
    .nullable()
    .catch(null)
    .default(null),
  /** The states this process may move to now ({@link TITLE_TRANSITIONS}). */
  next_states: z.array(z.string()).catch([]).default([]),
  created_at: z.string(),
  updated_at: z.string(),
  version: versionInAnswerSchema,
});
export type TitleProcess = z.infer<typeof titleProcessSchema>;

/** A process with its history, oldest first: GET one, POST, PATCH and the transition. */
export const titleProcessDetailSchema = titleProcessSchema.extend({ events: z.array(titleEventSchema).catch([]).default([]) });
export type TitleProcessDetail = z.infer<typeof titleProcessDetailSchema>;

export const titleProcessesPageSchema = pagedResponseSchema(titleProcessSchema);
export const titleProcessResponseSchema = dataResponseSchema(titleProcessDetailSchema);

/** GET /api/title-processes/board query: the same filters as the list but the state. */
export const titleBoardQuerySchema = z.strictObject({
  subdivision_id: titleProcessesQuerySchema.shape.subdivision_id,
});
export type TitleBoardQuery = z.infer<typeof titleBoardQuerySchema>;

/** GET /api/title-processes/board answer: processes per state (every state, 0 when none) and how many have their deadline warning due. */
export const titleBoardSchema = z.object({
  counts: z.array(z.object({ state: z.string(), count: z.number().int() })).catch([]),
  total: z.number().int().default(0),
  notice_due: z.number().int().default(0),
});
export type TitleBoard = z.infer<typeof titleBoardSchema>;
export const titleBoardResponseSchema = dataResponseSchema(titleBoardSchema);

/** GET /api/title-processes/sale-options query: text over the sale number, lot code and titular. */
export const titleSaleOptionsQuerySchema = z.strictObject({
  q: z.string().trim().max(100, 'Búsqueda demasiado larga').optional(),
});
export type TitleSaleOptionsQuery = z.infer<typeof titleSaleOptionsQuerySchema>;

/** At most this many sales answer one search of "Nuevo trámite". */
export const MAX_TITLE_SALE_OPTIONS = 20;

/**
 * A sale "Nuevo trámite" may pick: not annulled and without a title process yet, with what the
 * picker shows (status CANCELADA means paid off; a FINANCIADO sale needs the retention-of-title
 * pact to register earlier).
 */
export const titleSaleOptionSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  status: z.string().default(''),
  type: z.string().default(''),
  lot_code: z.string(),
  subdivision_name: z.string().default(''),
  titular: z.string().default(''),
});
export type TitleSaleOption = z.infer<typeof titleSaleOptionSchema>;
export const titleSaleOptionsResponseSchema = dataResponseSchema(z.array(titleSaleOptionSchema));

// ---- Public holidays ----

/** A public holiday (días no hábiles for the working days). */
export const publicHolidaySchema = z.object({
  id: z.number().int(),
  date: z.string(),
  name: z.string(),
  version: versionInAnswerSchema,
});
export type PublicHoliday = z.infer<typeof publicHolidaySchema>;
export const publicHolidaysPageSchema = pagedResponseSchema(publicHolidaySchema);
export const publicHolidayResponseSchema = dataResponseSchema(publicHolidaySchema);

/** GET /api/public-holidays query: by year, date order. */
export const publicHolidaysQuerySchema = z.strictObject({
  page: listQueryShape.page,
  per_page: listQueryShape.per_page,
  year: z.coerce.number({ error: 'Año no válido' }).int('Año no válido').min(1900, 'Año no válido').max(2100, 'Año no válido').optional(),
});
export type PublicHolidaysQuery = z.infer<typeof publicHolidaysQuerySchema>;

/** POST /api/public-holidays body. */
export const createPublicHolidayRequestSchema = z.strictObject({
  date: date('Indique la fecha del feriado (AAAA-MM-DD)'),
  name: text(120, 'Indique el nombre del feriado'),
});
export type CreatePublicHolidayRequest = z.input<typeof createPublicHolidayRequestSchema>;

/** PATCH /api/public-holidays/{id} body. */
export const updatePublicHolidayRequestSchema = z
  .strictObject({
    version: recordVersionSchema,
    date: date('Indique la fecha del feriado (AAAA-MM-DD)').optional(),
    name: text(120, 'Indique el nombre del feriado').optional(),
  })
  .refine(AT_LEAST_ONE_FIELD.check, AT_LEAST_ONE_FIELD.options);
export type UpdatePublicHolidayRequest = z.input<typeof updatePublicHolidayRequestSchema>;

// ---------------------------------------------------------------------------------------------
// The heat map's title states (GET /api/subdivisions/{key}/title-states)
// ---------------------------------------------------------------------------------------------

/**
 * A lot of the subdivision whose live sale has a title process, and that process's state (the heat
 * map's "Estado del título", docs/decisions.md "Heat map: title state"). Lots without a live sale or
 * whose live sale has no process are absent. An unknown state reads as null (drawn as without process).
 */
export const lotTitleStateSchema = z.object({
  lot_id: z.number().int(),
  state: titleStateSchema.nullable().catch(null),
  /** The day the process entered its state (YYYY-MM-DD, Lima). */
  state_since: z.string().default(''),
});
export type LotTitleState = z.infer<typeof lotTitleStateSchema>;
/** GET /api/subdivisions/{key}/title-states answer: the subdivision's lots with a title process, by lot id. */
export const lotTitleStatesResponseSchema = dataResponseSchema(z.array(lotTitleStateSchema));
