import { z } from 'zod';
import { calendarDateSchema } from '../dates';
import { listQueryShape, pagedResponseSchema, sortSchema } from '../paging';

/**
 * Historial de cambios (docs/domain.md "Cross-cutting: Change history"): GET /api/change-history
 * and GET /api/change-history/export.csv.
 */

/** Change actions. */
export const changeActionSchema = z.enum(['CREATE', 'UPDATE', 'DELETE']);
export type ChangeAction = z.infer<typeof changeActionSchema>;

/**
 * Filters of the history (list and export): `from`/`to` are dates in America/Lima, both inclusive;
 * `actor_id` is a staff user's id (`actor_type` COLLABORATOR by default); `entity` a table name
 * ('users', 'roles', 'customers'…); `record_id` that record's id; `q` searches entity, record id and
 * the actor's name. Newest first unless `sort=occurred_at`.
 */
export const changeHistoryQuerySchema = z
  .strictObject({
    ...listQueryShape,
    sort: sortSchema(['occurred_at']),
    from: calendarDateSchema().optional(),
    to: calendarDateSchema().optional(),
    actor_type: z.enum(['COLLABORATOR', 'CUSTOMER']).optional(),
    actor_id: z.coerce.number().int().positive().optional(),
    entity: z.string().trim().min(1).max(60).optional(),
    record_id: z.string().trim().min(1).max(60).optional(),
    action: changeActionSchema.optional(),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { message: 'La fecha inicial debe ser anterior a la final', path: ['to'] });
export type ChangeHistoryQuery = z.infer<typeof changeHistoryQuerySchema>;

/**
 * Who made a change: null for the system (seed, jobs) or an anonymous call. `type` is open
 * (tolerant reader): CUSTOMER marks a customer and any other value is staff (docs/product.md §1, §6); our
 * server sends COLLABORATOR or CUSTOMER.
 */
export const changeActorSchema = z.object({ type: z.string().min(1), id: z.number().int(), name: z.string().nullable() }).nullable();

/** One change: the record's fields before and after (secrets never recorded) and the fields that differ. */
export const changeHistoryEntrySchema = z.object({
  id: z.number().int(),
  occurred_at: z.string(),
  actor: changeActorSchema,
  ip: z.string().nullable(),
  entity: z.string(),
  record_id: z.string(),
  /**
   * The record's business label ("V-000344", "MZ B - LT 8", a customer's name and document, a
   * receipt…; server/modules/historial/record-labels.ts); null or absent when unknown (show `record_id`).
   */
  record_label: z.string().nullable().optional(),
  action: changeActionSchema,
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  changed_fields: z.array(z.string()),
});
export type ChangeHistoryEntry = z.infer<typeof changeHistoryEntrySchema>;

/** GET /api/change-history answer. */
export const changeHistoryPageSchema = pagedResponseSchema(changeHistoryEntrySchema);
export type ChangeHistoryPage = z.infer<typeof changeHistoryPageSchema>;
