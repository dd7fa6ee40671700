import { MODULE, SUBMODULE } from '../permissions';

/**
 * Inicio's card table (docs/dashboard.md): the card ids in layout order, their Spanish titles, the
 * permissions each needs and the realtime event's name. No zod here: Inicio's page reads it to
 * choose between the dashboard and the module cards before loading the dashboard's code (the
 * response schemas, ./dashboard.ts, which re-exports all of this).
 */

/** Every staff card, in the order Inicio lays them out. */
export const DASHBOARD_CARDS = [
  'sales',
  'collections',
  'overdue',
  'payments-review',
  'due-soon',
  'late-customers',
  'follow-ups',
  'expiring-reservations',
  'commissions',
  'top-agents',
  'leads',
  'lots',
] as const;
export type DashboardCardId = (typeof DASHBOARD_CARDS)[number];

/** Spanish title of each card. */
export const DASHBOARD_CARD_TITLES: Record<DashboardCardId, string> = {
  sales: 'Ventas del mes',
  collections: 'Cobranza del mes',
  overdue: 'Cartera por días de atraso',
  'payments-review': 'Pagos por revisar',
  'due-soon': 'Cuotas por vencer (7 días)',
  'late-customers': 'Clientes con más atraso',
  'follow-ups': 'Mis seguimientos pendientes',
  'expiring-reservations': 'Separaciones por vencer (48 h)',
  commissions: 'Mis comisiones',
  'top-agents': 'Mejores asesores del mes',
  leads: 'Leads',
  lots: 'Lotes por estado',
};

/**
 * Realtime: the event's name as the server broadcasts it on the user's private channel after a sale
 * or a payment changes the figures (Laravel Echo listens to it as `.DashboardChanged`: the leading
 * dot means "this exact name", as for PermissionsChangedEvent).
 */
export const DASHBOARD_CHANGED_EVENT = 'DashboardChanged';

/**
 * The permissions a card needs, all of them (the server's route check and the screen's choice of
 * cards read this one table): the list a card links to is the one the user may open.
 */
export const DASHBOARD_CARD_PERMISSIONS: Record<DashboardCardId, readonly string[]> = {
  sales: [MODULE.comercial, SUBMODULE.ventas],
  'top-agents': [MODULE.comercial, SUBMODULE.ventas],
  'expiring-reservations': [MODULE.comercial, SUBMODULE.ventas],
  collections: [MODULE.finanzas, SUBMODULE.pagos],
  overdue: [MODULE.finanzas, SUBMODULE.pagos],
  'payments-review': [MODULE.finanzas, SUBMODULE.pagos],
  'due-soon': [MODULE.finanzas, SUBMODULE.pagos],
  'late-customers': [MODULE.finanzas, SUBMODULE.pagos],
  leads: [MODULE.crm, SUBMODULE.leads],
  'follow-ups': [MODULE.crm, SUBMODULE.leads],
  lots: [MODULE.proyectos, SUBMODULE.lotizaciones],
  commissions: [MODULE.administracion, SUBMODULE.comisiones],
};
