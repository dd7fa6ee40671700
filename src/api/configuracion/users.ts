import type { ApiClient } from '../client';
import { request } from '../client';
import { listParams } from '../list-params';
import { messageResponseSchema } from '../../schemas/common';
import type { ListQuery } from '../../schemas/list';
import {
  staffUserResponseSchema,
  usersPageSchema,
  type CreateUserRequest,
  type StaffUser,
  type UpdateUserRequest,
} from '../../schemas/configuracion/users';

/**
 * Configuración → Usuarios (staff base, 'Acceso módulo configuración' + 'Acceso submódulo usuarios').
 * Every function throws {@link import('../client').ApiError} on failure (422 carries field errors,
 * 409 the last-Administrador / self-deactivation message).
 */
export function createUsersApi(client: ApiClient) {
  const one = async (run: () => Promise<unknown>): Promise<StaffUser> => (await request(staffUserResponseSchema, run)).data;
  return {
    /** GET users: `q` (name, surname, DNI, e-mail), filters `status`, `role_id`; `{data, meta}`. */
    list: (query: ListQuery) => request(usersPageSchema, () => client.main('users', { query: listParams(query) })),
    /** GET users/{id}. */
    get: (id: number) => one(() => client.main(`users/${id}`)),
    /** POST users: the new user gets a password-reset e-mail (no password is set here). */
    create: (body: CreateUserRequest) => one(() => client.main('users', { method: 'POST', body })),
    /** PATCH users/{id}; `role_ids` / `local_ids` replace the lists. */
    update: (id: number, body: UpdateUserRequest) => one(() => client.main(`users/${id}`, { method: 'PATCH', body })),
    /** POST users/{id}/deactivate (ends the user's sessions). */
    deactivate: (id: number) => one(() => client.main(`users/${id}/deactivate`, { method: 'POST' })),
    /** POST users/{id}/reactivate. */
    reactivate: (id: number) => one(() => client.main(`users/${id}/reactivate`, { method: 'POST' })),
    /** POST users/{id}/send-password-reset → `{message}`. */
    sendPasswordReset: (id: number) =>
      request(messageResponseSchema, () => client.main(`users/${id}/send-password-reset`, { method: 'POST' })),
  };
}
export type UsersApi = ReturnType<typeof createUsersApi>;
