import type { ApiClient, ApiError } from '../api/client';
import type { SessionApi } from '../api/session';
import { SCREEN_MACHINE_MODULES, type ScreenMachinesKey } from '../config/screens';
import type { AppToaster } from '../lib/toaster';
import type { DashboardChangedEvent } from '../schemas/inicio/dashboard';
import { lazyModule, onDemand, type LazyModule } from './shared/on-demand';

/**
 * The machine modules of the screens (issue "One place per screen"), keyed as in
 * src/config/screens.ts `SCREEN_MACHINE_MODULES`: for each, the typed module and the factory that
 * provides its machines with the app's effects. `createAppActors` builds `machines.<key>()` from
 * this table in one loop, and the screen views preload the module beside their own code.
 *
 * The modules are found by path through Vite's `import.meta.glob` (lazy: each is its own chunk), so
 * the path is written once, in the screen table; the type argument of {@link machineModule} names
 * the same module for the compiler, and tests/unit/screen-table.test.ts checks that every key
 * resolves to a module with its factory.
 */

/** What every screen factory may use; each takes the part it needs. */
export interface ScreenMachineDeps {
  /** Routes an api error to the session (401 → login, 402 → /auth/pago, …; docs/product.md §7). */
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
  /** Session calls some screens repeat (Usuarios: the locals of the form, docs/product.md §7 call 9). */
  sessionApi: SessionApi;
  /** Goes to an address of the app (the contract stepper shows a registered sale at its own). */
  navigate: (to: string) => void;
  /**
   * Subscribes to the realtime DashboardChanged pushes of the user's channel (Inicio refreshes the
   * cards named); @returns the unsubscribe function.
   */
  onDashboardChanged: (listener: (payload: DashboardChangedEvent) => void) => () => void;
}

/** The provided machines of one module. */
type Factory<M, T> = (module: M) => (client: ApiClient, deps: ScreenMachineDeps) => T;

interface MachineModuleEntry<T> {
  module: LazyModule<unknown>;
  build: (module: unknown, client: ApiClient, deps: ScreenMachineDeps) => T;
}

// The session's module is in the entry chunk (imported statically): left out so it stays there.
// Modules no screen names (the public pages', the shell's, realtime, the lot import's: loaded by
// their own code) are left out too: each glob entry costs the entry chunk its preload list
// (docs/decisions.md "Screens' preload lists").
const modules = import.meta.glob([
  './*/*.actors.ts',
  '!./session/**',
  '!./auth/**',
  '!./shell/**',
  '!./realtime/**',
  '!./proyectos/lot-import.actors.ts',
]);

/** `./<path>.ts` of the glob, by key; throws at start-up if the screen table names a missing file. */
function moduleAt(key: ScreenMachinesKey): LazyModule<unknown> {
  const path = `./${SCREEN_MACHINE_MODULES[key]}.ts`;
  const load = modules[path];
  if (!load) throw new Error(`screen-machines: no module ${path} for "${key}"`);
  return lazyModule(load);
}

/** One entry: the module of `key`, typed as `M`, and the factory picked from it. */
function machineModule<M, T>(key: ScreenMachinesKey, factory: Factory<M, T>): MachineModuleEntry<T> {
  return { module: moduleAt(key), build: (module, client, deps) => factory(module as M)(client, deps) };
}

type UsersModule = typeof import('./configuracion/users.actors');
type RolesModule = typeof import('./configuracion/roles.actors');
type CompanyModule = typeof import('./configuracion/company.actors');
type ChangeHistoryModule = typeof import('./historial/change-history.actors');
type ProjectsModule = typeof import('./proyectos/projects.actors');
type MapsModule = typeof import('./mapas/maps.actors');
type CustomersModule = typeof import('./crm/customers.actors');
type LeadsModule = typeof import('./crm/leads.actors');
type SalesModule = typeof import('./comercio/sales.actors');
type ContractModule = typeof import('./comercio/contract.actors');
type PortalSalesModule = typeof import('./comercio/portal-sales.actors');
type PurchasesModule = typeof import('./comercio/purchases.actors');
type SalesReportModule = typeof import('./comercio/sales-report.actors');
type BankAccountsModule = typeof import('./finanzas/bank-accounts.actors');
type WalletsModule = typeof import('./finanzas/wallets.actors');
type PaymentsModule = typeof import('./finanzas/payments.actors');
type InstalmentsModule = typeof import('./finanzas/instalments.actors');
type TitlesModule = typeof import('./administracion/titles.actors');
type ContractTemplatesModule = typeof import('./administracion/contract-templates.actors');
type CommissionsModule = typeof import('./administracion/commissions.actors');
type ContractsModule = typeof import('./administracion/contracts.actors');
type DashboardModule = typeof import('./inicio/dashboard.actors');
type ReportsModule = typeof import('./reportes/reports.actors');

/** Every machine module of the screen table with its factory. */
export const SCREEN_MACHINES = {
  users: machineModule('users', (m: UsersModule) => m.createUsersMachinesFor),
  roles: machineModule('roles', (m: RolesModule) => m.createRolesMachinesFor),
  company: machineModule('company', (m: CompanyModule) => m.createCompanyMachinesFor),
  changeHistory: machineModule('changeHistory', (m: ChangeHistoryModule) => m.createChangeHistoryMachinesFor),
  projects: machineModule('projects', (m: ProjectsModule) => m.createProjectsMachinesFor),
  maps: machineModule('maps', (m: MapsModule) => m.createMapsMachinesFor),
  customers: machineModule('customers', (m: CustomersModule) => m.createCustomersMachinesFor),
  leads: machineModule('leads', (m: LeadsModule) => m.createLeadsMachinesFor),
  sales: machineModule('sales', (m: SalesModule) => m.createSalesMachinesFor),
  contract: machineModule('contract', (m: ContractModule) => m.createContractMachinesFor),
  portalSales: machineModule('portalSales', (m: PortalSalesModule) => m.createPortalSalesMachinesFor),
  purchases: machineModule('purchases', (m: PurchasesModule) => m.createPurchasesMachinesFor),
  salesReport: machineModule('salesReport', (m: SalesReportModule) => m.createSalesReportMachinesFor),
  bankAccounts: machineModule('bankAccounts', (m: BankAccountsModule) => m.createBankAccountsMachinesFor),
  wallets: machineModule('wallets', (m: WalletsModule) => m.createWalletsMachinesFor),
  payments: machineModule('payments', (m: PaymentsModule) => m.createPaymentsMachinesFor),
  instalments: machineModule('instalments', (m: InstalmentsModule) => m.createInstalmentsMachinesFor),
  titles: machineModule('titles', (m: TitlesModule) => m.createTitlesMachinesFor),
  contractTemplates: machineModule('contractTemplates', (m: ContractTemplatesModule) => m.createContractTemplatesMachinesFor),
  commissions: machineModule('commissions', (m: CommissionsModule) => m.createCommissionsMachinesFor),
  contracts: machineModule('contracts', (m: ContractsModule) => m.createContractsMachinesFor),
  dashboard: machineModule('dashboard', (m: DashboardModule) => m.createDashboardMachinesFor),
  reports: machineModule('reports', (m: ReportsModule) => m.createReportsMachinesFor),
} satisfies Record<ScreenMachinesKey, MachineModuleEntry<unknown>>;

/** `machines.<key>()`: the provided machines of each module, as a promise React's `use()` can read. */
export type ScreenMachines = {
  [K in ScreenMachinesKey]: () => Promise<(typeof SCREEN_MACHINES)[K] extends MachineModuleEntry<infer T> ? T : never>;
};

/** Starts (or joins) the import of a machine module, e.g. beside its screen's view. */
export function loadScreenMachines(key: ScreenMachinesKey): Promise<unknown> {
  return SCREEN_MACHINES[key].module.load();
}

/**
 * Builds the loaders of every machine module over `client` (called once per app).
 * @param client the api client; a function, so an app without one (view tests of other screens)
 *   only fails when a screen that needs it is shown
 */
export function createScreenMachines(client: () => ApiClient, deps: ScreenMachineDeps): ScreenMachines {
  const loaders: Partial<Record<ScreenMachinesKey, () => Promise<unknown>>> = {};
  for (const key of Object.keys(SCREEN_MACHINES) as ScreenMachinesKey[]) {
    const entry: MachineModuleEntry<unknown> = SCREEN_MACHINES[key];
    loaders[key] = onDemand(entry.module, (module) => entry.build(module, client(), deps));
  }
  return loaders as ScreenMachines;
}
