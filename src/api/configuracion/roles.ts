import type { ApiClient } from '../client';
import { request } from '../client';
import { listParams } from '../list-params';
import type { ListQuery } from '../../schemas/list';
import {
  copyRoleRequestSchema,
  createRoleRequestSchema,
  roleResponseSchema,
  rolesPageSchema,
  updateRoleRequestSchema,
  type Role,
} from '../../schemas/configuracion/roles';
import { z } from 'zod';

/**
 * Configuración → Roles y permisos (staff base, 'Acceso módulo configuración' + 'Acceso submódulo
 * roles y permisos'). Throws {@link import('../client').ApiError}; 409 when deleting a held role or
 * touching the Administrador role.
 */
export function createRolesApi(client: ApiClient) {
  const one = async (run: () => Promise<unknown>): Promise<Role> => (await request(roleResponseSchema, run)).data;
  return {
    /** GET roles (with permissions and holder counts); `q` searches the name. */
    list: (query: ListQuery) => request(rolesPageSchema, () => client.main('roles', { query: listParams(query) })),
    /** GET roles/{id}. */
    get: (id: number) => one(() => client.main(`roles/${id}`)),
    /** POST roles. */
    create: (body: z.input<typeof createRoleRequestSchema>) => one(() => client.main('roles', { method: 'POST', body })),
    /** PATCH roles/{id}: name and/or the whole permission list (holders are pushed PermissionsChangedEvent). */
    update: (id: number, body: z.input<typeof updateRoleRequestSchema>) => one(() => client.main(`roles/${id}`, { method: 'PATCH', body })),
    /** POST roles/{id}/copy with the copy's name. */
    copy: (id: number, body: z.input<typeof copyRoleRequestSchema>) => one(() => client.main(`roles/${id}/copy`, { method: 'POST', body })),
    /** DELETE roles/{id} (204). */
    remove: (id: number) => request(z.unknown(), () => client.main(`roles/${id}`, { method: 'DELETE' })).then(() => undefined),
  };
}
export type RolesApi = ReturnType<typeof createRolesApi>;
