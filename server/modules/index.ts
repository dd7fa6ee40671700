import type { Migration } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../context';
import type { DialectName } from '../db/connection';
import { initialMigration } from '../db/migrations/0001-initial';
import { notificationsMigration } from '../db/migrations/0002-notifications';
import { recordVersionsMigration } from '../db/migrations/0007-record-versions';
import { installationSettingsMigration } from '../db/migrations/0008-installation-settings';
import { outboxDeliveryMigration } from '../db/migrations/0009-outbox-delivery';
import { searchTextMigration } from '../db/migrations/0034-search-text';
import { authRoutes } from '../auth/auth.routes';
import { customersRoutes } from '../auth/customers.routes';
import { passwordResetRoutes } from '../auth/password-reset.routes';
import { notificationsRoutes } from '../notifications/notifications.routes';
import { healthRoutes } from '../platform/health.routes';
import { stylesRoutes } from '../platform/styles.routes';
import { realtimeCredentialsRoutes } from '../realtime/realtime-credentials.routes';
import { companiesRoutes } from './configuracion/companies.routes';
import { localsRoutes } from './configuracion/locals.routes';
import { configuracionMigration } from './configuracion/migrations/0004-configuracion';
import { saleBackdatingMigration } from './configuracion/migrations/0028-configuracion-sale-backdating';
import { companyLogoPdfMigration } from './configuracion/migrations/0031-company-logo-pdf';
import { ownRecordsScopesMigration } from './configuracion/migrations/0036-configuracion-own-records-scopes';
import { paymentSegregationMigration } from './configuracion/migrations/0035-configuracion-payment-segregation';
import { rolesRoutes } from './configuracion/roles.routes';
import { usersRoutes } from './configuracion/users.routes';
import { leadsRoutes } from './crm/leads.routes';
import { quotesRoutes } from './comercio/quotes.routes';
import { salesRoutes } from './comercio/sales.routes';
import { salesReportRoutes } from './comercio/sales-report.routes';
import { saleRescissionRoutes } from './comercio/sale-rescission.routes';
import { portalSalesRoutes } from './comercio/portal-sales.routes';
import { lotOptionsRoutes } from './comercio/lot-options.routes';
import { purchasesRoutes } from './comercio/purchases.routes';
import { paymentMapRoutes } from './comercio/payment-map.routes';
import { salesMigration } from './comercio/migrations/0019-comercio-sales';
import { salesIndexesMigration } from './comercio/migrations/0020-comercio-sales-indexes';
import { salesListMigration } from './comercio/migrations/0021-comercio-sales-list';
import { saleSettlementsMigration } from './comercio/migrations/0038-comercio-sale-settlements';
import { quoteSaleMigration } from './comercio/migrations/0033-comercio-quote-sale';
import { rescissionRescheduleMigration } from './comercio/migrations/0045-comercio-rescission-reschedule';
import { subdivisionLateFeesMigration } from './proyectos/migrations/0023-subdivision-late-fees';
import { lotHoldsMigration } from './proyectos/migrations/0037-lot-holds';
import { lotHoldsRoutes } from './proyectos/lot-holds.routes';
import { quotesMigration } from './comercio/migrations/0018-comercio-quotes';
import { subdivisionOptionsRoutes } from './proyectos/subdivision-options.routes';
import { leadsMigration } from './crm/migrations/0017-crm-leads';
import { customersCrmRoutes } from './crm/customers.routes';
import { crmCustomersMigration } from './crm/migrations/0015-crm-customers';
import { reservationsRoutes } from './comercio/reservations.routes';
import { reservationsMigration } from './comercio/migrations/0016-comercio-reservations';
import { changeHistoryRoutes } from './historial/change-history.routes';
import { changeHistoryMigration } from './historial/migrations/0003-change-history';
import { lotImportsRoutes } from './proyectos/lot-imports.routes';
import { projectsMigration } from './proyectos/migrations/0005-projects';
import { numericLimitsMigration } from './proyectos/migrations/0006-numeric-limits';
import { landUseMigration } from './proyectos/migrations/0010-land-use';
import { overlapLimitMigration } from './proyectos/migrations/0011-overlap-limit';
import { lotCountsMigration } from './proyectos/migrations/0012-lot-counts';
import { mapRevisionsMigration } from './proyectos/migrations/0013-map-revisions';
import { stageRevisionsMigration } from './proyectos/migrations/0014-stage-revisions';
import { lotImportLandUsesMigration } from './proyectos/migrations/0030-lot-import-land-uses';
import { projectsRoutes } from './proyectos/projects.routes';
import { bankAccountsRoutes } from './finanzas/bank-accounts.routes';
import { finanzasAccountsMigration } from './finanzas/migrations/0022-finanzas-accounts';
import { finanzasPaymentsMigration } from './finanzas/migrations/0024-finanzas-payments';
import { walletsRoutes } from './finanzas/wallets.routes';
import { instalmentsRoutes } from './finanzas/instalments.routes';
import { finanzasInstalmentRemindersMigration } from './finanzas/migrations/0025-finanzas-instalment-reminders';
import { finanzasInstalmentCountsMigration } from './finanzas/migrations/0026-finanzas-instalment-counts';
import { finanzasInstalmentsListMigration } from './finanzas/migrations/0027-finanzas-instalments-list';
import { portalPendingMigration } from './finanzas/migrations/0029-finanzas-portal-pending';
import { paymentsRoutes } from './finanzas/payments.routes';
import { titlesRoutes } from './administracion/titles.routes';
import { administracionTitlesMigration } from './administracion/migrations/0040-administracion-titles';
import { administracionContractSettingsMigration } from './administracion/migrations/0041-administracion-contract-settings';
import { administracionContractsMigration } from './administracion/migrations/0043-administracion-contracts';
import { contractTemplatesRoutes } from './administracion/contract-templates.routes';
import { contractsRoutes } from './administracion/contracts.routes';
import { administracionTitleDeliveryMigration } from './administracion/migrations/0042-administracion-title-delivery';
import { administracionCommissionsMigration } from './administracion/migrations/0044-administracion-commissions';
import { administracionSaleDocumentsMigration } from './administracion/migrations/0046-administracion-sale-documents';
import { administracionContractsRegisterMigration } from './administracion/migrations/0047-administracion-contracts-register';
import { administracionContractsListMigration } from './administracion/migrations/0048-administracion-contracts-list';
import { commissionsRoutes } from './administracion/commissions.routes';
import { dashboardManagerRoutes } from './inicio/dashboard-manager.routes';
import { inicioDashboardMigration } from './inicio/migrations/0049-inicio-dashboard';
import { dashboardQueuesRoutes } from './inicio/dashboard-queues.routes';
import { reportsRoutes } from './reportes/reports.routes';
import { expensesRoutes } from './reportes/expenses.routes';
import { reportesExpensesMigration } from './reportes/migrations/0050-reportes-expenses';

/**
 * The server's modules (issue "One place per screen" item 5): the platform (health, auth,
 * registration, password reset, realtime credentials, styles, notifications; folders server/auth,
 * server/platform, server/realtime, server/notifications) and one folder per business module of the
 * menu under server/modules/<modulo>/ (configuracion, historial, proyectos, crm, comercio, finanzas,
 * administracion, inicio, reportes; ingenieria comes with its issue). server/app.ts registers every
 * module's routes from this list and server/db/migrate.ts runs every module's migrations from it,
 * so adding a module is one entry here plus the module's own folder.
 *
 * Migration names are global and sort lexically ("0008-…"): they run in name order across
 * modules, and a released name never changes (Kysely records it in `kysely_migration`).
 */
export interface ServerModule {
  /** The menu's module name (folder name), or "platform". */
  name: string;
  /** Route plugins, each built with the app's dependencies. */
  routes: ReadonlyArray<(deps: AppDeps) => FastifyPluginAsyncZod>;
  /** The module's migrations by their global name. */
  migrations: Readonly<Record<string, (dialect: DialectName) => Migration>>;
}

export const SERVER_MODULES: readonly ServerModule[] = [
  {
    name: 'platform',
    routes: [healthRoutes, customersRoutes, authRoutes, realtimeCredentialsRoutes, passwordResetRoutes, stylesRoutes, notificationsRoutes],
    migrations: {
      '0001-initial': initialMigration,
      '0002-notifications': notificationsMigration,
      '0007-record-versions': recordVersionsMigration,
      '0008-installation-settings': installationSettingsMigration,
      '0009-outbox-delivery': outboxDeliveryMigration,
      '0034-search-text': searchTextMigration,
    },
  },
  {
    name: 'configuracion',
    routes: [localsRoutes, rolesRoutes, usersRoutes, companiesRoutes],
    migrations: {
      '0004-configuracion': configuracionMigration,
      '0028-configuracion-sale-backdating': saleBackdatingMigration,
      '0031-company-logo-pdf': companyLogoPdfMigration,
      '0036-configuracion-own-records-scopes': ownRecordsScopesMigration,
      '0035-configuracion-payment-segregation': paymentSegregationMigration,
    },
  },
  { name: 'historial', routes: [changeHistoryRoutes], migrations: { '0003-change-history': changeHistoryMigration } },
  {
    name: 'proyectos',
    routes: [projectsRoutes, lotImportsRoutes, subdivisionOptionsRoutes, lotHoldsRoutes],
    migrations: {
      '0005-projects': projectsMigration,
      '0006-numeric-limits': numericLimitsMigration,
      '0010-land-use': landUseMigration,
      '0011-overlap-limit': overlapLimitMigration,
      '0012-lot-counts': lotCountsMigration,
      '0013-map-revisions': mapRevisionsMigration,
      '0014-stage-revisions': stageRevisionsMigration,
      '0023-subdivision-late-fees': subdivisionLateFeesMigration,
      '0030-lot-import-land-uses': lotImportLandUsesMigration,
      '0037-lot-holds': lotHoldsMigration,
    },
  },
  {
    name: 'crm',
    routes: [customersCrmRoutes, leadsRoutes],
    migrations: { '0015-crm-customers': crmCustomersMigration, '0017-crm-leads': leadsMigration },
  },
  {
    name: 'comercio',
    routes: [
      reservationsRoutes,
      quotesRoutes,
      salesRoutes,
      salesReportRoutes,
      portalSalesRoutes,
      lotOptionsRoutes,
      purchasesRoutes,
      paymentMapRoutes,
      saleRescissionRoutes,
    ],
    migrations: {
      '0016-comercio-reservations': reservationsMigration,
      '0018-comercio-quotes': quotesMigration,
      '0019-comercio-sales': salesMigration,
      '0020-comercio-sales-indexes': salesIndexesMigration,
      '0021-comercio-sales-list': salesListMigration,
      '0038-comercio-sale-settlements': saleSettlementsMigration,
      '0033-comercio-quote-sale': quoteSaleMigration,
      '0045-comercio-rescission-reschedule': rescissionRescheduleMigration,
    },
  },
  {
    name: 'finanzas',
    routes: [bankAccountsRoutes, walletsRoutes, paymentsRoutes, instalmentsRoutes],
    migrations: {
      '0022-finanzas-accounts': finanzasAccountsMigration,
      '0024-finanzas-payments': finanzasPaymentsMigration,
      '0025-finanzas-instalment-reminders': finanzasInstalmentRemindersMigration,
      '0026-finanzas-instalment-counts': finanzasInstalmentCountsMigration,
      '0027-finanzas-instalments-list': finanzasInstalmentsListMigration,
      '0029-finanzas-portal-pending': portalPendingMigration,
    },
  },
  {
    name: 'administracion',
    routes: [titlesRoutes, contractTemplatesRoutes, contractsRoutes, commissionsRoutes],
    migrations: {
      '0040-administracion-titles': administracionTitlesMigration,
      '0041-administracion-contract-settings': administracionContractSettingsMigration,
      '0042-administracion-title-delivery': administracionTitleDeliveryMigration,
      '0043-administracion-contracts': administracionContractsMigration,
      '0044-administracion-commissions': administracionCommissionsMigration,
      '0046-administracion-sale-documents': administracionSaleDocumentsMigration,
      '0047-administracion-contracts-register': () => administracionContractsRegisterMigration,
      '0048-administracion-contracts-list': administracionContractsListMigration,
    },
  },
  {
    name: 'inicio',
    routes: [dashboardManagerRoutes, dashboardQueuesRoutes],
    migrations: { '0049-inicio-dashboard': inicioDashboardMigration },
  },
  {
    name: 'reportes',
    routes: [reportsRoutes, expensesRoutes],
    migrations: { '0050-reportes-expenses': reportesExpensesMigration },
  },
];

/**
 * Every module's migrations for `dialect`, in name order.
 * @throws Error when two modules declare the same migration name.
 */
export function allMigrations(dialect: DialectName, modules: readonly ServerModule[] = SERVER_MODULES): Record<string, Migration> {
  const entries: Array<[string, Migration]> = [];
  const seen = new Set<string>();
  for (const module of modules) {
    for (const [name, migration] of Object.entries(module.migrations)) {
      if (seen.has(name)) throw new Error(`Migration ${name} is declared twice (module ${module.name})`);
      seen.add(name);
      entries.push([name, migration(dialect)]);
    }
  }
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}
