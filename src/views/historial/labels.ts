/**
 * Spanish labels of the change history (issue "Configuración": who, what, before/after diff shown
 * to people, not table names). Unknown entities and fields fall back to their raw names.
 */

/** Entity (table) → Spanish label. */
export const ENTITY_LABELS: Readonly<Record<string, string>> = {
  users: 'Usuario',
  roles: 'Rol',
  customers: 'Cliente',
  companies: 'Empresa',
  locals: 'Local',
  notifications: 'Notificación',
};

/** Field → Spanish label, shared across entities. */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
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
};

export const entityLabel = (entity: string): string => ENTITY_LABELS[entity] ?? entity;
export const fieldLabel = (field: string): string => FIELD_LABELS[field] ?? field;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A diff value as people read it: '—' for none, Sí/No for booleans, instants as dd/mm/yy HH:mm in
 * America/Lima (via `formatInstant`), dates as dd/mm/yy, lists joined with commas, other objects as JSON.
 */
export function showValue(value: unknown, formatInstant: (iso: string) => string): string {
  if (value === undefined || value === null || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Sí' : 'No';
  if (typeof value === 'string') {
    if (ISO_INSTANT.test(value)) return formatInstant(value);
    const date = ISO_DATE.exec(value);
    if (date) return `${date[3]}/${date[2]}/${date[1]!.slice(2)}`;
    return value;
  }
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) return value.length ? value.join(', ') : '—';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
