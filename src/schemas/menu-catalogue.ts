import { MODULE, SUBMODULE, type Permission } from './permissions';

/**
 * The menu catalogue built from the permission strings of docs/product.md §6 (./permissions.ts):
 * pure data shared by the web app (side menu, Roles' matrix, the menu rebuilt when permissions
 * change) and the server (`permissions_names` at login). Its own module, so the login page's entry
 * chunk does not carry it: the app loads it with the session's permission check
 * (src/machines/session/session.actors.ts; docs/decisions.md "Compression and the login budget").
 */

/** A menu entry: label, route in the menu's capitalisation, Blueprint icon, required submodule. */
export interface MenuEntry {
  nombre: string;
  ruta: string;
  icono: string;
  /** Submodule permission; null when the item needs only its group's module permission. */
  permission: Permission | null;
}
/** A menu group of section MENÚ or ANALÍTICAS Y AUDITORÍAS. */
export interface MenuGroupEntry {
  nombre: string;
  icono: string;
  section: 'MENÚ' | 'ANALÍTICAS Y AUDITORÍAS';
  module: Permission;
  items: MenuEntry[];
}

/**
 * The menu catalogue (docs/product.md §2 "Side menu"; paths in the menu capitalisation). "pagos" also grants
 * Registro de Cuotas (docs/product.md §6). Parámetros has no submodule in docs/product.md §6, so it needs only the
 * Ingeniería module (docs/decisions.md).
 */
export const MENU_CATALOGUE: readonly MenuGroupEntry[] = [
  {
    nombre: 'Configuración',
    icono: 'cog',
    section: 'MENÚ',
    module: MODULE.configuracion,
    items: [
      { nombre: 'Usuarios', ruta: '/Configuracion/Usuarios', icono: 'people', permission: SUBMODULE.usuarios },
      { nombre: 'Roles y Permisos', ruta: '/Configuracion/RolesyPermisos', icono: 'key', permission: SUBMODULE.roles },
      { nombre: 'Empresas', ruta: '/Configuracion/Empresas', icono: 'office', permission: SUBMODULE.empresas },
    ],
  },
  {
    nombre: 'Administración',
    icono: 'briefcase',
    section: 'MENÚ',
    module: MODULE.administracion,
    items: [
      {
        nombre: 'Generar Contrato',
        ruta: '/Administracion/GenerarContrato',
        icono: 'document-open',
        permission: SUBMODULE.generarContrato,
      },
      {
        nombre: 'Registro de Contratos',
        ruta: '/Administracion/RegistroContratos',
        icono: 'archive',
        permission: SUBMODULE.registroContratos,
      },
      {
        nombre: 'Registros de Partidas y Títulos',
        ruta: '/Administracion/RegistrosPartidasTitulos',
        icono: 'book',
        permission: SUBMODULE.partidasTitulos,
      },
      { nombre: 'Comisiones y Pagos', ruta: '/Administracion/ComisionesPagos', icono: 'percentage', permission: SUBMODULE.comisiones },
    ],
  },
  {
    nombre: 'Finanzas',
    icono: 'bank-account',
    section: 'MENÚ',
    module: MODULE.finanzas,
    items: [
      { nombre: 'Bancos', ruta: '/Finanzas/Bancos', icono: 'bank-account', permission: SUBMODULE.bancos },
      { nombre: 'Billetera Digital', ruta: '/Finanzas/BilleteraDigital', icono: 'mobile-phone', permission: SUBMODULE.billeteras },
      { nombre: 'Pagos', ruta: '/Finanzas/Pagos', icono: 'dollar', permission: SUBMODULE.pagos },
      { nombre: 'Registro de Cuotas', ruta: '/Finanzas/RegistroCuotas', icono: 'calendar', permission: SUBMODULE.pagos },
    ],
  },
  {
    nombre: 'CRM',
    icono: 'people',
    section: 'MENÚ',
    module: MODULE.crm,
    items: [
      { nombre: 'Clientes', ruta: '/Crm/Clientes', icono: 'person', permission: SUBMODULE.clientes },
      { nombre: 'Leads', ruta: '/Crm/Leads', icono: 'phone', permission: SUBMODULE.leads },
    ],
  },
  {
    nombre: 'Proyectos',
    icono: 'map',
    section: 'MENÚ',
    module: MODULE.proyectos,
    items: [{ nombre: 'Lotizaciones', ruta: '/Proyectos/Lotizaciones', icono: 'grid-view', permission: SUBMODULE.lotizaciones }],
  },
  {
    nombre: 'Comercial',
    icono: 'shop',
    section: 'MENÚ',
    module: MODULE.comercial,
    items: [
      { nombre: 'Ventas', ruta: '/Comercio/Ventas', icono: 'shopping-cart', permission: SUBMODULE.ventas },
      { nombre: 'Reporte de Ventas', ruta: '/Comercio/ReporteVentas', icono: 'timeline-bar-chart', permission: SUBMODULE.reporteVentas },
      { nombre: 'Ventas', ruta: '/Comercio/VentasClientes', icono: 'shopping-cart', permission: SUBMODULE.ventasCustomers },
      { nombre: 'Mis Compras', ruta: '/Comercio/MisCompras', icono: 'home', permission: SUBMODULE.misComprasCustomers },
    ],
  },
  {
    nombre: 'Ingeniería',
    icono: 'build',
    section: 'MENÚ',
    module: MODULE.ingenieria,
    items: [
      { nombre: 'Obras', ruta: '/Ingenieria/Obras', icono: 'construction', permission: SUBMODULE.obras },
      { nombre: 'Almacenes', ruta: '/Ingenieria/Almacenes', icono: 'box', permission: SUBMODULE.almacen },
      { nombre: 'Productos', ruta: '/Ingenieria/Productos', icono: 'cube', permission: SUBMODULE.productos },
      { nombre: 'Proveedores', ruta: '/Ingenieria/Proveedores', icono: 'truck', permission: SUBMODULE.proveedores },
      { nombre: 'Maquinarias', ruta: '/Ingenieria/Maquinarias', icono: 'drive-time', permission: SUBMODULE.maquinarias },
      { nombre: 'Parámetros', ruta: '/Ingenieria/Parametros', icono: 'settings', permission: null },
    ],
  },
  {
    nombre: 'Reportes',
    icono: 'chart',
    section: 'ANALÍTICAS Y AUDITORÍAS',
    module: MODULE.reportes,
    items: [{ nombre: 'Reportes', ruta: '/Reportes', icono: 'chart', permission: null }],
  },
  {
    nombre: 'Reportes Económicos',
    icono: 'dollar',
    section: 'ANALÍTICAS Y AUDITORÍAS',
    module: MODULE.reportesEconomicos,
    items: [{ nombre: 'Reportes Económicos', ruta: '/ReportesEconomicos', icono: 'dollar', permission: null }],
  },
  {
    nombre: 'Historial de Cambios',
    icono: 'history',
    section: 'ANALÍTICAS Y AUDITORÍAS',
    module: MODULE.historial,
    items: [{ nombre: 'Historial de Cambios', ruta: '/HistorialDeCambios', icono: 'history', permission: null }],
  },
];

/**
 * Builds `permissions_names` (docs/product.md §3) for a set of held permissions: a group only with its module
 * permission, an item only with its submodule permission (or none required). Empty groups are dropped.
 * @returns [{ nombre, icono, items: [{ nombre, ruta, icono }] }] in catalogue order.
 */
export function buildPermissionsNames(held: Iterable<string>) {
  const set = new Set(held);
  return MENU_CATALOGUE.filter((g) => set.has(g.module))
    .map((g) => ({
      nombre: g.nombre,
      icono: g.icono,
      items: g.items
        .filter((i) => i.permission === null || set.has(i.permission))
        .map(({ nombre, ruta, icono }) => ({ nombre, ruta, icono })),
    }))
    .filter((g) => g.items.length > 0);
}
