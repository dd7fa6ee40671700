import { AUTH_ROUTES } from '../../config/paths';
import { hasPermissions } from '../../machines/session/session.selectors';
import type { DaysLateBucket } from '../../schemas/finanzas/instalments';
import { nameSegment } from '../proyectos/lot-status';
import { withQuery } from '../../lib/with-query';

/**
 * The addresses Inicio's figures open (docs/dashboard.md; each figure equals the total of the list
 * its link opens, src/schemas/inicio/dashboard.ts): the list's route with the filters the card's
 * schema names as query parameters, which the target screen reads (its `allowedFilters`, or the
 * report's filters from the address).
 */

export { withQuery } from '../../lib/with-query';

/**
 * Reporte de Ventas of a period (and an agent): /COMERCIO/reporteVentas?from=&to=[&agent_id=] — or
 * null for a user who may not open the report (its permissions differ from the sales cards': the
 * figures are then shown without a link).
 */
export const salesReportLink = (permissions: readonly string[], from: string, to: string, agentId?: number) =>
  hasPermissions(permissions, AUTH_ROUTES.reporteVentas.permissions ?? [])
    ? withQuery(AUTH_ROUTES.reporteVentas.path, { from, to, ...(agentId !== undefined ? { agent_id: String(agentId) } : {}) })
    : null;

/** Registro de Cuotas filtered by days-late bucket: /FINANZAS/RegistroCuotas?days_late=<bucket>. */
export const overdueBucketLink = (bucket: DaysLateBucket) => withQuery(AUTH_ROUTES.registroCuotas.path, { days_late: bucket });

/** Registro de Cuotas of the instalments due in a period: ?due_from=&due_to=. */
export const instalmentsDueLink = (from: string, to: string) => withQuery(AUTH_ROUTES.registroCuotas.path, { due_from: from, due_to: to });

/** A customer's overdue instalments: ?customer_id=<id>&status=VENCIDA. */
export const customerOverdueLink = (customerId: number) =>
  withQuery(AUTH_ROUTES.registroCuotas.path, { customer_id: String(customerId), status: 'VENCIDA' });

/** Pagos filtered by status (and operation dates): /FINANZAS/Pagos?status=…[&from=&to=]. */
export const paymentsLink = (status: 'PENDIENTE' | 'APROBADO', from?: string, to?: string) =>
  withQuery(AUTH_ROUTES.pagos.path, { status, ...(from && to ? { from, to } : {}) });

/** A subdivision's lots with a status: /PROYECTOS/Lotes/<name>/<id_encrypted>?status=<status> (as SubdivisionsPage builds it). */
export const lotsLink = (subdivision: { name: string; id_encrypted: string }, status: string) =>
  withQuery(
    AUTH_ROUTES.lotes.path
      .replace(':name', nameSegment(subdivision.name))
      .replace(':id_encrypted', encodeURIComponent(subdivision.id_encrypted)),
    { status },
  );

/** Leads with filters: /CRM/LEADS?status=… | ?overdue=true | ?mine=true&overdue=true | ?lead=<id>. */
export const leadsLink = (params: Record<string, string>) => withQuery(AUTH_ROUTES.leads.path, params);

/** Separaciones of Ventas: /COMERCIO/ventas?vista=separaciones. */
export const reservationsLink = () => withQuery(AUTH_ROUTES.ventas.path, { vista: 'separaciones' });

/** Comisiones y Pagos: /ADMINISTRACION/ComisionesPagos. */
export const commissionsLink = () => AUTH_ROUTES.comisiones.path;
