import { DASHBOARD_CARDS, DASHBOARD_CARD_PERMISSIONS, type DashboardCardId } from '../../schemas/inicio/dashboard-cards';
import { hasPermissions } from '../session/session.selectors';

/**
 * The cards of Inicio a user sees (docs/dashboard.md): those whose permissions
 * (`DASHBOARD_CARD_PERMISSIONS`, the same table the server's routes check) the user holds all of,
 * in the layout order of `DASHBOARD_CARDS`. Empty: the user gets Inicio's module cards instead.
 * @param permissions the user's permission strings (the session's `accesos`)
 */
export function permittedDashboardCards(permissions: readonly string[]): DashboardCardId[] {
  return DASHBOARD_CARDS.filter((card) => hasPermissions(permissions, DASHBOARD_CARD_PERMISSIONS[card]));
}
