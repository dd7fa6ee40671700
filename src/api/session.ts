import type { ApiClient } from './client';
import { formBody, request } from './client';
import { messageResponseSchema } from '../schemas/common';
import {
  activeLocalsResponseSchema,
  loginResponseSchema,
  realtimeCredentialsResponseSchema,
  registrationResponseSchema,
  rolePermissionsResponseSchema,
  roleNamesResponseSchema,
  sessionTypeOf,
  type LoginData,
  type LoginRequest,
  type Local,
  type RealtimeCredentials,
  type RegistrationRequest,
  type ResetLinkQuery,
  type ResetType,
  type RoleEntry,
  type StyleSettings,
  type UserType,
} from '../schemas/session';

/**
 * The session calls of docs/product.md §7 (rows 1–11 and 15), one function per call. Every function throws
 * {@link import('./client').ApiError} on failure and returns the parsed response.
 */
export function createSessionApi(client: ApiClient) {
  return {
    /** Row 1: POST register_user_customer (customer base), JSON. @returns the new customer's id and message. */
    registerCustomer: (body: RegistrationRequest) =>
      request(registrationResponseSchema, () => client.customer('register_user_customer', { method: 'POST', body })),

    /** Row 2: POST auth/login (main), JSON {user, password, user_type}. @returns data (token, type, system_styles, user). */
    login: async (body: LoginRequest): Promise<LoginData> => {
      const { data } = await request(loginResponseSchema, () => client.main('auth/login', { method: 'POST', body }));
      return { ...data, type: sessionTypeOf(data.type) };
    },

    /** Row 3: GET get_websocket_and_channels_credentials (main), bearer. @returns echo_info and channels. */
    realtimeCredentials: async (): Promise<RealtimeCredentials> =>
      (await request(realtimeCredentialsResponseSchema, () => client.main('get_websocket_and_channels_credentials'))).data,

    /** Rows 4 and 5: request a reset link for a DNI (staff on main, customers on the customer base). */
    requestPasswordReset: (type: ResetType, dni: string) =>
      request(messageResponseSchema, () =>
        type === 'collaborator'
          ? client.main('request_password_reset_collaborator', { method: 'POST', body: { dni } })
          : client.customer('request_password_reset_customer', { method: 'POST', body: { dni } }),
      ),

    /**
     * GET password_reset_{type}?id= (main): the reset link is still usable, checked without using it
     * (422 on `id` when unknown, used or expired; docs/decisions.md "Customer journey details (accessibility)").
     */
    checkResetLink: (type: ResetType, id: string) =>
      request(messageResponseSchema, () => client.main(`password_reset_${type}`, { query: { id } satisfies ResetLinkQuery })),

    /** Row 6: POST password_reset_{type} (main), JSON {id: reset token, password}. */
    resetPassword: (type: ResetType, id: string, password: string) =>
      request(messageResponseSchema, () => client.main(`password_reset_${type}`, { method: 'POST', body: { id, password } })),

    /** Row 7: POST auth/logout (main), bearer, form {user_type}. */
    logout: (userType: UserType) =>
      request(messageResponseSchema, () => client.main('auth/logout', { method: 'POST', body: formBody({ user_type: userType }) })),

    /** Row 8: POST store_or_update_user_style_config (main), bearer, form {styles: JSON string}. Staff only. */
    storeStyles: (styles: StyleSettings) =>
      request(messageResponseSchema, () =>
        client.main('store_or_update_user_style_config', { method: 'POST', body: formBody({ styles: JSON.stringify(styles) }) }),
      ),

    /** Row 9: GET ver_locales_activos (private), no auth. @returns the active locations (`message`). */
    activeLocals: async (): Promise<Local[]> =>
      (await request(activeLocalsResponseSchema, () => client.private('ver_locales_activos'))).message,

    /** Row 10: GET roles_name (private), bearer. @returns [{name, code}] zipped from the parallel lists. */
    roleNames: async (): Promise<RoleEntry[]> => {
      const res = await request(roleNamesResponseSchema, () => client.private('roles_name'));
      return res.message.map((name, i) => ({ name, code: res.id[i] ?? 0 }));
    },

    /** Row 11: GET api/roles_permissions (private), bearer. @returns the permission strings (docs/product.md §6). */
    rolePermissions: async (): Promise<string[]> =>
      (await request(rolePermissionsResponseSchema, () => client.private('api/roles_permissions'))).permissions,

    /** Row 15: POST change_password_user (main), bearer, form {actual_password, new_password}. */
    changePassword: (actualPassword: string, newPassword: string) =>
      request(messageResponseSchema, () =>
        client.main('change_password_user', {
          method: 'POST',
          body: formBody({ actual_password: actualPassword, new_password: newPassword }),
        }),
      ),
  };
}
export type SessionApi = ReturnType<typeof createSessionApi>;
