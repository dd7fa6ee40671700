import { z } from 'zod';
import { AT_LEAST_ONE_FIELD, recordVersionSchema, versionInAnswerSchema } from '../versions';
import { listQueryShape, pagedResponseSchema, sortSchema, dataResponseSchema } from '../paging';

/**
 * Staff users (Configuración → Usuarios): GET/POST /api/users, GET/PATCH /api/users/{id},
 * POST /api/users/{id}/deactivate | reactivate | send-password-reset.
 */

/** Account status codes. */
export const accountStatusSchema = z.enum(['ACTIVO', 'INACTIVO']);

/** Peruvian DNI: exactly 8 digits. */
export const staffDniSchema = z
  .string()
  .trim()
  .regex(/^\d{8}$/, 'El DNI debe tener 8 dígitos');

/** Staff e-mail (stored lower-case). */
export const staffEmailSchema = z.email({ error: 'Ingrese un correo electrónico válido' }).max(120);

/** Mobile phone: 9 digits starting with 9, or null. */
export const staffPhoneSchema = z
  .string()
  .trim()
  .regex(/^9\d{8}$/, 'El celular debe tener 9 dígitos y empezar con 9')
  .nullable();

/** A list of distinct record ids. */
const idListSchema = z
  .array(z.number().int().positive())
  .max(100)
  .refine((ids) => new Set(ids).size === ids.length, { message: 'Hay valores repetidos' });

/** GET /api/users query: `q` searches name, surname, DNI and e-mail; filters `status`, `role_id`. */
export const usersQuerySchema = z.strictObject({
  ...listQueryShape,
  sort: sortSchema(['name', 'surname', 'dni', 'email', 'created_at']),
  status: accountStatusSchema.optional(),
  role_id: z.coerce.number().int().positive().optional(),
});
export type UsersQuery = z.infer<typeof usersQuerySchema>;

/** A staff user as every users route answers it (never a password or hash). */
export const staffUserSchema = z.object({
  id: z.number().int(),
  dni: z.string(),
  email: z.string(),
  name: z.string(),
  surname: z.string(),
  phone: z.string().nullable(),
  status: accountStatusSchema,
  roles: z.array(z.object({ id: z.number().int(), name: z.string() })),
  locals: z.array(z.object({ id: z.number().int(), name: z.string() })),
  created_at: z.string(),
  updated_at: z.string(),
  /** Edit counter (src/schemas/versions.ts). */
  version: versionInAnswerSchema,
});
export type StaffUser = z.infer<typeof staffUserSchema>;

/**
 * POST /api/users body. No password: the new user receives a password-reset link by e-mail
 * (docs/decisions.md), so the administrator never knows it. At least one role.
 */
export const createUserRequestSchema = z.strictObject({
  dni: staffDniSchema,
  email: staffEmailSchema,
  name: z.string().trim().min(1, 'Ingrese el nombre').max(80),
  surname: z.string().trim().min(1, 'Ingrese los apellidos').max(120),
  phone: staffPhoneSchema.optional(),
  role_ids: idListSchema.refine((ids) => ids.length > 0, { message: 'Asigne al menos un rol' }),
  local_ids: idListSchema.default([]),
});
export type CreateUserRequest = z.input<typeof createUserRequestSchema>;

/**
 * PATCH /api/users/{id} body: any subset of the create fields; `role_ids`/`local_ids` replace the
 * lists; `version` the version read (stale → 409, src/schemas/versions.ts).
 */
export const updateUserRequestSchema = createUserRequestSchema
  .extend({ local_ids: idListSchema, version: recordVersionSchema })
  .partial()
  .refine(AT_LEAST_ONE_FIELD.check, AT_LEAST_ONE_FIELD.options);
export type UpdateUserRequest = z.input<typeof updateUserRequestSchema>;

/** GET /api/users answer. */
export const usersPageSchema = pagedResponseSchema(staffUserSchema);
/** GET/POST/PATCH and actions on one user answer. */
export const staffUserResponseSchema = dataResponseSchema(staffUserSchema);
