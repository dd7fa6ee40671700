import { MODULE, SUBMODULE, type Permission } from '../schemas/permissions';

/**
 * The typed route table of docs/product.md §2: the single source for routes, page titles and required
 * permissions. Patterns use the route table's capitalisation; matching is case-insensitive so the
 * menu's capitalisation (/Configuracion/Usuarios) resolves to the same screen.
 */
export interface RouteDef {
  /** wouter pattern (regexparam syntax). */
  path: string;
  /** Page title; the document title is `${title} | Parcela`. */
  title: string;
  /** public: no token needed; auth: a stored token is required (docs/product.md §2 route guard). */
  access: 'public' | 'auth';
  /** Menu group name shown by placeholders until the screen's issue lands. */
  module?: string;
  /** Permissions required to see the screen (module and submodule). */
  permissions?: readonly Permission[];
}

const r = (path: string, title: string, module: string, ...permissions: Permission[]): RouteDef => ({
  path,
  title,
  access: 'auth',
  module,
  permissions,
});

/** Public routes (docs/product.md §2). */
export const PUBLIC_ROUTES = {
  login: { path: '/auth/login', title: 'Iniciar sesión', access: 'public' },
  customerLogin: { path: '/auth/loginclientes', title: 'Acceso de clientes', access: 'public' },
  access: { path: '/auth/access', title: 'Acceso denegado', access: 'public' },
  error: { path: '/auth/error', title: 'Error', access: 'public' },
  payment: { path: '/auth/pago', title: 'Falta de pago', access: 'public' },
  forgot: { path: '/auth/recuperar/:type', title: 'Recuperar contraseña', access: 'public' },
  resetPassword: { path: '/auth/reset_password/:id_encrypted/:type', title: 'Recuperar cuenta', access: 'public' },
  notFound: { path: '/pages/notfound', title: 'Página no encontrada', access: 'public' },
  landing: { path: '/landing', title: 'Lotes para construir tu futuro', access: 'public' },
  publicMap: { path: '/mapa/:name/:id_encrypted', title: 'Mapa de ventas', access: 'public' },
} as const satisfies Record<string, RouteDef>;

/** Authenticated routes (docs/product.md §2), each with the permissions that docs/product.md §6 ties to it. */
export const AUTH_ROUTES = {
  home: { path: '/', title: 'Inicio', access: 'auth' },
  usuarios: r('/CONFIGURACION/usuarios', 'Usuarios', 'Configuración', MODULE.configuracion, SUBMODULE.usuarios),
  roles: r('/CONFIGURACION/rolesypermisos', 'Roles y Permisos', 'Configuración', MODULE.configuracion, SUBMODULE.roles),
  empresas: r('/CONFIGURACION/empresas', 'Empresas', 'Configuración', MODULE.configuracion, SUBMODULE.empresas),
  generarContrato: r(
    '/ADMINISTRACION/GenerarContrato',
    'Generar Contrato',
    'Administración',
    MODULE.administracion,
    SUBMODULE.generarContrato,
  ),
  registroContratos: r(
    '/ADMINISTRACION/RegistroContratos',
    'Registro de Contratos',
    'Administración',
    MODULE.administracion,
    SUBMODULE.registroContratos,
  ),
  partidasTitulos: r(
    '/ADMINISTRACION/RegistrosPartidasTitulos',
    'Registros de Partidas y Títulos',
    'Administración',
    MODULE.administracion,
    SUBMODULE.partidasTitulos,
  ),
  comisiones: r('/ADMINISTRACION/ComisionesPagos', 'Comisiones y Pagos', 'Administración', MODULE.administracion, SUBMODULE.comisiones),
  bancos: r('/FINANZAS/Bancos', 'Bancos', 'Finanzas', MODULE.finanzas, SUBMODULE.bancos),
  billetera: r('/FINANZAS/BilleteraDigital', 'Billetera Digital', 'Finanzas', MODULE.finanzas, SUBMODULE.billeteras),
  pagos: r('/FINANZAS/Pagos', 'Pagos', 'Finanzas', MODULE.finanzas, SUBMODULE.pagos),
  registroCuotas: r('/FINANZAS/RegistroCuotas', 'Registro de Cuotas', 'Finanzas', MODULE.finanzas, SUBMODULE.pagos),
  clientes: r('/CRM/clientes', 'Clientes', 'CRM', MODULE.crm, SUBMODULE.clientes),
  leads: r('/CRM/LEADS', 'Leads', 'CRM', MODULE.crm, SUBMODULE.leads),
  lotizaciones: r('/PROYECTOS/lotizaciones', 'Lotizaciones', 'Proyectos', MODULE.proyectos, SUBMODULE.lotizaciones),
  lotes: r('/PROYECTOS/Lotes/:name/:id_encrypted', 'Lotes', 'Proyectos', MODULE.proyectos, SUBMODULE.lotizaciones),
  mapaProyectos: r(
    '/PROYECTOS/MapaProyectos/:name/:id_encrypted',
    'Mapa del Proyecto',
    'Proyectos',
    MODULE.proyectos,
    SUBMODULE.lotizaciones,
  ),
  ventas: r('/COMERCIO/ventas', 'Ventas', 'Comercial', MODULE.comercial, SUBMODULE.ventas),
  ventasClientes: r('/COMERCIO/ventasClientes', 'Ventas', 'Comercial', MODULE.comercial, SUBMODULE.ventasCustomers),
  reporteVentas: r('/COMERCIO/reporteVentas', 'Reporte de Ventas', 'Comercial', MODULE.comercial, SUBMODULE.reporteVentas),
  contrato: r('/COMERCIO/Contrato/:id_sale', 'Contrato', 'Comercial', MODULE.comercial, SUBMODULE.ventas),
  misCompras: r('/COMERCIO/MisCompras', 'Mis Compras', 'Comercial', MODULE.comercial, SUBMODULE.misComprasCustomers),
  detalleCompra: r('/COMERCIO/DetalleCompra', 'Detalle de Compra', 'Comercial', MODULE.comercial, SUBMODULE.misComprasCustomers),
  mapSalesCustomer: r('/COMERCIO/MapSalesCustomer/:name/:id_encrypted', 'Mapa de Ventas', 'Comercial', MODULE.comercial),
  mapaVentasPagos: r('/COMERCIO/MapaVentas/Pagos', 'Mapa de Pagos', 'Comercial', MODULE.comercial, SUBMODULE.ventas),
  mapSalesHeat: r('/COMERCIO/MapSales/Heat/:name/:id_encrypted', 'Mapa de Calor', 'Comercial', MODULE.comercial, SUBMODULE.ventas),
  mapSales: r('/COMERCIO/MapSales/:name/:id_encrypted', 'Mapa de Ventas', 'Comercial', MODULE.comercial, SUBMODULE.ventas),
  almacenes: r('/INGENIERIA/Almacenes', 'Almacenes', 'Ingeniería', MODULE.ingenieria, SUBMODULE.almacen),
  productos: r('/INGENIERIA/Productos', 'Productos', 'Ingeniería', MODULE.ingenieria, SUBMODULE.productos),
  parametros: r('/INGENIERIA/Parametros', 'Parámetros', 'Ingeniería', MODULE.ingenieria),
  proveedores: r('/INGENIERIA/Proveedores', 'Proveedores', 'Ingeniería', MODULE.ingenieria, SUBMODULE.proveedores),
  maquinarias: r('/INGENIERIA/Maquinarias', 'Maquinarias', 'Ingeniería', MODULE.ingenieria, SUBMODULE.maquinarias),
  obrasDetalle: r('/INGENIERIA/ObrasDetalle/:id_encrypted', 'Detalle de Obra', 'Ingeniería', MODULE.ingenieria, SUBMODULE.obras),
  obras: r('/INGENIERIA/Obras', 'Obras', 'Ingeniería', MODULE.ingenieria, SUBMODULE.obras),
  webProperties: r('/WEB/propertiesConfig', 'Configuración Web', 'Web', MODULE.configuracion),
  reportes: r('/Reportes', 'Reportes', 'Reportes', MODULE.reportes),
  reportesEconomicos: r('/ReportesEconomicos', 'Reportes Económicos', 'Reportes Económicos', MODULE.reportesEconomicos),
  historial: r('/HistorialDeCambios', 'Historial de Cambios', 'Historial de Cambios', MODULE.historial),
} as const satisfies Record<string, RouteDef>;

/** Product name appended to every page title (docs/product.md §2 "Page title"). */
export const PRODUCT_NAME = 'Parcela';

/** Parcela's own logo, served from public/ (shown wherever the company has not uploaded one). */
export const PRODUCT_LOGO = '/logo.svg';

/** `<route title> | Parcela` (docs/product.md §2). */
export function pageTitle(title: string): string {
  return `${title} | ${PRODUCT_NAME}`;
}

/** Reset link path for a token and a type (docs/product.md §2 /auth/reset_password/{id_encrypted}/{type}). */
export function resetPasswordPath(token: string, type: 'collaborator' | 'customer'): string {
  return `/auth/reset_password/${encodeURIComponent(token)}/${type}`;
}

/**
 * The contract stepper's address (/COMERCIO/Contrato/{id_sale}): `nuevo?lote={lotId}` to sell a
 * lot, a sale's id to read it back (docs/decisions.md "Sales" → "Contract stepper").
 */
export function contractPath(sale: number | 'nuevo', lotId?: number): string {
  return sale === 'nuevo' ? `/COMERCIO/Contrato/nuevo?lote=${lotId ?? ''}` : `/COMERCIO/Contrato/${sale}`;
}

/** Administración → Generar Contrato with a sale open (the Ventas drawer and the sale stepper link here). */
export function generateContractPath(saleId: number): string {
  return `/ADMINISTRACION/GenerarContrato?venta=${saleId}`;
}
