import { z } from 'zod';
import { ROLE_PERMISSIONS, type Permission } from '../permissions';
import { AT_LEAST_ONE_FIELD, recordVersionSchema, versionInAnswerSchema } from '../versions';
import { dataResponseSchema, listQueryShape, pagedResponseSchema, sortSchema } from '../paging';

/**
 * Roles and permissions (Configuración → Roles y permisos): GET/POST /api/roles, GET/PATCH/DELETE
 * /api/roles/{id}, POST /api/roles/{id}/copy; and the realtime event `PermissionsChangedEvent`.
 */

/** A permission a staff role may hold (docs/product.md §6 and the scopes, {@link ROLE_PERMISSIONS}). */
export const staffPermissionSchema = z.string().refine((p): p is Permission => ROLE_PERMISSIONS.includes(p as Permission), {
  message: 'Permiso desconocido',
});

/** GET /api/roles query (`q` searches the name). */
export const rolesQuerySchema = z.strictObject({ ...listQueryShape, sort: sortSchema(['name', 'id']) });
export type RolesQuery = z.infer<typeof rolesQuerySchema>;

/** A role with its permission matrix row and how many users hold it. */
export const roleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  permissions: z.array(z.string()),
  holders: z.number().int(),
  /** Edit counter (src/schemas/versions.ts); renames and permission changes raise it. */
  version: versionInAnswerSchema,
});
export type Role = z.infer<typeof roleSchema>;

const roleNameSchema = z.string().trim().min(1, 'Ingrese el nombre del rol').max(60);
const permissionListSchema = z.array(staffPermissionSchema).max(100);

/** POST /api/roles body. */
export const createRoleRequestSchema = z.strictObject({ name: roleNameSchema, permissions: permissionListSchema.default([]) });
/** PATCH /api/roles/{id} body: a new name and/or the whole permission list; `version` the version read. */
export const updateRoleRequestSchema = z
  .strictObject({ name: roleNameSchema, permissions: permissionListSchema, version: recordVersionSchema })
  .partial()
  .refine(AT_LEAST_ONE_FIELD.check, AT_LEAST_ONE_FIELD.options);
/** POST /api/roles/{id}/copy body: the copy's name. */
export const copyRoleRequestSchema = z.strictObject({ name: roleNameSchema });

/** GET /api/roles answer. */
export const rolesPageSchema = pagedResponseSchema(roleSchema);
/** One role answer. */
export const roleResponseSchema = dataResponseSchema(roleSchema);

// The realtime event lives with the other realtime payloads (the session machine, in the entry chunk,
// parses it without pulling the roles screen's schemas).
export { PERMISSIONS_CHANGED_EVENT, permissionsChangedEventSchema, type PermissionsChangedEvent } from '../notification';
