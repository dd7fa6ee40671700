import { z } from 'zod';
import { DASHBOARD_CARD_PERMISSIONS, type DashboardCardId } from '../../../src/schemas/inicio/dashboard';
import type { Permission } from '../../../src/schemas/permissions';
import { staffWith, type RouteAccess } from '../../auth/guard';

/**
 * Who may read a card: staff holding every permission of DASHBOARD_CARD_PERMISSIONS for it (the
 * permissions of the list the card links to); others get the guard's 403, customers too, no
 * session 401 — as every staff route (server/auth/guard.ts; docs/security.md 33.70, 33.75).
 */
export function dashboardCardAccess(card: DashboardCardId): RouteAccess {
  return staffWith(...(DASHBOARD_CARD_PERMISSIONS[card] as readonly Permission[]));
}

/** A card takes no query: any parameter is a 422 "Campo no permitido" on that key (docs/api.md, strict schemas). */
export const dashboardCardQuerySchema = z.strictObject({});
