/**
 * The API bases of docs/api.md "Bases" (the web app's defaults in src/config/env.ts).
 * Routes spell their full path from these, so each path reads exactly as docs/product.md §7 lists it.
 */
/** Main (staff) base. */
export const MAIN_BASE = '/api';
/** Customer base (registration, customer reset request). */
export const CUSTOMER_BASE = '/api/customer';
/** Private base (locals, roles, permissions). */
export const PRIVATE_BASE = '/api/private';
/** Developer-only routes (hidden in production). */
export const DEV_BASE = '/dev';
/** Public base for data anyone may read (public map, plan images; docs/api.md "Bases": `/`). */
export const PUBLIC_BASE = '/public';
