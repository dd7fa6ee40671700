/**
 * Permission strings of docs/product.md §6. Pure data shared by the web app (route guard) and the
 * server (roles, route checks); the menu built from them is ./menu-catalogue.ts (not in the login
 * page's entry chunk).
 */

/** Module permissions (docs/product.md §6), keyed by menu group. */
export const MODULE = {
  configuracion: 'Acceso módulo configuración',
  administracion: 'Acceso módulo administración',
  finanzas: 'Acceso módulo finanzas',
  crm: 'Acceso módulo CRM',
  proyectos: 'Acceso módulo proyectos',
  comercial: 'Acceso módulo comercial',
  ingenieria: 'Acceso módulo ingeniería',
  reportes: 'Acceso módulo reportes',
  reportesEconomicos: 'Acceso módulo reportes económicos',
  historial: 'Acceso módulo historial de cambios',
} as const;

/** Submodule permissions (docs/product.md §6: 'Acceso submódulo' plus the name). */
export const SUBMODULE = {
  usuarios: 'Acceso submódulo usuarios',
  roles: 'Acceso submódulo roles y permisos',
  empresas: 'Acceso submódulo empresas',
  generarContrato: 'Acceso submódulo generar contrato',
  registroContratos: 'Acceso submódulo registro de contratos',
  partidasTitulos: 'Acceso submódulo registros de partidas y títulos',
  comisiones: 'Acceso submódulo comisiones y pagos',
  bancos: 'Acceso submódulo bancos',
  billeteras: 'Acceso submódulo billeteras digitales',
  pagos: 'Acceso submódulo pagos',
  clientes: 'Acceso submódulo clientes',
  leads: 'Acceso submódulo LEADS',
  lotizaciones: 'Acceso submódulo lotizaciones',
  ventas: 'Acceso submódulo ventas',
  reporteVentas: 'Acceso submódulo reporte ventas',
  ventasCustomers: 'Acceso submódulo ventas customers',
  misComprasCustomers: 'Acceso submódulo mis compras customers',
  obras: 'Acceso submódulo obras',
  productos: 'Acceso submódulo productos',
  proveedores: 'Acceso submódulo proveedores',
  almacen: 'Acceso submódulo almacén',
  maquinarias: 'Acceso submódulo maquinarias',
} as const;

/**
 * Action permissions: rights inside a screen, not menu entries (docs/decisions.md "Leads": the
 * issue's supervisor permission). Each needs its submodule (and so its module) to be of use;
 * {@link ACTION_REQUIRES} names it.
 */
export const ACTION = {
  /** See, filter and assign every agent's leads (without it an agent sees only their own). */
  supervisarLeads: 'Supervisar leads',
  /**
   * Hold a lot by hand (SEPARADO without reservation, BLOQUEADO, RESERVA_COMERCIAL) at once, and
   * approve or reject others' requests (docs/domain.md "Lot holds"); without it a hold is a request.
   */
  aprobarBloqueos: 'Aprobar bloqueos de lotes',
  /**
   * Resolve a defaulting buyer's sale (Código Civil arts. 1561–1563: the sale RESUELTA, the lot
   * freed, the penalty kept and the refund owed; docs/domain.md "Rescission"). The approver of a
   * rescission is the user who holds it and confirms.
   */
  resolverContratos: 'Resolver contratos',
  /** Reschedule a live financed sale's open balance in a new schedule (adenda; docs/domain.md "Rescheduling (adenda)"). */
  reprogramarVentas: 'Reprogramar ventas',
  /**
   * Administración → Comisiones y Pagos: edit the policies and the agents' settings, create, approve
   * and pay settlements, export them (docs/domain.md "Commissions"); without it the screen lists
   * commissions only.
   */
  gestionarComisiones: 'Gestionar comisiones y liquidaciones',
} as const;

/**
 * Scope permissions: the opposite of an action permission, they narrow what the submodule they hang
 * from shows to the holder's own records (docs/security.md 31.11, docs/domain.md "Own records only").
 * A scope applies when every role of the user that grants its submodule holds it (a second role
 * without it widens again, as roles add up). The Administrador role never holds them.
 * - soloSusClientes: CRM → Clientes lists, opens and changes only the customers whose asesor is the user.
 * - soloSusVentas: Comercial → Ventas lists, opens and annuls only the sales whose agent is the user.
 * - soloSusExportaciones: the files and reports the server builds (Reporte de ventas and its files,
 *   the Registro de cuotas export) contain only the user's sales.
 * - soloSusComisiones: Administración → Comisiones y Pagos lists only the commissions whose
 *   beneficiary is the user or an agent whose sales head (`users.sales_head_id`) is the user.
 */
export const SCOPE = {
  soloSusClientes: 'Solo sus clientes',
  soloSusVentas: 'Solo sus ventas',
  soloSusExportaciones: 'Solo sus exportaciones',
  soloSusComisiones: 'Solo sus comisiones y las de su equipo',
} as const;

export type Permission =
  | (typeof MODULE)[keyof typeof MODULE]
  | (typeof SUBMODULE)[keyof typeof SUBMODULE]
  | (typeof ACTION)[keyof typeof ACTION]
  | (typeof SCOPE)[keyof typeof SCOPE];

/** The submodule each action permission belongs to (the roles matrix shows it under it and checks it with it). */
export const ACTION_REQUIRES: Readonly<Record<(typeof ACTION)[keyof typeof ACTION], Permission>> = {
  [ACTION.supervisarLeads]: SUBMODULE.leads,
  [ACTION.aprobarBloqueos]: SUBMODULE.lotizaciones,
  [ACTION.resolverContratos]: SUBMODULE.ventas,
  [ACTION.reprogramarVentas]: SUBMODULE.ventas,
  [ACTION.gestionarComisiones]: SUBMODULE.comisiones,
};

/**
 * The submodule each scope permission narrows (the roles matrix shows it under it). The exports
 * scope hangs from Ventas in the matrix; it narrows Reporte de ventas and Registro de cuotas too.
 */
export const SCOPE_REQUIRES: Readonly<Record<(typeof SCOPE)[keyof typeof SCOPE], Permission>> = {
  [SCOPE.soloSusClientes]: SUBMODULE.clientes,
  [SCOPE.soloSusVentas]: SUBMODULE.ventas,
  [SCOPE.soloSusExportaciones]: SUBMODULE.ventas,
  [SCOPE.soloSusComisiones]: SUBMODULE.comisiones,
};

/** Every permission string: docs/product.md §6 (modules first, then submodules), then our action permissions. */
export const ALL_PERMISSIONS: readonly Permission[] = [...Object.values(MODULE), ...Object.values(SUBMODULE), ...Object.values(ACTION)];

/** Submodules that only make sense for customers (their own purchases): never given to staff roles. */
export const CUSTOMER_ONLY_SUBMODULES: readonly Permission[] = [SUBMODULE.ventasCustomers, SUBMODULE.misComprasCustomers];

/**
 * Every permission a staff role can hold: all of docs/product.md §6 but the customer-only submodules (the
 * Administrador role holds them all; docs/decisions.md).
 */
export const STAFF_PERMISSIONS: readonly Permission[] = ALL_PERMISSIONS.filter((p) => !CUSTOMER_ONLY_SUBMODULES.includes(p));

/**
 * Every permission a staff role may be given in the roles screen: {@link STAFF_PERMISSIONS} and the
 * {@link SCOPE} permissions (these narrow, so they are not part of "every permission" the
 * Administrador holds).
 */
export const ROLE_PERMISSIONS: readonly Permission[] = [...STAFF_PERMISSIONS, ...Object.values(SCOPE)];

/** Permissions of every customer account (customers have no staff role). */
export const CUSTOMER_PERMISSIONS: readonly Permission[] = [MODULE.comercial, ...CUSTOMER_ONLY_SUBMODULES];
