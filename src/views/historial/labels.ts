/**
 * Spanish labels of the change history (issue "Configuración": who, what, before/after diff shown
 * to people, not table names). Unknown entities and fields fall back to their raw names.
 * Every entity the server audits (`recordChange({ entity: '<table>' })` in server/) must have a
 * label: tests/unit/historial-labels.test.ts scans the server and fails otherwise.
 */

/** Entity (audited table name) → Spanish label; also the options of the "Entidad" filter, in this order. */
export const ENTITY_LABELS: Readonly<Record<string, string>> = {
  users: 'Usuario',
  roles: 'Rol',
  customers: 'Cliente',
  leads: 'Lead',
  reservations: 'Separación',
  quotes: 'Cotización',
  sales: 'Venta',
  companies: 'Empresa',
  locals: 'Local',
  notifications: 'Notificación',
  // Proyectos (issue "Proyectos"): lotización → etapa → manzana → lote.
  subdivisions: 'Lotización',
  stages: 'Etapa',
  blocks: 'Manzana',
  lots: 'Lote',
  lot_import_land_uses: 'Uso recordado al importar lotes',
  // Finanzas (issue 16).
  bank_accounts: 'Cuenta bancaria',
  wallets: 'Billetera digital',
  payments: 'Pago',
  payment_vouchers: 'Comprobante de pago',
  sale_instalments: 'Cuota',
  sale_settlements: 'Liquidación de venta anulada',
  // Administración: títulos en SUNARP (docs/domain.md "Titles at SUNARP").
  title_processes: 'Trámite de título',
  public_holidays: 'Feriado',
  contract_templates: 'Plantilla de contrato',
  contracts: 'Contrato',
  // Administración: comisiones (docs/domain.md "Commissions").
  commission_policies: 'Política de comisiones',
  commission_settlements: 'Liquidación de comisiones',
  title_delivery_records: 'Acta de entrega del lote',
  // Comercio: resolución y reprogramación (docs/domain.md "Rescission").
  sale_rescissions: 'Resolución de contrato',
  sale_reschedules: 'Reprogramación de venta',
  // Reportes económicos: the expenses register (src/schemas/reportes/expenses.ts).
  expenses: 'Egreso',
};

/** Field → Spanish label, shared across entities. */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  late_fee_waived: 'Mora condonada',
  late_fee_waiver_amount: 'Monto condonado',
  late_fee_waiver_reason: 'Motivo de la condonación',
  id: 'ID',
  name: 'Nombre',
  surname: 'Apellidos',
  dni: 'DNI',
  email: 'Correo electrónico',
  phone: 'Celular',
  status: 'Estado',
  role_ids: 'Roles',
  local_ids: 'Locales',
  permissions: 'Permisos',
  created_at: 'Creado',
  updated_at: 'Actualizado',
  system_styles: 'Estilos',
  business_name: 'Razón social',
  ruc: 'RUC',
  address: 'Dirección',
  legal_representative: 'Representante legal',
  active: 'Activo',
  company_id: 'Empresa',
  subscription_active: 'Suscripción activa',
  id_document_type: 'Tipo de documento',
  document_number: 'Número de documento',
  birthday_date: 'Fecha de nacimiento',
  logo_content_type: 'Tipo de logo',
  logo_updated_at: 'Logo actualizado',
  // Proyectos: subdivisions, stages, blocks and lots. Money fields (price_per_m2, list_price) are
  // integer céntimos beside the subdivision's currency and are shown as stored (showValue has no
  // per-field hint); areas in m², lengths in m.
  code: 'Código',
  department: 'Departamento',
  province: 'Provincia',
  district: 'Distrito',
  ubigeo: 'Ubigeo',
  currency: 'Moneda',
  total_area_m2: 'Área total (m²)',
  registry_entry: 'Partida registral',
  licence_number: 'N.º de licencia',
  licence_date: 'Fecha de licencia',
  published: 'Publicado en web',
  public_prices: 'Precios públicos',
  coordinate_system: 'Sistema de coordenadas',
  plan_updated_at: 'Plano actualizado',
  position: 'Orden',
  stage_id: 'Etapa',
  block_id: 'Manzana',
  subdivision_id: 'Lotización',
  number: 'Número',
  area_m2: 'Área (m²)',
  perimeter_m: 'Perímetro (m)',
  front_m: 'Frente (m)',
  front_neighbour: 'Colinda por el frente',
  back_m: 'Fondo (m)',
  back_neighbour: 'Colinda por el fondo',
  right_m: 'Derecha (m)',
  right_neighbour: 'Colinda por la derecha',
  left_m: 'Izquierda (m)',
  left_neighbour: 'Colinda por la izquierda',
  price_per_m2: 'Precio por m²',
  list_price: 'Precio de lista',
  list_price_reason: 'Motivo del precio',
  is_corner: 'Esquina',
  facing_park: 'Frente a parque',
  polygon: 'Polígono',
  notes: 'Observaciones',
  land_use: 'Uso del suelo',
  // Proyectos: land uses remembered by the lot import (the file's value as compared, without accents).
  label: 'Valor del archivo',
  // CRM: customers.
  person_type: 'Tipo de persona',
  marital_status: 'Estado civil',
  spouse_id: 'Cónyuge',
  alternate_phone: 'Otro celular',
  agent_id: 'Asesor',
  collector_id: 'Cobrador',
  // Comercial: reservations.
  customer_id: 'Cliente',
  lot_id: 'Lote',
  amount: 'Monto',
  hold_days: 'Días de separación',
  expires_at: 'Vence',
  cancel_reason: 'Motivo de anulación',
  conditions_accepted_at: 'Condiciones aceptadas',
  reminded_at: 'Recordatorio enviado',
  created_by: 'Registrado por',
  // CRM: leads.
  channel: 'Canal',
  campaign: 'Campaña',
  lost_reason: 'Motivo (no concretado)',
  next_follow_up_at: 'Próximo seguimiento',
  last_activity_at: 'Última actividad',
  received_at: 'Recibido',
  subdivision_ids: 'Lotizaciones de interés',
  // Comercial: quotes (amounts in céntimos of `currency`).
  discount: 'Descuento',
  discount_percent: 'Descuento (%)',
  final_price: 'Precio final',
  down_payment: 'Cuota inicial',
  down_payment_percent: 'Cuota inicial (%)',
  down_payment_parts: 'Partes de la cuota inicial',
  financed: 'Saldo financiado',
  instalments: 'Cuotas',
  monthly_rate_percent: 'Tasa mensual (%)',
  method: 'Método',
  first_due_date: 'Primera cuota',
  quote_date: 'Fecha de la cotización',
  valid_until: 'Válida hasta',
  // Comercial: sales.
  guarantor_customer_id: 'Garante',
  reservation_id: 'Separación',
  quote_id: 'Cotización',
  sale_date: 'Fecha de venta',
  type: 'Tipo',
  reservation_credit: 'Abono de la separación',
  total_interest: 'Intereses',
  annul_reason: 'Motivo de anulación',
  // Finanzas: bank accounts and wallets.
  bank: 'Banco',
  kind: 'Tipo',
  cci: 'CCI',
  holder: 'Titular',
  qr_url: 'QR',
  // Contract settings (migration 0041): company, customer, subdivision.
  legal_representative_dni: 'DNI del representante legal',
  legal_representative_power_entry: 'Partida del poder del representante',
  contract_place: 'Lugar de firma de los contratos',
  contract_signature_days: 'Días para recibir el contrato firmado',
  property_regime: 'Régimen patrimonial',
  rescission_overdue_instalments: 'Cuotas vencidas para resolver',
  rescission_paid_share_limit_pct: 'Porcentaje pagado que impide resolver (%)',
  rescission_penalty_pct: 'Penalidad por resolución (%)',
  // Administración: commissions.
  issues_fee_receipts: 'Emite recibos por honorarios',
  sales_head_id: 'Jefe de ventas',
  percent_bp: 'Porcentaje (pb)',
  trigger_kind: 'Disparador',
  trigger_percent_bp: 'Porcentaje cobrado (pb)',
  tranches: 'Tramos',
  period_from: 'Desde',
  period_to: 'Hasta',
  withholding: 'Retención 4.ª categoría',
  operation_number: 'N.º de operación',
  paid_on: 'Fecha de pago',
  approved_at: 'Aprobada',
  // Reportes económicos: expenses (amount in céntimos of `currency`).
  expense_date: 'Fecha del egreso',
  concept: 'Concepto',
  voucher: 'Comprobante',
};

/** Spanish label of an audited entity (table name), or the raw name when unknown. */
export const entityLabel = (entity: string): string => ENTITY_LABELS[entity] ?? entity;
/** Spanish label of a diff field (column name), or the raw name when unknown. */
export const fieldLabel = (field: string): string => FIELD_LABELS[field] ?? field;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A diff value as people read it: '—' for none, Sí/No for booleans, instants as dd/mm/yyyy HH:mm in
 * America/Lima (via `formatInstant`), dates as dd/mm/yyyy, lists joined with commas, other objects as JSON.
 */
export function showValue(value: unknown, formatInstant: (iso: string) => string): string {
  if (value === undefined || value === null || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Sí' : 'No';
  if (typeof value === 'string') {
    if (ISO_INSTANT.test(value)) return formatInstant(value);
    const date = ISO_DATE.exec(value);
    if (date) return `${date[3]}/${date[2]}/${date[1]}`;
    return value;
  }
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) return value.length ? value.join(', ') : '—';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
