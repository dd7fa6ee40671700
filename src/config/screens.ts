import type { AUTH_ROUTES } from './paths';

/**
 * The screen table (issue "One place per screen"): one entry per authenticated route of
 * src/config/paths.ts saying which code draws it. Everything else derives from it:
 *
 * - src/views/router/screen-views.ts — the lazy React component of each screen, the preloading,
 *   and AuthenticatedShell's choice of screen (no per-screen `if`);
 * - src/machines/screen-machines.ts — the machine module each screen loads beside its view and
 *   the factory that provides it (`machines.<key>()` in the views);
 * - server/preload-hints.ts — the `<link rel="modulepreload">` hints the server puts in the HTML of
 *   each route, so the browser fetches the screen's chunks beside the entry.
 *
 * Data only (no React, no imports of code), so the server can read it. A route whose issue has not
 * landed is an explicit {@link PLACEHOLDER}; the `satisfies` clause makes a route without an entry
 * a type error, and tests/unit/screen-table.test.ts loads every entry's modules and export.
 * Adding a screen: one entry here plus the screen's own files (docs/adding-a-screen.md).
 */

/** Keys of the authenticated routes (src/config/paths.ts `AUTH_ROUTES`). */
export type AuthRouteKey = keyof typeof AUTH_ROUTES;

/** A route whose screen has not been built yet: the shell shows "El módulo … estará disponible próximamente." */
export const PLACEHOLDER = 'placeholder';

/**
 * Machine modules that screens load on demand, by key (`machines.<key>()` in the views), with
 * their source path under src/machines/ (no extension). A module serves every screen of its area.
 */
export const SCREEN_MACHINE_MODULES = {
  /** Configuración → Usuarios: list, editor, row actions, form options. */
  users: 'configuracion/users.actors',
  /** Configuración → Roles y permisos: list, editor, permission matrix. */
  roles: 'configuracion/roles.actors',
  /** Configuración → Empresas: company form (with the logo), locals list and editor, activation. */
  company: 'configuracion/company.actors',
  /** Historial de Cambios: list, server CSV export, users of the "Usuario" filter. */
  changeHistory: 'historial/change-history.actors',
  /** Proyectos → Lotizaciones and Lotes. */
  projects: 'proyectos/projects.actors',
  /** The lot maps (MapaProyectos, MapSales, Heat, MapaVentas/Pagos, MapSalesCustomer, public /mapa). */
  maps: 'mapas/maps.actors',
  /** CRM → Clientes: list, editor, staff pickers, spouse search, portal-link action. */
  customers: 'crm/customers.actors',
  /** CRM → LEADS: list, board, editor, side panel with the activity log, convert, duplicates. */
  leads: 'crm/leads.actors',
  /** Comercial → Ventas: the sales list, a sale's drawer with its schedule, "Anular". */
  sales: 'comercio/sales.actors',
  /** Comercial → Contrato: the stepper of a new sale, a registered sale read back. */
  contract: 'comercio/contract.actors',
  /** Comercial → Ventas for customers: the subdivisions on sale. */
  portalSales: 'comercio/portal-sales.actors',
  /** Comercial → Mis Compras and Detalle de Compra for customers: their purchases, the statement, PagoYape. */
  purchases: 'comercio/purchases.actors',
  /** Comercial → Reporte de Ventas: filters, figures, the monthly chart's data, the Excel and PDF exports. */
  salesReport: 'comercio/sales-report.actors',
  /** Reportes and Reportes Económicos: a report's filters, figures, chart and its Excel and PDF exports. */
  reports: 'reportes/reports.actors',
  /** Finanzas → Bancos: the company's bank accounts (list, editor with the CCI rule). */
  bankAccounts: 'finanzas/bank-accounts.actors',
  /** Finanzas → Billetera Digital: the company's Yape / Plin wallets (list, editor, QR image). */
  wallets: 'finanzas/wallets.actors',
  /** Finanzas → Pagos: the review queue, a payment's drawer with its vouchers, approve / reject / annul, receipts, "Registrar pago". */
  payments: 'finanzas/payments.actors',
  /** Administración → Generar Contrato: the tabs, the contract templates' list, "Nueva plantilla" and the template editor. */
  contractTemplates: 'administracion/contract-templates.actors',
  /** Finanzas → Registro de Cuotas: every instalment with filters and totals, "Condonar mora", the server's export. */
  instalments: 'finanzas/instalments.actors',
  /** Administración → Registros de partidas y títulos: board, list, "Nuevo trámite", a process's drawer, "Cambiar estado". */
  titles: 'administracion/titles.actors',
  /** Administración → Comisiones y Pagos: commissions, settlements (create, approve, voucher, pay, Excel, PDF), policies. */
  commissions: 'administracion/commissions.actors',
  /** Administración → Generar Contrato (tab "Generar") and Registro de Contratos: the generation panel, the register, its drawer. */
  contracts: 'administracion/contracts.actors',
  /** Inicio: the staff dashboard's cards (one machine per card the user may see), refreshed by realtime pushes. */
  dashboard: 'inicio/dashboard.actors',
} as const;

export type ScreenMachinesKey = keyof typeof SCREEN_MACHINE_MODULES;

/** What draws one authenticated screen. */
export interface ScreenSource {
  /** The view module under src/views/ (no extension), e.g. "proyectos/SubdivisionsPage". */
  view: string;
  /** The module's export to render; it receives `{ params }` (the route's decoded params). */
  component: string;
  /** The machine module loaded together with the view, if the screen has one. */
  machines?: ScreenMachinesKey;
}

/** The screen table: every key of `AUTH_ROUTES`, each a {@link ScreenSource} or {@link PLACEHOLDER}. */
export const SCREENS = {
  // Inicio's dashboard machines are loaded after its first paint, with its cards (src/views/inicio/HomePage.tsx).
  home: { view: 'inicio/HomePage', component: 'HomePage' },
  usuarios: { view: 'configuracion/UsersPage', component: 'UsersScreen', machines: 'users' },
  roles: { view: 'configuracion/RolesPage', component: 'RolesScreen', machines: 'roles' },
  empresas: { view: 'configuracion/CompanyPage', component: 'CompanyScreen', machines: 'company' },
  generarContrato: {
    view: 'administracion/generar-contrato/GenerarContratoPage',
    component: 'GenerarContratoScreen',
    machines: 'contractTemplates',
  },
  registroContratos: {
    view: 'administracion/registro-contratos/RegistroContratosPage',
    component: 'RegistroContratosScreen',
    machines: 'contracts',
  },
  partidasTitulos: { view: 'administracion/partidas-titulos/TitlesPage', component: 'TitlesScreen', machines: 'titles' },
  comisiones: { view: 'administracion/comisiones/CommissionsPage', component: 'CommissionsScreen', machines: 'commissions' },
  bancos: { view: 'finanzas/BankAccountsPage', component: 'BankAccountsScreen', machines: 'bankAccounts' },
  billetera: { view: 'finanzas/WalletsPage', component: 'WalletsScreen', machines: 'wallets' },
  pagos: { view: 'finanzas/PaymentsPage', component: 'PaymentsScreen', machines: 'payments' },
  registroCuotas: { view: 'finanzas/InstalmentsPage', component: 'InstalmentsScreen', machines: 'instalments' },
  clientes: { view: 'crm/CustomersPage', component: 'CustomersScreen', machines: 'customers' },
  leads: { view: 'crm/LeadsPage', component: 'LeadsScreen', machines: 'leads' },
  lotizaciones: { view: 'proyectos/SubdivisionsPage', component: 'SubdivisionsScreen', machines: 'projects' },
  lotes: { view: 'proyectos/LotsPage', component: 'LotsScreen', machines: 'projects' },
  mapaProyectos: { view: 'mapas/ProjectMapPage', component: 'ProjectMapScreen', machines: 'maps' },
  ventas: { view: 'comercio/SalesPage', component: 'SalesScreen', machines: 'sales' },
  ventasClientes: { view: 'comercio/CustomerSalesPage', component: 'CustomerSalesScreen', machines: 'portalSales' },
  reporteVentas: { view: 'comercio/SalesReportPage', component: 'SalesReportScreen', machines: 'salesReport' },
  contrato: { view: 'comercio/ContractPage', component: 'ContractScreen', machines: 'contract' },
  misCompras: { view: 'comercio/MyPurchasesPage', component: 'MyPurchasesScreen', machines: 'purchases' },
  detalleCompra: { view: 'comercio/PurchaseDetailPage', component: 'PurchaseDetailScreen', machines: 'purchases' },
  mapSalesCustomer: { view: 'mapas/CustomerMapPage', component: 'CustomerMapScreen', machines: 'maps' },
  mapaVentasPagos: { view: 'mapas/PaymentMapPage', component: 'PaymentMapScreen', machines: 'maps' },
  mapSalesHeat: { view: 'mapas/HeatMapPage', component: 'HeatMapScreen', machines: 'maps' },
  mapSales: { view: 'mapas/SalesMapPage', component: 'SalesMapScreen', machines: 'maps' },
  almacenes: PLACEHOLDER,
  productos: PLACEHOLDER,
  parametros: PLACEHOLDER,
  proveedores: PLACEHOLDER,
  maquinarias: PLACEHOLDER,
  obrasDetalle: PLACEHOLDER,
  obras: PLACEHOLDER,
  webProperties: PLACEHOLDER,
  reportes: { view: 'reportes/ReportsPage', component: 'ReportsScreen', machines: 'reports' },
  reportesEconomicos: { view: 'reportes/ReportsPage', component: 'FinancialReportsScreen', machines: 'reports' },
  historial: { view: 'historial/ChangeHistoryPage', component: 'ChangeHistoryScreen', machines: 'changeHistory' },
} as const satisfies Record<AuthRouteKey, ScreenSource | typeof PLACEHOLDER>;

/** The screen of route `key`, or null for a placeholder. */
export function screenSource(key: AuthRouteKey): ScreenSource | null {
  const entry: ScreenSource | typeof PLACEHOLDER = SCREENS[key];
  return entry === PLACEHOLDER ? null : entry;
}

/**
 * Source files (from the project root, with extension) a screen's chunks are built from: its view
 * and its machine module. The server looks them up in Vite's manifest (server/preload-hints.ts).
 */
export function screenModuleFiles(key: AuthRouteKey): string[] {
  const screen = screenSource(key);
  if (!screen) return [];
  const files = [`src/views/${screen.view}.tsx`];
  if (screen.machines) files.push(`src/machines/${SCREEN_MACHINE_MODULES[screen.machines]}.ts`);
  return files;
}
