/**
 * The user types and reset types of the session calls as plain values (docs/product.md §6, §7 rows
 * 2, 4–6): src/schemas/session.ts builds its zod enums from them, and the code of the login page
 * reads them here without zod, which stays out of that page's entry chunk (docs/decisions.md
 * "Compression and the login budget").
 */

/** user_type sent at login (docs/product.md §6: stored type CUSTOMER marks customers; staff are COLLABORATOR). */
export const USER_TYPES = ['COLLABORATOR', 'CUSTOMER'] as const;
export type UserType = (typeof USER_TYPES)[number];

/** The `{type}` segment of the reset link and of call 6 (`password_reset_{type}`). */
export const RESET_TYPES = ['collaborator', 'customer'] as const;
export type ResetType = (typeof RESET_TYPES)[number];

/** docs/product.md §6: the stored/returned type CUSTOMER means a customer; any other value means staff. */
export function sessionTypeOf(type: string): UserType {
  return type === 'CUSTOMER' ? 'CUSTOMER' : 'COLLABORATOR';
}

/** True when `value` is one of {@link RESET_TYPES} (the reset pages' `{type}`; src/schemas/session.ts `resetTypeSchema`). */
export function isResetType(value: string): value is ResetType {
  return (RESET_TYPES as readonly string[]).includes(value);
}
