/**
 * Tolerant reader (issue 12 item 6; docs/contracts.md, docs/api.md "Rules every route
 * follows", docs/contracts.md): every schema the web app reads an answer with accepts the minimal
 * example of its call plus an unknown key at every object level. Requests stay strict (checked at
 * the end).
 *
 * The registry below must name every response schema:
 * - every export of src/schemas whose name ends in ResponseSchema, ReadSchema, PageSchema or
 *   EventSchema (the naming rule for answers and pushed events);
 * - every schema src/api hands to `request(…)`, `parseBody(…)` or `….safeParse(…)` (read from the
 *   source text), whatever its name.
 * A new response schema that is not in the registry fails the first two tests.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type * as zc from 'zod/v4/core';
import * as common from '../../../src/schemas/common';
import * as session from '../../../src/schemas/session';
import * as notification from '../../../src/schemas/notification';
import * as projects from '../../../src/schemas/proyectos/projects';
import * as lotHolds from '../../../src/schemas/proyectos/lot-holds';
import * as users from '../../../src/schemas/configuracion/users';
import * as roles from '../../../src/schemas/configuracion/roles';
import * as company from '../../../src/schemas/configuracion/company';
import * as changeHistory from '../../../src/schemas/historial/change-history';
import * as customers from '../../../src/schemas/crm/customers';
import * as reservations from '../../../src/schemas/comercio/reservations';
import * as quotes from '../../../src/schemas/comercio/quotes';
import * as sales from '../../../src/schemas/comercio/sales';
import * as salesReport from '../../../src/schemas/comercio/sales-report';
import * as portalSales from '../../../src/schemas/comercio/portal-sales';
import * as lotOptions from '../../../src/schemas/comercio/lot-options';
import * as leads from '../../../src/schemas/crm/leads';
import * as subdivisionOptions from '../../../src/schemas/proyectos/subdivision-options';
import * as list from '../../../src/schemas/list';
import * as bankAccounts from '../../../src/schemas/finanzas/bank-accounts';
import * as wallets from '../../../src/schemas/finanzas/wallets';
import * as payments from '../../../src/schemas/finanzas/payments';
import * as instalments from '../../../src/schemas/finanzas/instalments';
import * as purchases from '../../../src/schemas/comercio/purchases';
import * as paymentMap from '../../../src/schemas/comercio/payment-map';
import { dataResponseSchema } from '../../../src/schemas/paging';
import * as titles from '../../../src/schemas/administracion/titles';
import * as contractTemplates from '../../../src/schemas/administracion/contract-templates';
import * as contracts from '../../../src/schemas/administracion/contracts';
import * as commissions from '../../../src/schemas/administracion/commissions';
import * as rescissions from '../../../src/schemas/comercio/rescissions';
import * as dashboard from '../../../src/schemas/inicio/dashboard';
import * as reports from '../../../src/schemas/reportes/report';
import * as expenses from '../../../src/schemas/reportes/expenses';

const MODULES: Record<string, Record<string, unknown>> = {
  common,
  dashboard,
  titles,
  contractTemplates,
  contracts,
  commissions,
  rescissions,
  session,
  notification,
  projects,
  lotHolds,
  users,
  roles,
  company,
  changeHistory,
  customers,
  leads,
  subdivisionOptions,
  reservations,
  quotes,
  sales,
  salesReport,
  reports,
  expenses,
  portalSales,
  lotOptions,
  bankAccounts,
  wallets,
  purchases,
  paymentMap,
  list,
};

const meta = { page: 1, per_page: 20, total: 1 };
/** An expense of the register (Egresos) with only what its schema requires. */
const expense = {
  id: 1,
  subdivision: { id: 1 },
  expense_date: '2026-11-05',
  concept: 'Movimiento de tierras',
  amount: 125_050,
  currency: 'PEN',
  created_at: '2026-11-05T15:00:00.000Z',
};
/** A Registro de Cuotas row with only what its schema requires. */
const instalmentRow = {
  id: 1,
  sale: { id: 1, number: 'V-000001' },
  subdivision: { id: 1 },
  kind: 'CUOTA',
  number: 1,
  due_date: '2026-01-01',
  amount: 100,
  paid: 0,
  balance: 100,
};
const bankAccount = {
  id: 1,
  bank: 'BCP',
  kind: 'AHORROS',
  currency: 'PEN',
  number: '19100012345678',
  cci: '00219100012345678957',
  holder: 'Parcela SAC',
  active: true,
};
const wallet = { id: 1, kind: 'YAPE', phone: '987654321', holder: 'Parcela SAC', active: true, qr_url: null };
/** A payment with only what src/schemas/finanzas/payments.ts requires: id, customer, amount, currency, method, dates. */
const payment = {
  id: 1,
  customer: { id: 3, display_name: 'Ana Torres' },
  amount: 50_000,
  currency: 'PEN',
  method: 'YAPE',
  operation_date: '2026-11-20',
  created_at: '2026-11-20T15:00:00Z',
};
/** The fields of a customer's purchase the customer screens need. */
const purchase = {
  id: 1,
  number: 'V-000001',
  lot_code: 'MZ A - LT 1',
  currency: 'PEN',
  final_price: 100,
  total: 100,
  balance: 100,
  status: 'EN_CUOTAS',
};
const customerPayment = { id: 1, amount: 100, currency: 'PEN', method: 'YAPE', operation_date: '2026-11-22' };
/** The fields of a sale the sales screens need. */
const sale = {
  id: 1,
  number: 'V-000001',
  sale_date: '2026-11-22',
  type: 'CONTADO',
  lot: { id: 1, code: 'MZ A - LT 1' },
  holders: [{ id: 1, display_name: 'Ana Torres', role: 'TITULAR', share_percent: '100.00' }],
  currency: 'PEN',
  list_price: 3_000_000,
  final_price: 3_000_000,
  down_payment: 3_000_000,
  financed: 0,
  instalments: 0,
  method: 'SIN_INTERES',
  balance: 3_000_000,
  status: 'REGISTRADA',
  created_at: '2026-11-22T15:00:00Z',
  updated_at: '2026-11-22T15:00:00Z',
};
/** The fields of a quote the quote screens need. */
const quote = {
  id: 1,
  number: 'COT-000001',
  lot: { id: 1, code: 'MZ A - LT 1' },
  customer: { id: 1, display_name: 'Ana Torres' },
  currency: 'PEN',
  list_price: 3_000_000,
  final_price: 3_000_000,
  down_payment: 3_000_000,
  financed: 0,
  instalments: 0,
  method: 'SIN_INTERES',
  valid_until: '2026-11-30',
  status: 'BORRADOR',
  created_at: '2026-11-22T15:00:00Z',
  updated_at: '2026-11-22T15:00:00Z',
};
/** The fields of a lead the spec of the leads screen fixes (docs/decisions.md "Leads"). */
const lead = {
  id: 1,
  name: 'Ana Torres',
  channel: 'FACEBOOK',
  status: 'POR_ATENDER',
  received_at: '2026-11-22T15:00:00Z',
  created_at: '2026-11-22T15:00:00Z',
  updated_at: '2026-11-22T15:00:00Z',
};
const when = '2026-11-22T15:00:00Z';
const notificationItem = {
  id_notification: 1,
  type: { icon: 'info-sign', color_icon: '#3b82f6' },
  title: 'Nuevo cliente',
  detail: '<p>Hola</p>',
  new: true,
};
const subdivision = {
  id: 1,
  key: 'k3Y',
  code: 'LV-01',
  name: 'Los Viñedos',
  department: 'Lima',
  province: 'Lima',
  district: 'Carabayllo',
  ubigeo: null,
  address: null,
  currency: 'PEN',
  total_area_m2: 1000,
  registry_entry: null,
  licence_number: null,
  licence_date: null,
  status: 'EN_VENTA',
  published: true,
  public_prices: false,
  coordinate_system: 'PLAN',
  plan_url: null,
  lot_counts: { DISPONIBLE: 1, SEPARADO: 0, VENDIDO: 0, BLOQUEADO: 0, RESERVA_COMERCIAL: 0, CANJE: 0 },
  lots_total: 1,
  sold_area_m2: 0,
  created_at: when,
  updated_at: when,
};
/** A hold request as /api/lot-holds answers it (src/schemas/proyectos/lot-holds.ts). */
const lotHold = {
  id: 1,
  lot: { id: 1, code: 'MZ A - LT 1', subdivision_id: 1 },
  status: 'RESERVA_COMERCIAL',
  state: 'PENDIENTE',
  reason: null,
  until: '2026-12-01',
  requested_by: null,
  requested_at: when,
  decided_by: null,
  decided_at: null,
  decision_reason: null,
};
const lot = {
  id: 1,
  subdivision_id: 1,
  block_id: 1,
  block: 'A',
  stage: null,
  number: '1',
  code: 'A-1',
  area_m2: 120,
  perimeter_m: null,
  front_m: null,
  front_neighbour: null,
  back_m: null,
  back_neighbour: null,
  right_m: null,
  right_neighbour: null,
  left_m: null,
  left_neighbour: null,
  currency: 'PEN',
  price_per_m2: 10000,
  list_price: 1200000,
  list_price_reason: null,
  is_corner: false,
  facing_park: false,
  status: 'DISPONIBLE',
  has_polygon: false,
  registry_entry: null,
  notes: null,
  updated_at: when,
};
const mapSubdivision = {
  key: 'k3Y',
  code: 'LV-01',
  name: 'Los Viñedos',
  currency: 'PEN',
  coordinate_system: 'PLAN',
  plan_url: null,
  plan_width: null,
  plan_height: null,
  bounds: null,
};
const issue = { severity: 'ERROR', location: 'fila 2', lot_code: null, field: null, message: 'Falta el área' };
const staffUser = {
  id: 1,
  dni: '45678912',
  email: 'a@b.pe',
  name: 'Ana',
  surname: 'Quispe',
  phone: null,
  status: 'ACTIVO',
  roles: [{ id: 1, name: 'Admin' }],
  locals: [],
  created_at: when,
  updated_at: when,
};
const role = { id: 1, name: 'Admin', permissions: [], holders: 0 };
/** A reservation with only the fields the schema requires. */
const reservation = {
  id: 1,
  number: 'SEP-000001',
  customer: { id: 3, display_name: 'Rosa Quispe' },
  lot: { id: 1, code: 'MZ A - LT 1' },
  amount: 50000,
  currency: 'PEN',
  hold_days: 7,
  expires_at: when,
  status: 'PENDIENTE_PAGO',
  created_at: when,
  updated_at: when,
};
/** A title process with only what the schema requires (docs/domain.md "Titles at SUNARP"). */
/** A contract template version (docs/domain.md "Contract templates"); lists carry `content: null`. */
const contractTemplate = {
  id: 1,
  subdivision: { id: 1, name: 'Los Viñedos' },
  kind: 'COMPRAVENTA_CONTADO',
  name: 'Compraventa',
  state: 'BORRADOR',
  version_number: 1,
  content: { type: 'doc', content: [{ type: 'paragraph' }] },
  published_at: null,
  published_by: null,
  version: 1,
};

const titleProcess = {
  id: 1,
  state: 'PENDIENTE',
  state_since: '2026-11-22',
  sale: { id: 3, number: 'V-000003' },
  lot: { id: 9, code: 'MZ A - LT 9', subdivision_id: 1 },
  created_at: when,
  updated_at: when,
};
const publicHoliday = { id: 1, date: '2026-12-25', name: 'Navidad' };
/** A customer with only the fields the schema requires (a server without the CRM's optional fields). */
const customer = {
  id: 3,
  person_type: 'NATURAL',
  id_document_type: '1',
  document_number: '45454545',
  name: 'Rosa',
  surname: 'Quispe',
  display_name: 'Rosa Quispe',
  status: 'ACTIVO',
  created_at: when,
  updated_at: when,
};
const local = { id: 1, name: 'Sede', address: 'Av. 1', active: true };
const sessionUser = {
  id: 7,
  name: 'Lucía',
  surname: 'Quispe',
  dni: '45678912',
  email: 'l@e.pe',
  phone: '987654321',
  status: 'ACTIVO',
  roles: [],
  permissions_names: [{ nombre: 'Configuración', items: [{ nombre: 'Usuarios', ruta: '/Configuracion/Usuarios', icono: 'people' }] }],
};

/** A Registro de Contratos row with only what its schema requires. */
const contractRow = {
  id: 1,
  kind: 'COMPRAVENTA_CONTADO',
  state: 'EMITIDO',
  sale: { id: 1, number: 'V-000001' },
  lot: { id: 1, code: 'MZ A - LT 1', subdivision_id: 1, subdivision_name: 'Lotización' },
  template: { id: 1, name: 'Compraventa al contado', version_number: 1 },
};
const commissionPolicy = { id: 1, subdivision: { id: 1 } };
const commissionLine = {
  id: 1,
  agent: { id: 1 },
  amount: 90_000,
  projected_on: '2026-11-20',
  sale: { id: 1, number: 'V-000001', subdivision_id: 1 },
};
const settlementRow = { id: 1, number: 'LQ-000001', period_from: '2026-11-20', period_to: '2026-11-20', total: 90_000, created_at: when };
/** An open instalment of a sale's schedule. */
const openRow = { number: 1, kind: 'CUOTA', due_date: '2025-02-01', amount: 500_000, unpaid: 500_000 };

interface Entry {
  schema: zc.$ZodType;
  /** The smallest answer the call may give: only what the spec (or docs/api.md) fixes. */
  example: unknown;
}

/** Every schema the web app reads an answer or a pushed event with, by the name it is known by. */
const RESPONSE_SCHEMAS: Record<string, Entry> = {
  errorBodySchema: { schema: common.errorBodySchema, example: { message: 'Sesión no válida o expirada' } },
  messageResponseSchema: { schema: common.messageResponseSchema, example: { message: 'ok' } },
  // Session (docs/product.md §7 rows 1–3, 9–11)
  registrationResponseSchema: { schema: session.registrationResponseSchema, example: { message: 'Registro exitoso', data: { id: 1 } } },
  loginResponseSchema: {
    schema: session.loginResponseSchema,
    example: { data: { token: 'a'.repeat(64), type: 'ADMIN', system_styles: null, user: sessionUser } },
  },
  styleSettingsReadSchema: {
    schema: session.styleSettingsReadSchema,
    example: { primary: 'emerald', surface: null, preset: 'Aura', menuMode: 'static', darkTheme: false },
  },
  realtimeCredentialsResponseSchema: {
    schema: session.realtimeCredentialsResponseSchema,
    example: {
      data: {
        echo_info: { broadcaster: 'pusher', key: 'k', cluster: 'mt1', encrypted: true },
        channels: { 'administration.notifications': { channel: 'n' }, 'administration.notifications_customers': { channel: 'c' } },
      },
    },
  },
  activeLocalsResponseSchema: { schema: session.activeLocalsResponseSchema, example: { message: [{ id: 1, name: 'Sede Central' }] } },
  roleNamesResponseSchema: { schema: session.roleNamesResponseSchema, example: { message: ['Administrador'], id: [1] } },
  rolePermissionsResponseSchema: { schema: session.rolePermissionsResponseSchema, example: { permissions: [] } },
  // Notifications (rows 12–14, realtime)
  notificationsReadSchema: {
    schema: notification.notificationsReadSchema,
    example: { data: { notification_quantity: 0, notification: [notificationItem] } },
  },
  notificationsResponseSchema: {
    schema: notification.notificationsResponseSchema,
    example: {
      data: {
        notification_quantity: 1,
        notification: [
          {
            ...notificationItem,
            type: { code: 'INFO', name: 'Información', icon: 'info-sign', color_icon: '#3b82f6' },
            created_at_formatted: '2026-11-22 10:00:00',
            fecha_creacion: when,
          },
        ],
      },
    },
  },
  notificationReadSchema: { schema: notification.notificationReadSchema, example: notificationItem },
  notificationTypeReadSchema: { schema: notification.notificationTypeReadSchema, example: notificationItem.type },
  notificationsMessageEventSchema: {
    schema: notification.notificationsMessageEventSchema,
    example: { tipo_operacion: 'NEW_NOTIFICATION', message: { ids_users: [7], notification: notificationItem } },
  },
  permissionsChangedEventSchema: { schema: notification.permissionsChangedEventSchema, example: { user_id: 7, changed_at: when } },
  sendNotificationResponseSchema: {
    schema: notification.sendNotificationResponseSchema,
    example: { message: 'ok', data: { recipients: 0, ids_notifications: [] } },
  },
  channelAuthResponseSchema: { schema: notification.channelAuthResponseSchema, example: { auth: 'key:abc' } },
  // Configuración
  usersPageSchema: { schema: users.usersPageSchema as zc.$ZodType, example: { data: [staffUser], meta } },
  staffUserResponseSchema: { schema: users.staffUserResponseSchema as zc.$ZodType, example: { data: staffUser } },
  rolesPageSchema: { schema: roles.rolesPageSchema as zc.$ZodType, example: { data: [role], meta } },
  // CRM
  customersPageSchema: { schema: customers.customersPageSchema as zc.$ZodType, example: { data: [customer], meta } },
  customerResponseSchema: { schema: customers.customerResponseSchema as zc.$ZodType, example: { data: customer } },
  leadsPageSchema: { schema: leads.leadsPageSchema as zc.$ZodType, example: { data: [lead], meta } },
  leadResponseSchema: { schema: leads.leadResponseSchema as zc.$ZodType, example: { data: lead } },
  leadDuplicatesResponseSchema: { schema: leads.leadDuplicatesResponseSchema as zc.$ZodType, example: { data: [lead] } },
  leadsSummaryResponseSchema: { schema: leads.leadsSummaryResponseSchema as zc.$ZodType, example: { data: { counts: {} } } },
  leadActivitiesResponseSchema: {
    schema: leads.leadActivitiesResponseSchema as zc.$ZodType,
    example: { data: [{ id: 1, kind: 'LLAMADA', outcome: 'Contestó', occurred_at: when }] },
  },
  leadActivityResponseSchema: {
    schema: leads.leadActivityResponseSchema as zc.$ZodType,
    example: { data: { id: 1, kind: 'NOTA', outcome: 'Nota', occurred_at: when } },
  },
  leadImportPreviewResponseSchema: {
    schema: leads.leadImportPreviewResponseSchema as zc.$ZodType,
    example: { data: { total: 1, rows: [{ row: 2, name: 'Ana', channel: 'FACEBOOK', action: 'NUEVO' }], issues: [{ message: 'x' }] } },
  },
  leadImportResultResponseSchema: { schema: leads.leadImportResultResponseSchema as zc.$ZodType, example: { data: { created: 1 } } },
  subdivisionOptionsResponseSchema: {
    schema: subdivisionOptions.subdivisionOptionsResponseSchema as zc.$ZodType,
    example: { data: [{ id: 1, name: 'Los Viñedos' }] },
  },
  // Inicio (docs/dashboard.md): each card with only what its schema requires.
  salesCardResponseSchema: {
    schema: dashboard.salesCardResponseSchema as zc.$ZodType,
    example: {
      data: {
        as_of: '2026-11-29',
        periods: [
          { period: 'THIS_MONTH', from: '2026-11-01', to: '2026-11-29', count: 1, by_currency: [{ currency: 'PEN', amount: 100 }] },
        ],
      },
    },
  },
  collectionsCardResponseSchema: {
    schema: dashboard.collectionsCardResponseSchema as zc.$ZodType,
    example: {
      data: { as_of: '2026-11-29', from: '2026-11-01', to: '2026-11-30', by_currency: [{ currency: 'PEN', collected: 1, expected: 2 }] },
    },
  },
  overdueCardResponseSchema: {
    schema: dashboard.overdueCardResponseSchema as zc.$ZodType,
    example: { data: { as_of: '2026-11-29', buckets: [{ bucket: '31_60', count: 1, by_currency: [{ currency: 'PEN', amount: 100 }] }] } },
  },
  lotsCardResponseSchema: {
    schema: dashboard.lotsCardResponseSchema as zc.$ZodType,
    example: { data: { subdivisions: [{ id: 1, id_encrypted: 'k3y', name: 'Los Viñedos', counts: { DISPONIBLE: 3 } }] } },
  },
  leadsCardResponseSchema: {
    schema: dashboard.leadsCardResponseSchema as zc.$ZodType,
    example: {
      data: { as_of: '2026-11-29', by_status: [{ status: 'POR_ATENDER', count: 1 }], month: { arrived: 1, converted: 0, rate_bp: 0 } },
    },
  },
  topAgentsCardResponseSchema: {
    schema: dashboard.topAgentsCardResponseSchema as zc.$ZodType,
    example: {
      data: {
        from: '2026-11-01',
        to: '2026-11-29',
        agents: [{ id: 1, name: 'Ana', count: 1, by_currency: [{ currency: 'PEN', amount: 1 }] }],
      },
    },
  },
  paymentsReviewCardResponseSchema: {
    schema: dashboard.paymentsReviewCardResponseSchema as zc.$ZodType,
    example: { data: { count: 1, by_currency: [], oldest: [{ id: 1, currency: 'PEN', amount: 100, created_at: when }] } },
  },
  expiringReservationsCardResponseSchema: {
    schema: dashboard.expiringReservationsCardResponseSchema as zc.$ZodType,
    example: { data: { count: 1, reservations: [{ id: 1, expires_at: when }] } },
  },
  followUpsCardResponseSchema: {
    schema: dashboard.followUpsCardResponseSchema as zc.$ZodType,
    example: { data: { count: 1, leads: [{ id: 1, name: 'Ana', next_follow_up_at: when }] } },
  },
  commissionsCardResponseSchema: {
    schema: dashboard.commissionsCardResponseSchema as zc.$ZodType,
    example: { data: { by_currency: [{ currency: 'PEN', earned: 1, to_pay: 0 }] } },
  },
  dueSoonCardResponseSchema: {
    schema: dashboard.dueSoonCardResponseSchema as zc.$ZodType,
    example: { data: { from: '2026-11-29', to: '2026-12-06', count: 1, by_currency: [] } },
  },
  lateCustomersCardResponseSchema: {
    schema: dashboard.lateCustomersCardResponseSchema as zc.$ZodType,
    example: { data: { customers: [{ id: 1, name: 'Ana', days_late: 40, by_currency: [] }] } },
  },
  dashboardChangedEventSchema: { schema: dashboard.dashboardChangedEventSchema as zc.$ZodType, example: { cards: ['collections'] } },
  // Comercial
  salesPageSchema: { schema: sales.salesPageSchema as zc.$ZodType, example: { data: [sale], meta } },
  saleResponseSchema: { schema: sales.saleResponseSchema as zc.$ZodType, example: { data: sale } },
  saleAnnulmentResponseSchema: {
    schema: sales.saleAnnulmentResponseSchema as zc.$ZodType,
    example: { data: { sale_id: 1, currency: 'PEN', paid: 150_000, credit_targets: [{ id: 2, number: 'V-000002', debt: 90_000 }] } },
  },
  proposedAgentResponseSchema: {
    schema: sales.proposedAgentResponseSchema as zc.$ZodType,
    example: { data: { agent: { id: 2, name: 'Ana', surname: 'Ruiz' }, source: 'RESERVA' } },
  },
  salesReportResponseSchema: {
    schema: salesReport.salesReportResponseSchema as zc.$ZodType,
    example: {
      data: {
        from: '2026-01-01',
        to: '2026-03-31',
        months: ['2026-01', '2026-02', '2026-03'],
        totals: [{ currency: 'PEN', count: 1, total: 3_000_000 }],
        by_month: [{ month: '2026-01', currency: 'PEN', count: 1, total: 3_000_000 }],
      },
    },
  },
  salesReportOptionsResponseSchema: {
    schema: salesReport.salesReportOptionsResponseSchema as zc.$ZodType,
    example: { data: { subdivisions: [{ id: 1, name: 'Los Viñedos' }], agents: [{ id: 1, name: 'Ana Quispe' }] } },
  },
  reportResponseSchema: {
    schema: reports.reportResponseSchema as zc.$ZodType,
    example: {
      data: {
        report: 'cobranza',
        title: 'Cobranza',
        columns: [{ key: 'period', label: 'Día', kind: 'date' }],
        rows: [{ cells: { period: '2026-11-02', total: 150_000 }, currency: 'PEN' }],
        row_count: 1,
      },
    },
  },
  reportReadResponseSchema: {
    schema: reports.reportReadResponseSchema as zc.$ZodType,
    example: { data: { report: 'inventario', title: 'Inventario', columns: [], rows: [{ cells: { lots: 3 } }], row_count: 1 } },
  },
  reportOptionsResponseSchema: {
    schema: reports.reportOptionsResponseSchema as zc.$ZodType,
    example: { data: { subdivisions: [{ id: 1, name: 'Los Viñedos' }], agents: [{ id: 1, name: 'Ana Quispe' }] } },
  },
  paymentMapResponseSchema: {
    schema: paymentMap.paymentMapResponseSchema as zc.$ZodType,
    example: { data: { subdivision: { key: 'k3Xa' }, lots: [{ lot_id: 1, sale_id: 1, bucket: 'D1_30' }] } },
  },
  lotOptionsResponseSchema: {
    schema: lotOptions.lotOptionsResponseSchema as zc.$ZodType,
    example: { data: [{ id: 1, code: 'MZ A - LT 1', currency: 'PEN', list_price: 3_000_000 }] },
  },
  portalSubdivisionsResponseSchema: {
    schema: portalSales.portalSubdivisionsResponseSchema as zc.$ZodType,
    example: { data: [{ key: 'k3Xa', name: 'Los Viñedos', currency: 'PEN' }] },
  },
  reservationRequestResponseSchema: {
    schema: portalSales.reservationRequestResponseSchema as zc.$ZodType,
    example: { data: { message: 'Solicitud enviada' } },
  },
  quotesPageSchema: { schema: quotes.quotesPageSchema as zc.$ZodType, example: { data: [quote], meta } },
  quoteResponseSchema: { schema: quotes.quoteResponseSchema as zc.$ZodType, example: { data: quote } },
  reservationsPageSchema: { schema: reservations.reservationsPageSchema as zc.$ZodType, example: { data: [reservation], meta } },
  reservationResponseSchema: { schema: reservations.reservationResponseSchema as zc.$ZodType, example: { data: reservation } },
  staffOptionsPageSchema: {
    schema: customers.staffOptionsPageSchema as zc.$ZodType,
    example: { data: [{ id: 1, name: 'Ana', surname: 'Quispe' }], meta },
  },
  roleResponseSchema: { schema: roles.roleResponseSchema as zc.$ZodType, example: { data: role } },
  companyResponseSchema: {
    schema: company.companyResponseSchema as zc.$ZodType,
    example: {
      data: {
        id: 1,
        business_name: 'Parcela SAC',
        ruc: '20123456789',
        address: 'Av. 1',
        phone: null,
        email: null,
        legal_representative: null,
        logo_url: null,
      },
    },
  },
  localsPageSchema: { schema: company.localsPageSchema as zc.$ZodType, example: { data: [local], meta } },
  localResponseSchema: { schema: company.localResponseSchema as zc.$ZodType, example: { data: local } },
  // Reportes económicos → Egresos: the expense without voucher, author, edit time or version.
  expensesPageSchema: { schema: expenses.expensesPageSchema as zc.$ZodType, example: { data: [expense], meta } },
  expenseResponseSchema: { schema: expenses.expenseResponseSchema as zc.$ZodType, example: { data: expense } },
  // Finanzas (issue 16): only what docs/domain.md "Bank account" / "Wallet" fixes, plus the id.
  bankAccountsPageSchema: { schema: bankAccounts.bankAccountsPageSchema as zc.$ZodType, example: { data: [bankAccount], meta } },
  bankAccountResponseSchema: { schema: bankAccounts.bankAccountResponseSchema as zc.$ZodType, example: { data: bankAccount } },
  walletsPageSchema: { schema: wallets.walletsPageSchema as zc.$ZodType, example: { data: [wallet], meta } },
  walletResponseSchema: { schema: wallets.walletResponseSchema as zc.$ZodType, example: { data: wallet } },
  // Pagos: the payment's id, payer, amount, currency, method and dates.
  paymentsPageSchema: { schema: payments.paymentsPageSchema as zc.$ZodType, example: { data: [payment], meta } },
  paymentResponseSchema: { schema: payments.paymentResponseSchema as zc.$ZodType, example: { data: payment } },
  // Registro de Cuotas: the row's ids, sale, subdivision, kind, number, due date and amounts.
  instalmentsPageSchema: { schema: instalments.instalmentsPageSchema as zc.$ZodType, example: { data: [instalmentRow], meta } },
  instalmentResponseSchema: { schema: instalments.instalmentResponseSchema as zc.$ZodType, example: { data: instalmentRow } },
  instalmentTotalsResponseSchema: {
    schema: instalments.instalmentTotalsResponseSchema as zc.$ZodType,
    example: { data: [{ currency: 'PEN', count: 1, amount: 100, paid: 0, balance: 100 }] },
  },
  // The customer's purchases (issue 16 "Customer screens"): what Mis Compras, Detalle de Compra and PagoYape read.
  purchasesPageSchema: { schema: purchases.purchasesPageSchema as zc.$ZodType, example: { data: [purchase], meta } },
  purchaseDetailResponseSchema: { schema: purchases.purchaseDetailResponseSchema as zc.$ZodType, example: { data: purchase } },
  paymentOptionsResponseSchema: {
    schema: purchases.paymentOptionsResponseSchema as zc.$ZodType,
    example: {
      data: {
        wallets: [{ id: 1, kind: 'YAPE', phone: '987654321', holder: 'Parcela SAC' }],
        bank_accounts: [
          { id: 1, bank: 'BCP', kind: 'AHORROS', currency: 'PEN', number: '1910001', cci: '00219100012345678957', holder: 'X' },
        ],
      },
    },
  },
  customerPaymentCreatedResponseSchema: {
    schema: purchases.customerPaymentCreatedResponseSchema as zc.$ZodType,
    example: { data: { payment: customerPayment } },
  },
  customerPaymentResponseSchema: { schema: purchases.customerPaymentResponseSchema as zc.$ZodType, example: { data: customerPayment } },
  // Historial de cambios
  changeHistoryPageSchema: {
    schema: changeHistory.changeHistoryPageSchema as zc.$ZodType,
    example: {
      data: [
        {
          id: 1,
          occurred_at: when,
          actor: { type: 'ADMIN', id: 1, name: null },
          ip: null,
          entity: 'users',
          record_id: '1',
          action: 'UPDATE',
          before: null,
          after: { name: 'Ana' },
          changed_fields: ['name'],
        },
      ],
      meta,
    },
  },
  // Proyectos
  subdivisionsPageSchema: { schema: projects.subdivisionsPageSchema as zc.$ZodType, example: { data: [subdivision], meta } },
  subdivisionResponseSchema: { schema: projects.subdivisionResponseSchema as zc.$ZodType, example: { data: subdivision } },
  stagesResponseSchema: {
    schema: projects.stagesResponseSchema as zc.$ZodType,
    example: { data: [{ id: 1, name: 'Etapa 1', position: 0 }] },
  },
  'dataResponseSchema(stageSchema)': {
    schema: dataResponseSchema(projects.stageSchema) as zc.$ZodType,
    example: { data: { id: 1, name: 'Etapa 1', position: 0 } },
  },
  blocksResponseSchema: {
    schema: projects.blocksResponseSchema as zc.$ZodType,
    example: { data: [{ id: 1, name: 'A', stage_id: null, lots_count: 0 }] },
  },
  'dataResponseSchema(blockSchema)': {
    schema: dataResponseSchema(projects.blockSchema) as zc.$ZodType,
    example: { data: { id: 1, name: 'A', stage_id: null, lots_count: 0 } },
  },
  lotsPageSchema: { schema: projects.lotsPageSchema as zc.$ZodType, example: { data: [lot], meta } },
  lotResponseSchema: { schema: projects.lotResponseSchema as zc.$ZodType, example: { data: lot } },
  lotStatusAnswerSchema: { schema: projects.lotStatusAnswerSchema as zc.$ZodType, example: { data: lot } },
  lotStatusPendingResponseSchema: {
    schema: projects.lotStatusPendingResponseSchema as zc.$ZodType,
    example: { data: lot, hold: lotHold, message: 'Solicitud enviada' },
  },
  lotHoldsPageSchema: { schema: lotHolds.lotHoldsPageSchema as zc.$ZodType, example: { data: [lotHold], meta } },
  // Administración: contract templates (the api module's `{data}` answer of one version).
  contractTemplatesPageSchema: {
    schema: contractTemplates.contractTemplatesPageSchema as zc.$ZodType,
    example: { data: [{ ...contractTemplate, content: null }], meta },
  },
  contractTemplateResponseSchema: {
    schema: dataResponseSchema(contractTemplates.contractTemplateSchema) as zc.$ZodType,
    example: { data: contractTemplate },
  },
  // Administración: titles at SUNARP and public holidays.
  titleProcessesPageSchema: { schema: titles.titleProcessesPageSchema as zc.$ZodType, example: { data: [titleProcess], meta } },
  titleProcessResponseSchema: { schema: titles.titleProcessResponseSchema as zc.$ZodType, example: { data: titleProcess } },
  titleEventSchema: {
    schema: titles.titleEventSchema as zc.$ZodType,
    example: { id: 1, to_state: 'PENDIENTE', date: '2026-11-22', created_at: when },
  },
  titleBoardResponseSchema: { schema: titles.titleBoardResponseSchema as zc.$ZodType, example: { data: { counts: [] } } },
  publicHolidaysPageSchema: { schema: titles.publicHolidaysPageSchema as zc.$ZodType, example: { data: [publicHoliday], meta } },
  publicHolidayResponseSchema: { schema: titles.publicHolidayResponseSchema as zc.$ZodType, example: { data: publicHoliday } },
  lotHoldResponseSchema: { schema: lotHolds.lotHoldResponseSchema as zc.$ZodType, example: { data: lotHold } },
  lotStatusHistoryPageSchema: {
    schema: projects.lotStatusHistoryPageSchema as zc.$ZodType,
    example: { data: [{ id: 1, from_status: null, to_status: 'DISPONIBLE', reason: null, user_name: null, changed_at: when }], meta },
  },
  priceChangePreviewResponseSchema: {
    schema: projects.priceChangePreviewResponseSchema as zc.$ZodType,
    example: { data: { count: 0, currency: 'PEN', total_before: 0, total_after: 0, rows: [] } },
  },
  priceChangeResultResponseSchema: { schema: projects.priceChangeResultResponseSchema as zc.$ZodType, example: { data: { updated: 0 } } },
  lotMapResponseSchema: {
    schema: projects.lotMapResponseSchema as zc.$ZodType,
    example: {
      data: {
        subdivision: mapSubdivision,
        lots: [
          {
            id: 1,
            code: 'A-1',
            block: 'A',
            number: '1',
            area_m2: 120,
            price_per_m2: 1,
            list_price: 1,
            status: 'DISPONIBLE',
            polygon: null,
          },
        ],
      },
    },
  },
  publicLotMapResponseSchema: {
    schema: projects.publicLotMapResponseSchema as zc.$ZodType,
    example: {
      data: {
        subdivision: mapSubdivision,
        lots: [
          { code: 'A-1', block: 'A', number: '1', area_m2: 120, list_price: null, price_per_m2: null, status: 'DISPONIBLE', polygon: null },
        ],
      },
    },
  },
  importPreviewResponseSchema: {
    schema: projects.importPreviewResponseSchema as zc.$ZodType,
    example: {
      data: {
        format: 'CSV',
        layers: null,
        layer: null,
        lots: [
          {
            block: 'A',
            number: '1',
            code: 'A-1',
            area_m2: 120,
            drawn_area_m2: null,
            perimeter_m: null,
            price_per_m2: null,
            has_polygon: false,
            action: 'CREATE',
          },
        ],
        issues: [issue],
        summary: { create: 1, update: 0, errors: 1, warnings: 0 },
        can_import: false,
      },
    },
  },
  importResultResponseSchema: { schema: projects.importResultResponseSchema as zc.$ZodType, example: { data: { created: 1, updated: 0 } } },
  importRejectedResponseSchema: {
    schema: projects.importRejectedResponseSchema as zc.$ZodType,
    example: { message: 'El archivo tiene errores', issues: [issue] },
  },

  // Administración (docs/domain.md "Contract", "Commissions") and Comercio's rescission and adenda:
  // each example keeps only the keys its schema requires.
  titleSaleOptionsResponseSchema: {
    schema: titles.titleSaleOptionsResponseSchema as zc.$ZodType,
    example: { data: [{ id: 1, number: 'V-000001', lot_code: 'MZ A - LT 1' }] },
  },
  lotTitleStatesResponseSchema: {
    schema: titles.lotTitleStatesResponseSchema as zc.$ZodType,
    example: { data: [{ lot_id: 9, state: 'INSCRITO' }] },
  },
  contractsPageSchema: { schema: contracts.contractsPageSchema as zc.$ZodType, example: { data: [contractRow], meta } },
  contractResponseSchema: {
    schema: contracts.contractResponseSchema as zc.$ZodType,
    example: { data: { ...contractRow, state: 'FIRMADO', events: [{ id: 1, to_state: 'FIRMADO', created_at: when }] } },
  },
  // A contract's history entry (not a pushed event), read inside contractResponseSchema.
  contractEventSchema: { schema: contracts.contractEventSchema as zc.$ZodType, example: { id: 1, to_state: 'FIRMADO', created_at: when } },
  contractPreviewResponseSchema: {
    schema: contracts.contractPreviewResponseSchema as zc.$ZodType,
    example: { data: { doc: { content: [{}] } } },
  },
  commissionPoliciesPageSchema: {
    schema: commissions.commissionPoliciesPageSchema as zc.$ZodType,
    example: { data: [commissionPolicy], meta },
  },
  commissionPolicyResponseSchema: {
    schema: commissions.commissionPolicyResponseSchema as zc.$ZodType,
    example: { data: commissionPolicy },
  },
  commissionAgentsPageSchema: { schema: commissions.commissionAgentsPageSchema as zc.$ZodType, example: { data: [{ id: 1 }], meta } },
  commissionAgentResponseSchema: { schema: commissions.commissionAgentResponseSchema as zc.$ZodType, example: { data: { id: 1 } } },
  commissionsPageSchema: { schema: commissions.commissionsPageSchema as zc.$ZodType, example: { data: [commissionLine], meta } },
  settlementsPageSchema: { schema: commissions.settlementsPageSchema as zc.$ZodType, example: { data: [settlementRow], meta } },
  settlementResponseSchema: {
    schema: commissions.settlementResponseSchema as zc.$ZodType,
    example: { data: { ...settlementRow, agents: [{ agent: { id: 1 }, gross: 90_000, net: 90_000 }], lines: [commissionLine] } },
  },
  saleRescissionResponseSchema: {
    schema: rescissions.saleRescissionResponseSchema as zc.$ZodType,
    example: {
      data: {
        sale_id: 1,
        number: 'V-000001',
        status: 'EN_CUOTAS',
        currency: 'PEN',
        as_of: '2026-11-27',
        allowed: true,
        overdue_instalments: 6,
        required_overdue: 3,
        paid: 0,
        penalty_pct: 10,
        penalty: 0,
        refund: 0,
        instalments: [openRow],
      },
    },
  },
  reschedulePreviewResponseSchema: {
    schema: rescissions.reschedulePreviewResponseSchema as zc.$ZodType,
    example: {
      data: {
        sale_id: 1,
        currency: 'PEN',
        as_of: '2026-11-27',
        allowed: true,
        balance: 3_000_000,
        late_fees: 100_000,
        open_rows: [openRow],
      },
    },
  },
  saleSchedulesResponseSchema: {
    schema: rescissions.saleSchedulesResponseSchema as zc.$ZodType,
    example: { data: [{ number: 1, current: true }] },
  },
};

/** Names that are not schemas: the generic parse of `parseBody(schema, …)` and `request(z.unknown(), …)` (DELETE → 204). */
const NOT_A_SCHEMA = new Set(['schema', 'z']);

/** `value` with `unknown_key: 1` added to every plain object in it (arrays walked, not changed). */
function withUnknownKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withUnknownKeys);
  if (value && typeof value === 'object') {
    return { ...Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withUnknownKeys(v)])), unknown_key: 1 };
  }
  return value;
}

/** Schema names src/api parses answers with (request, parseBody, safeParse), from the source text. */
function schemasUsedBySrcApi(): string[] {
  const dir = join(__dirname, '../../../src/api');
  const names = new Set<string>();
  // Module folders too (src/api/proyectos/…).
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const m of text.matchAll(/\b(?:request|parseBody)\(\s*([A-Za-z_$][\w$]*)(\([^)]*\))?/g)) names.add(m[1]! + (m[2] ?? ''));
    for (const m of text.matchAll(/\b([A-Za-z_$][\w$]*Schema)\.safeParse\(/g)) names.add(m[1]!);
  }
  return [...names].filter((n) => !NOT_A_SCHEMA.has(n.replace(/\(.*$/, '')));
}

describe('tolerant reader: the registry covers every response schema', () => {
  it('names every export of src/schemas that is named as an answer or an event', () => {
    const named = Object.values(MODULES).flatMap((mod) =>
      Object.keys(mod).filter((name) => /(?:Response|Read|Page|Event)Schema$/.test(name) && typeof mod[name] !== 'function'),
    );
    expect(named.length).toBeGreaterThan(30);
    expect(named.filter((name) => !(name in RESPONSE_SCHEMAS))).toEqual([]);
  });

  it('names every schema src/api parses an answer with', () => {
    const used = schemasUsedBySrcApi();
    expect(used).toContain('loginResponseSchema');
    expect(used.filter((name) => !(name in RESPONSE_SCHEMAS))).toEqual([]);
  });
});

describe('tolerant reader: each answer parses from its minimal example plus unknown keys', () => {
  it.each(Object.entries(RESPONSE_SCHEMAS))('%s', (_name, { schema, example }) => {
    const plain = z.safeParse(schema, example);
    expect(plain.success, JSON.stringify(plain.error?.issues)).toBe(true);
    const widened = z.safeParse(schema, withUnknownKeys(example));
    expect(widened.success, JSON.stringify(widened.error?.issues)).toBe(true);
  });

  it('where the spec says "any other than", the value is open: a staff type other than COLLABORATOR reads as staff', () => {
    const parsed = z.parse(session.loginResponseSchema, RESPONSE_SCHEMAS.loginResponseSchema!.example);
    expect(session.sessionTypeOf(parsed.data.type)).toBe('COLLABORATOR');
    expect(session.sessionTypeOf('CUSTOMER')).toBe('CUSTOMER');
  });
});

describe('tolerant reader: land use (issue 13 item 4) from a server that does not store it', () => {
  it('reads a lot as Vivienda, counts with no No vendible, a map lot and a preview without uses', () => {
    expect(z.parse(projects.lotSchema, lot).land_use).toBe('VIVIENDA');
    expect(z.parse(projects.subdivisionSchema, subdivision).lot_counts.NO_VENDIBLE).toBe(0);
    const preview = z.parse(projects.importPreviewResponseSchema, RESPONSE_SCHEMAS.importPreviewResponseSchema!.example);
    expect(preview.data.uses).toBeUndefined();
    expect(preview.data.lots[0]!.land_use).toBeUndefined();
  });
});

describe('strict writer: what the app sends still refuses unknown keys', () => {
  it.each([
    ['loginRequestSchema', session.loginRequestSchema, { user: '45678912', password: 'x', user_type: 'COLLABORATOR' }],
    [
      'styleSettingsSchema',
      session.styleSettingsSchema,
      { primary: 'emerald', surface: null, preset: 'Aura', menuMode: 'static', darkTheme: false },
    ],
    ['changePasswordRequestSchema', session.changePasswordRequestSchema, { actual_password: 'Actual#2026', new_password: 'Nueva#2026' }],
    ['markSeenRequestSchema', notification.markSeenRequestSchema, { ids_notifications: '[1]' }],
  ] as const)('%s', (_name, schema, example) => {
    expect(z.safeParse(schema as zc.$ZodType, example).success).toBe(true);
    expect(z.safeParse(schema as zc.$ZodType, { ...example, unknown_key: 1 }).success).toBe(false);
  });
});
