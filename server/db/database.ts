import type { ColumnType, Generated, GeneratedAlways, Insertable, Selectable } from 'kysely';
import type { LotHoldState } from '../../src/schemas/proyectos/lot-holds';
import type { TitleState } from '../../src/schemas/administracion/titles';

/**
 * Kysely table types (docs/architecture.md). Portable storage conventions, identical on
 * SQLite and PostgreSQL:
 * - booleans are integers 0/1 ({@link Flag}; use `toFlag`/`fromFlag` from `./flags`);
 * - instants are ISO 8601 UTC strings (`Date#toISOString()`): `text` on SQLite, `timestamptz` on
 *   PostgreSQL, read back as the same ISO string by the connection's type parsers;
 * - calendar dates are `YYYY-MM-DD` strings (`text` / `date`);
 * - e-mails are stored trimmed and lower-case, unique on `lower(email)`.
 */

/** Boolean column stored as 0/1. */
export type Flag = 0 | 1;
/** ISO 8601 instant. */
export type Instant = string;
/** Account status (users and customers). */
export type AccountStatus = 'ACTIVO' | 'INACTIVO';
/** Account kind of tokens and reset links (docs/product.md §6). */
export type AccountType = 'COLLABORATOR' | 'CUSTOMER';

/** The company using the installation (one row). */
export interface CompaniesTable {
  id: Generated<number>;
  business_name: string;
  ruc: string;
  address: string;
  phone: string | null;
  email: string | null;
  legal_representative: ColumnType<string | null, string | null | undefined, string | null>;
  /** image/png, image/jpeg or image/svg+xml; null while no logo was uploaded. */
  logo_content_type: ColumnType<string | null, string | null | undefined, string | null>;
  logo_data: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
  logo_updated_at: ColumnType<Instant | null, Instant | null | undefined, Instant | null>;
  /** Days before today a sale may be dated (migration 0028; 0 … 366, default 60). */
  sale_backdate_days: Generated<number>;
  /**
   * 1 (default) → who registered a payment cannot approve it, save an administrator's override with
   * a reason (migration 0035; docs/domain.md "Payments: segregation of duties").
   */
  payment_approval_segregation: Generated<Flag>;
  /** The PDFs' copy of the logo: a PNG ≤ 600 px a side (migration 0031); null until made. */
  logo_pdf_data: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
  /** The legal representative's DNI (migration 0041; contract variables). */
  legal_representative_dni: ColumnType<string | null, string | null | undefined, string | null>;
  /** SUNARP partida/asiento of the representative's power (migration 0041). */
  legal_representative_power_entry: ColumnType<string | null, string | null | undefined, string | null>;
  /** Where contracts are signed, e.g. "Lima" (migration 0041). */
  contract_place: ColumnType<string | null, string | null | undefined, string | null>;
  /** Days an EMITIDO contract may wait for its signed scan before it is flagged (migration 0041; 1–365, default 15). */
  contract_signature_days: Generated<number>;
  /** 0 → every authenticated call answers 402 (docs/product.md §7 "402 → /auth/pago"). */
  subscription_active: Flag;
  created_at: Instant;
  /** Edit counter (migration 0007): 1 on insert, +1 on every change; stale edits are refused (server/db/versions.ts). */
  version: Generated<number>;
}

/** Branches (docs/product.md §3 "Local"). */
export interface LocalsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  address: string;
  active: Flag;
  /** Edit counter (migration 0007): 1 on insert, +1 on every change; stale edits are refused (server/db/versions.ts). */
  version: Generated<number>;
}

/** Staff roles (names are ours; docs/product.md §6 shows none). */
export interface RolesTable {
  id: Generated<number>;
  name: string;
  /** Edit counter (migration 0007): 1 on insert, +1 on every change; stale edits are refused (server/db/versions.ts). */
  version: Generated<number>;
}

/** Permissions a role grants. */
export interface RolePermissionsTable {
  role_id: number;
  /** A docs/product.md §6 permission string. */
  permission: string;
}

/** Staff (collaborators). */
export interface UsersTable {
  id: Generated<number>;
  dni: string;
  email: string;
  name: string;
  surname: string;
  phone: string | null;
  status: AccountStatus;
  password_hash: string;
  /** JSON of `styleSettingsSchema` (docs/product.md §7 row 8), null until saved. */
  system_styles: string | null;
  created_at: Instant;
  updated_at: Instant;
  /** Edit counter (migration 0007): 1 on insert, +1 on every change; stale edits are refused (server/db/versions.ts). */
  version: Generated<number>;
  /** 1 → the user issues recibos por honorarios: their settlements show the 4th-category withholding (migration 0044). */
  issues_fee_receipts: Generated<Flag>;
  /** The user's Jefe de ventas (migration 0044): the JEFE_VENTAS commission's beneficiary and the team the head sees. */
  sales_head_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/** Roles held by a staff user. */
export interface UserRolesTable {
  user_id: number;
  role_id: number;
}

/** Locals (branches) a staff user works at. */
export interface UserLocalsTable {
  user_id: number;
  local_id: number;
}

/**
 * Customers: the CRM's customers and the portal's accounts (docs/decisions.md "CRM customers and
 * portal accounts: one table"; self-registration is docs/product.md §7 row 1; migration 0015).
 */
export interface CustomersTable {
  id: Generated<number>;
  /** NATURAL | JURIDICA (migration 0015; existing rows NATURAL). */
  person_type: ColumnType<'NATURAL' | 'JURIDICA', 'NATURAL' | 'JURIDICA' | undefined, 'NATURAL' | 'JURIDICA'>;
  /** SUNAT catalogue 06 code. */
  id_document_type: string;
  document_number: string;
  /** Names (NATURAL) or business name (JURIDICA). */
  name: string;
  /** Surnames; null only for JURIDICA (check constraint). */
  surname: string | null;
  legal_representative: ColumnType<string | null, string | null | undefined, string | null>;
  /** YYYY-MM-DD. */
  birthday_date: string | null;
  marital_status: ColumnType<string | null, string | null | undefined, string | null>;
  /** SOCIEDAD_GANANCIALES | SEPARACION_PATRIMONIOS of a married buyer (migration 0041; Código Civil art. 295). */
  property_regime: ColumnType<
    'SOCIEDAD_GANANCIALES' | 'SEPARACION_PATRIMONIOS' | null,
    'SOCIEDAD_GANANCIALES' | 'SEPARACION_PATRIMONIOS' | null | undefined,
    'SOCIEDAD_GANANCIALES' | 'SEPARACION_PATRIMONIOS' | null
  >;
  /** A customer (never this one); set null when that customer is deleted. */
  spouse_id: ColumnType<number | null, number | null | undefined, number | null>;
  email: string | null;
  phone: string | null;
  alternate_phone: ColumnType<string | null, string | null | undefined, string | null>;
  address: ColumnType<string | null, string | null | undefined, string | null>;
  /** INEI district code (src/lib/ubigeo.ts). */
  ubigeo: ColumnType<string | null, string | null | undefined, string | null>;
  /** Staff users (`users.id`). */
  agent_id: ColumnType<number | null, number | null | undefined, number | null>;
  collector_id: ColumnType<number | null, number | null | undefined, number | null>;
  status: AccountStatus;
  /** Null while the customer has no portal login. */
  password_hash: string | null;
  system_styles: string | null;
  created_at: Instant;
  updated_at: Instant;
  /** Edit counter (server/db/versions.ts). */
  version: Generated<number>;
  /** Folded search text (customers: the display name; server/db/text-search.ts), generated by the database (migration 0034). */
  search_text: GeneratedAlways<string>;
}

/** Bearer tokens; only the SHA-256 of the token is stored. */
export interface AccessTokensTable {
  id: Generated<number>;
  token_hash: string;
  user_type: AccountType;
  account_id: number;
  created_at: Instant;
  last_used_at: Instant;
  /** Absolute expiry (created_at + TOKEN_ABSOLUTE_DAYS). */
  expires_at: Instant;
  revoked_at: ColumnType<Instant | null, Instant | null | undefined, Instant | null>;
}

/** Single-use password reset links (docs/product.md §7 rows 4–6); only the SHA-256 of the token is stored. */
export interface PasswordResetsTable {
  id: Generated<number>;
  token_hash: string;
  user_type: AccountType;
  account_id: number;
  expires_at: Instant;
  used_at: ColumnType<Instant | null, Instant | null | undefined, Instant | null>;
  created_at: Instant;
}

/** Delivery state of an outgoing e-mail (server/platform/outbox-delivery.ts). */
export type OutboxStatus = 'PENDING' | 'SENT' | 'FAILED';

/**
 * Outgoing e-mail, the durable queue the SMTP delivery works through (migration 0009); read by
 * developers and tests at GET /dev/outbox. `link` (and the link inside `body`) is dropped once sent.
 */
export interface OutboxTable {
  id: Generated<number>;
  recipient: string;
  subject: string;
  body: string;
  link: string | null;
  created_at: Instant;
  status: ColumnType<OutboxStatus, OutboxStatus | undefined, OutboxStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  /** When the next attempt is due (null = now); while a message is being sent, the end of its lease. */
  next_attempt_at: ColumnType<Instant | null, Instant | null | undefined, Instant | null>;
  /** The last failure's message (the SMTP server's answer), never a credential. */
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  sent_at: ColumnType<Instant | null, Instant | null | undefined, Instant | null>;
}

/** Catalogue of notification types (docs/product.md §3 Notification.type); seeded by migration 0002. */
export interface NotificationTypesTable {
  /** UPPER_SNAKE code, e.g. 'SECURITY'. */
  code: string;
  /** Spanish label. */
  name: string;
  /** Blueprint icon name. */
  icon: string;
  /** Hex colour (#rrggbb). */
  color_icon: string;
  sort_order: Generated<number>;
}

/** One notification for one recipient account (docs/product.md §7 rows 12–14). */
export interface NotificationsTable {
  id: Generated<number>;
  recipient_type: AccountType;
  /** `users.id` or `customers.id` according to `recipient_type`. */
  recipient_id: number;
  type_code: string;
  /** Plain text. */
  title: string;
  /** Sanitised HTML. */
  detail: string;
  /** App path opened on click, or null. */
  route: string | null;
  created_at: Instant;
  /** Null while unseen ("new"). */
  seen_at: ColumnType<Instant | null, Instant | null | undefined, Instant | null>;
}

/** Change-history action (docs/domain.md "Cross-cutting: Change history"). */
export type ChangeAction = 'CREATE' | 'UPDATE' | 'DELETE';

/** One create, update or delete of a record (written by `server/audit/audit.ts`). */
export interface ChangeHistoryTable {
  id: Generated<number>;
  occurred_at: Instant;
  /** Null for system changes (seed, jobs) and anonymous public calls. */
  actor_type: AccountType | null;
  actor_id: number | null;
  ip: string | null;
  /** Table name of the record, e.g. 'users'. */
  entity: string;
  /** The record's id as text (composite keys joined with ':'). */
  record_id: string;
  action: ChangeAction;
  /** JSON object of the fields before (null on CREATE); secrets never stored. */
  before: string | null;
  /** JSON object of the fields after (null on DELETE); secrets never stored. */
  after: string | null;
  /** JSON array of the field names that differ. */
  changed_fields: string;
}

/** Subdivision status (docs/domain.md "Projects and lots"). */
export type SubdivisionStatus = 'EN_PREVENTA' | 'EN_VENTA' | 'AGOTADO' | 'CERRADO';
/** Lot status (docs/domain.md state chart). */
export type LotStatus = 'DISPONIBLE' | 'SEPARADO' | 'VENDIDO' | 'BLOQUEADO' | 'RESERVA_COMERCIAL' | 'CANJE' | 'NO_VENDIBLE';
/** Land use of a lot (src/schemas/proyectos/projects.ts LAND_USES; migration 0010). */
export type LandUse = 'VIVIENDA' | 'MULTIFAMILIAR' | 'COMERCIO' | 'EQUIPAMIENTO' | 'RECREACION' | 'CLUB_HOUSE' | 'OTROS_USOS';
/** ISO 4217 currencies in use. */
export type CurrencyCode = 'PEN' | 'USD';
/** Reservation statuses (src/schemas/comercio/reservations.ts). */
export type ReservationStatus = 'PENDIENTE_PAGO' | 'VIGENTE' | 'CONVERTIDA' | 'VENCIDA' | 'ANULADA';
/** Lead statuses (src/schemas/crm/leads.ts). */
export type LeadStatus = 'POR_ATENDER' | 'EN_ATENCION' | 'CONCRETADO' | 'NO_CONCRETADO';

/**
 * Subdivisions — lotizaciones (migration 0005). One company per installation, so no company
 * column. Areas in m²; the plan image is stored as bytes like the company logo.
 */
export interface SubdivisionsTable {
  id: Generated<number>;
  code: string;
  name: string;
  department: string;
  province: string;
  district: string;
  /** INEI ubigeo, 6 digits. */
  ubigeo: string | null;
  address: string | null;
  currency: CurrencyCode;
  total_area_m2: number;
  /** Partida matriz (SUNARP). */
  registry_entry: string | null;
  licence_number: string | null;
  /** YYYY-MM-DD. */
  licence_date: string | null;
  status: SubdivisionStatus;
  published: Generated<Flag>;
  /** 1 → the public and customer maps show prices. */
  public_prices: Generated<Flag>;
  /** Area two lots of an imported file may share before it is an error, m² (0.05 by default; migration 0011). */
  overlap_limit_m2: Generated<number>;
  /** Late-fee policy (migration 0023; src/lib/finanzas/late-fees.ts): grace days, 0–60, default 3. */
  late_fee_grace_days: Generated<number>;
  /** MONTO_DIARIO (default) | PORCENTAJE_MENSUAL. */
  late_fee_kind: Generated<'MONTO_DIARIO' | 'PORCENTAJE_MENSUAL'>;
  /** Céntimos a late day (MONTO_DIARIO), default 500. */
  late_fee_daily_amount: Generated<number>;
  /** Percent a month (PORCENTAJE_MENSUAL), decimal text, default '0'. */
  late_fee_monthly_percent: Generated<string>;
  /** Rescission policy (migration 0041; docs/domain.md "Rescission"): overdue instalments that allow it, default 3 (Código Civil art. 1561). */
  rescission_overdue_instalments: Generated<number>;
  /** Percent of the price paid after which only the balance can be claimed (art. 1562); null = no limit. */
  rescission_paid_share_limit_pct: ColumnType<number | null, number | null | undefined, number | null>;
  /** Penalty percent of what was paid kept on rescission (art. 1563), default 10. */
  rescission_penalty_pct: Generated<number>;
  /** Most an instalment accrues, céntimos; null: no cap. */
  late_fee_cap: ColumnType<number | null, number | null | undefined, number | null>;
  /** PLAN (drawing units, y up) or GEO ([lon, lat] WGS84) for lot polygons. */
  coordinate_system: Generated<'PLAN' | 'GEO'>;
  plan_content_type: ColumnType<string | null, string | null | undefined, string | null>;
  plan_data: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
  /** Plan image size in pixels. */
  plan_width: ColumnType<number | null, number | null | undefined, number | null>;
  plan_height: ColumnType<number | null, number | null | undefined, number | null>;
  plan_updated_at: ColumnType<Instant | null, Instant | null | undefined, Instant | null>;
  created_at: Instant;
  updated_at: Instant;
  /** Edit counter (migration 0007): 1 on insert, +1 on every change; stale edits are refused (server/db/versions.ts). */
  version: Generated<number>;
}

/** Stages — etapas of a subdivision. */
export interface StagesTable {
  id: Generated<number>;
  subdivision_id: number;
  name: string;
  position: Generated<number>;
  /** Edit counter (migration 0007): 1 on insert, +1 on every change; stale edits are refused (server/db/versions.ts). */
  version: Generated<number>;
}

/** Blocks — manzanas ("A", "B"…), optionally in a stage. */
export interface BlocksTable {
  id: Generated<number>;
  subdivision_id: number;
  stage_id: number | null;
  name: string;
  /** Edit counter (migration 0007): 1 on insert, +1 on every change; stale edits are refused (server/db/versions.ts). */
  version: Generated<number>;
}

/**
 * A lot's perimeter and its four boundaries (frente, fondo, derecha, izquierda): each length in
 * metres and the neighbour on that side ("Calle 3", "Lote 14"), null when unknown. The lots table
 * stores them; the import parsers (server/modules/proyectos/lot-import/types.ts `ParsedLot`) read them from files.
 */
export interface LotBoundaries {
  perimeter_m: number | null;
  front_m: number | null;
  front_neighbour: string | null;
  back_m: number | null;
  back_neighbour: string | null;
  right_m: number | null;
  right_neighbour: string | null;
  left_m: number | null;
  left_neighbour: string | null;
}

/**
 * Lots. Lengths in metres, areas in m², `price_per_m2` and `list_price` in céntimos of the
 * subdivision's currency; `list_price_reason` is set when the list price differs from
 * round(area × price per m²). `polygon` is a JSON array of [x, y] in the subdivision's system.
 * Perimeter and boundaries: {@link LotBoundaries}.
 */
export interface LotsTable extends LotBoundaries {
  id: Generated<number>;
  subdivision_id: number;
  block_id: number;
  number: string;
  /** "MZ A - LT 12". */
  code: string;
  area_m2: number;
  price_per_m2: number;
  list_price: number;
  list_price_reason: string | null;
  is_corner: Generated<Flag>;
  facing_park: Generated<Flag>;
  status: Generated<LotStatus>;
  /** VIVIENDA by default; a use not for sale goes with status NO_VENDIBLE (CHECK lots_land_use_status_check). */
  land_use: Generated<LandUse>;
  polygon: string | null;
  registry_entry: string | null;
  notes: string | null;
  created_at: Instant;
  updated_at: Instant;
  /** Edit counter (migration 0007): 1 on insert, +1 on every change; stale edits are refused (server/db/versions.ts). */
  version: Generated<number>;
  /** Folded search text (lots: the code; server/db/text-search.ts), generated by the database (migration 0034). */
  search_text: GeneratedAlways<string>;
}

/** A lot's status history: every change with user and reason. */
export interface LotStatusChangesTable {
  id: Generated<number>;
  lot_id: number;
  /** Null for the lot's creation. */
  from_status: LotStatus | null;
  to_status: LotStatus;
  reason: string | null;
  /** Null for system changes (seed, import by the system). */
  user_id: number | null;
  changed_at: Instant;
}

/** A hand-made hold of a lot (migration 0037; src/schemas/proyectos/lot-holds.ts; docs/domain.md "Lot holds"). */
export interface LotHoldsTable {
  id: Generated<number>;
  lot_id: number;
  /** The status the hold puts the lot in: SEPARADO | BLOQUEADO | RESERVA_COMERCIAL. */
  status: LotStatus;
  state: LotHoldState;
  reason: string | null;
  /** Last day of the hold (YYYY-MM-DD, Lima); the expiry job frees the lot the day after. */
  until: string;
  requested_by: number | null;
  requested_at: Instant;
  decided_by: number | null;
  decided_at: Instant | null;
  decision_reason: string | null;
}

/**
 * Land uses remembered per subdivision by the lot import (migration 0030; docs/import.md "Land
 * use"): a file's value, by its key ("ZONA RESERVADA"), and the use the user chose for it.
 */
export interface LotImportLandUsesTable {
  id: Generated<number>;
  subdivision_id: number;
  /** The value's key (src/lib/proyectos/land-use-words.ts `landUseKey`), 1–80 characters. */
  label: string;
  land_use: LandUse;
  created_at: Instant;
  updated_at: Instant;
}

/** Reservations, separaciones (migration 0016; src/schemas/comercio/reservations.ts). */
export interface ReservationsTable {
  id: Generated<number>;
  customer_id: number;
  lot_id: number;
  /** Staff user; null when removed. */
  agent_id: number | null;
  /** Céntimos of `currency`. */
  amount: number;
  currency: CurrencyCode;
  hold_days: number;
  expires_at: Instant;
  status: ColumnType<ReservationStatus, ReservationStatus | undefined, ReservationStatus>;
  cancel_reason: ColumnType<string | null, string | null | undefined, string | null>;
  conditions_accepted_at: Instant;
  /** When the "vence mañana" notification went out; null before. */
  reminded_at: ColumnType<Instant | null, Instant | null | undefined, Instant | null>;
  created_by: number | null;
  created_at: Instant;
  updated_at: Instant;
  version: Generated<number>;
}

/** Leads (migration 0017; src/schemas/crm/leads.ts). */
export interface LeadsTable {
  id: Generated<number>;
  name: string;
  /** Normalised (normalizePhone); at least one of phone and e-mail. */
  phone: string | null;
  email: string | null;
  id_document_type: string | null;
  document_number: string | null;
  /** LEAD_CHANNELS code. */
  channel: string;
  campaign: string | null;
  notes: string | null;
  /** Staff user; null when unassigned or removed. */
  agent_id: number | null;
  status: ColumnType<LeadStatus, LeadStatus | undefined, LeadStatus>;
  lost_reason: string | null;
  next_follow_up_at: Instant | null;
  customer_id: number | null;
  last_activity_at: Instant | null;
  received_at: Instant;
  created_by: number | null;
  created_at: Instant;
  updated_at: Instant;
  version: Generated<number>;
  /** Folded search text (leads: the name and the campaign; server/db/text-search.ts), generated by the database (migration 0034). */
  search_text: GeneratedAlways<string>;
}

/** A lead's subdivisions of interest (migration 0017). */
export interface LeadSubdivisionsTable {
  lead_id: number;
  subdivision_id: number;
}

/** A lead's activity log (migration 0017). */
export interface LeadActivitiesTable {
  id: Generated<number>;
  lead_id: number;
  /** LEAD_ACTIVITY_KINDS code. */
  kind: string;
  outcome: string;
  occurred_at: Instant;
  /** Staff user who logged it; null when removed. */
  user_id: number | null;
  created_at: Instant;
}

/** Quotes, cotizaciones (migration 0018; src/schemas/comercio/quotes.ts). Amounts in céntimos of `currency`. */
export interface QuotesTable {
  id: Generated<number>;
  lot_id: number;
  customer_id: number;
  agent_id: number | null;
  currency: CurrencyCode;
  list_price: number;
  discount: number;
  /** The percentage typed, when the discount was given as one. */
  discount_percent: string | null;
  final_price: number;
  down_payment: number;
  down_payment_percent: string | null;
  down_payment_parts: number;
  financed: number;
  instalments: number;
  monthly_rate_percent: string;
  method: string;
  /** YYYY-MM-DD; null for cash. */
  first_due_date: string | null;
  /** YYYY-MM-DD (Lima) the quote was made: the first down-payment part. */
  quote_date: string;
  valid_until: string;
  status: ColumnType<string, string | undefined, string>;
  /** The sale the quote became (migration 0033; set with status ACEPTADA), else null. */
  sale_id: ColumnType<number | null, number | null | undefined, number | null>;
  created_by: number | null;
  created_at: Instant;
  updated_at: Instant;
  version: Generated<number>;
}

/** Sales, ventas (migration 0019; src/schemas/comercio/sales.ts). Amounts in céntimos of `currency`. */
export interface SalesTable {
  id: Generated<number>;
  lot_id: number;
  /** The lot's subdivision (migration 0021: a foreign key with the lot keeps it so). */
  subdivision_id: number;
  agent_id: number | null;
  guarantor_customer_id: number | null;
  reservation_id: number | null;
  quote_id: number | null;
  /** YYYY-MM-DD (Lima). */
  sale_date: string;
  type: string;
  currency: CurrencyCode;
  list_price: number;
  discount: number;
  final_price: number;
  down_payment: number;
  reservation_credit: ColumnType<number, number | undefined, number>;
  financed: number;
  instalments: number;
  monthly_rate_percent: string;
  method: string;
  total_interest: number;
  status: ColumnType<string, string | undefined, string>;
  annul_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** Σ `sale_instalments.paid` in céntimos, kept by database triggers (migration 0021): never written by code. */
  paid: ColumnType<number, never, never>;
  created_by: number | null;
  created_at: Instant;
  updated_at: Instant;
  version: Generated<number>;
}

/** Revisions of lists whose pages the server keeps (migration 0021: `sales`), added to by database triggers. */
export interface ListRevisionsTable {
  name: string;
  revision: number;
}

/** Sales per subdivision, status and type, kept by triggers on `sales` (migration 0021). Read-only for code. */
export interface SaleCountsTable {
  subdivision_id: number;
  status: string;
  type: string;
  sales: number;
}

/** The buyers of a sale (migration 0019). `share_percent` a decimal text ("50.00"). */
export interface SaleHoldersTable {
  sale_id: number;
  customer_id: number;
  role: string;
  share_percent: string;
  position: number;
}

/** A sale's schedule rows (migration 0019): kind INICIAL (down-payment parts) or CUOTA. */
export interface SaleInstalmentsTable {
  id: Generated<number>;
  sale_id: number;
  kind: string;
  number: number;
  due_date: string;
  amount: number;
  capital: number;
  interest: number;
  paid: ColumnType<number, number | undefined, number>;
  status: ColumnType<string, string | undefined, string>;
  /** Late fee (migration 0024), céntimos: accrued (as last figured by the daily job or a payment's review), paid, waived. */
  late_fee_accrued: ColumnType<number, number | undefined, number>;
  late_fee_paid: ColumnType<number, number | undefined, number>;
  late_fee_waived: ColumnType<number, number | undefined, number>;
  /** YYYY-MM-DD of the figure last stored (stored when it changes, and daily while due and unpaid); null before any. */
  late_fee_as_of: ColumnType<string | null, string | null | undefined, string | null>;
  /** Which schedule the row came from (migration 0045): 1 = the sale's own, n + 1 after the n-th adenda. */
  schedule_number: ColumnType<number, number | undefined, number>;
}

/**
 * Lots per subdivision and status with their summed area in m², kept by triggers on `lots`
 * (migration 0012); a row may hold 0 lots.
 */
export interface SubdivisionLotCountsTable {
  subdivision_id: number;
  status: LotStatus;
  lots: number;
  area_m2: number;
}

/**
 * A number per subdivision that changes with anything its lot maps, lot pages or list row show,
 * kept by triggers on subdivisions, lots, blocks (migration 0013) and stages (0014); the server keeps
 * those answers per revision (server/platform/revision-texts.ts).
 */
export interface SubdivisionRevisionsTable {
  subdivision_id: number;
  revision: number;
}

/** The whole schema, as Kysely's database type. */
/** Per-installation settings that never change once chosen (`id_alphabet`; server/platform/installation.ts). */
export interface InstallationSettingsTable {
  name: string;
  value: string;
}

/** Finanzas → Bancos: the company's bank accounts (migration 0022; docs/decisions.md "Bank accounts and wallets"). */
export interface BankAccountsTable {
  id: Generated<number>;
  /** Bank code of src/schemas/finanzas/banks.ts. */
  bank: string;
  kind: 'AHORROS' | 'CORRIENTE';
  currency: 'PEN' | 'USD';
  /** Account number, digits only; unique with `bank`. */
  number: string;
  /** 20 digits; unique. */
  cci: string;
  holder: string;
  active: Flag;
  created_at: Instant;
  updated_at: Instant;
  /** Edit counter: 1 on insert, +1 on every change (server/db/versions.ts). */
  version: Generated<number>;
}

/** Finanzas → Billetera Digital: the company's Yape / Plin wallets with their QR image (migration 0022). */
export interface WalletsTable {
  id: Generated<number>;
  kind: 'YAPE' | 'PLIN';
  /** 9 digits starting with 9; unique with `kind`. */
  phone: string;
  holder: string;
  active: Flag;
  created_at: Instant;
  updated_at: Instant;
  /** Edit counter: 1 on insert, +1 on every change of the form's fields (server/db/versions.ts); a QR upload leaves it. */
  version: Generated<number>;
  /** image/png or image/jpeg; null while no QR was uploaded. */
  qr_content_type: ColumnType<string | null, string | null | undefined, string | null>;
  qr_updated_at: ColumnType<Instant | null, Instant | null | undefined, Instant | null>;
  qr_data: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
}

/** Finanzas → Pagos: a payment towards a sale or a reservation (migration 0024; src/schemas/finanzas/payments.ts). */
export interface PaymentsTable {
  id: Generated<number>;
  sale_id: number | null;
  reservation_id: number | null;
  /** The payer: a holder of the sale or the reservation's customer. */
  customer_id: number;
  currency: CurrencyCode;
  /** Céntimos, > 0. */
  amount: number;
  method: string;
  bank_account_id: number | null;
  wallet_id: number | null;
  /** Upper-case, no spaces; unique per destination among PENDIENTE and APROBADO payments. */
  operation_number: string | null;
  /** YYYY-MM-DD (Lima). */
  operation_date: string;
  note: string | null;
  /** OFICINA (staff) | PORTAL (the customer). */
  source: string;
  registered_by_user_id: number | null;
  status: ColumnType<string, string | undefined, string>;
  reviewed_by: ColumnType<number | null, number | null | undefined, number | null>;
  reviewed_at: ColumnType<Instant | null, Instant | null | undefined, Instant | null>;
  reject_reason: ColumnType<string | null, string | null | undefined, string | null>;
  annulled_by: ColumnType<number | null, number | null | undefined, number | null>;
  annulled_at: ColumnType<Instant | null, Instant | null | undefined, Instant | null>;
  annul_reason: ColumnType<string | null, string | null | undefined, string | null>;
  receipt_series: ColumnType<string | null, string | null | undefined, string | null>;
  receipt_number: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: Instant;
  updated_at: Instant;
  version: Generated<number>;
}

/** A voucher image of a payment (migration 0024). */
export interface PaymentVouchersTable {
  id: Generated<number>;
  payment_id: number;
  content_type: string;
  /** Bytes. */
  size: number;
  created_at: Instant;
  data: Buffer;
}

/** What an approved payment put on one instalment, céntimos (migration 0024). */
export interface PaymentAllocationsTable {
  payment_id: number;
  instalment_id: number;
  to_late_fee: number;
  /** Towards the instalment's amount (capital and interest). */
  to_capital: number;
}

/**
 * The settlement of an annulled sale's approved money (migration 0038; docs/domain.md "Annulling a
 * sale"): céntimos of `currency`; `paid = refund + penalty + credited`.
 */
export interface SaleSettlementsTable {
  id: Generated<number>;
  sale_id: number;
  /** REEMBOLSO | CREDITO. */
  mode: string;
  currency: CurrencyCode;
  paid: number;
  penalty: number;
  refund: number;
  credited: number;
  target_sale_id: number | null;
  credit_payment_id: number | null;
  reason: string;
  created_by: number | null;
  created_at: string;
}

/**
 * A resolved sale (migration 0045; docs/domain.md "Rescission"; Código Civil arts. 1561–1563):
 * céntimos of `currency`; `paid = penalty + refund`; `detail` the overdue rows as JSON text.
 */
export interface SaleRescissionsTable {
  id: Generated<number>;
  sale_id: number;
  currency: CurrencyCode;
  overdue_instalments: number;
  required_overdue: number;
  unpaid_instalments: number;
  unpaid_amount: number;
  paid: number;
  penalty_pct: number;
  penalty: number;
  refund: number;
  detail: string;
  settlement_id: number | null;
  reason: string;
  approved_by: number | null;
  created_by: number | null;
  created_at: string;
}

/** A superseded schedule of a sale, kept read-only (migration 0045; docs/domain.md "Rescheduling (adenda)"). */
export interface SaleSchedulesTable {
  id: Generated<number>;
  sale_id: number;
  number: number;
  superseded_at: string;
}

/** The rows of a superseded schedule as they stood when it was replaced (céntimos). */
export interface SaleScheduleRowsTable {
  schedule_id: number;
  kind: string;
  number: number;
  due_date: string;
  amount: number;
  capital: number;
  interest: number;
  paid: number;
  status: string;
  late_fee_accrued: number;
  late_fee_paid: number;
  late_fee_waived: number;
}

/** An adenda: a sale's open balance rescheduled (migration 0045), céntimos of `currency`. */
export interface SaleReschedulesTable {
  id: Generated<number>;
  sale_id: number;
  schedule_number: number;
  previous_schedule_id: number;
  currency: CurrencyCode;
  balance: number;
  /** CARRY | WAIVE. */
  late_fee_mode: string;
  late_fee_amount: number;
  financed: number;
  method: string;
  instalments: number;
  monthly_rate_percent: string;
  first_due_date: string;
  total_interest: number;
  total: number;
  reason: string;
  created_by: number | null;
  created_at: string;
}

/** The approved payments a settlement took from its sale and what each had applied there (céntimos). */
export interface SaleSettlementPaymentsTable {
  settlement_id: number;
  payment_id: number;
  amount: number;
}

/** Reminders raised per instalment and kind (migration 0025): POR_VENCER | VENCIDA, once each; `sent_on` YYYY-MM-DD (Lima). */
export interface InstalmentRemindersTable {
  instalment_id: number;
  kind: string;
  sent_on: string;
}

/** Instalments of the sales not ANULADA per subdivision and status, kept by triggers (migration 0026). Read-only for code. */
export interface InstalmentCountsTable {
  subdivision_id: number;
  status: string;
  instalments: number;
}

/** The last correlative of each receipt series (migration 0024). */
export interface ReceiptCountersTable {
  series: string;
  last_number: number;
}

/** Peru's public holidays, the non-working days of the titles' working days (migration 0040; docs/domain.md "Titles at SUNARP"). */
export interface PublicHolidaysTable {
  id: Generated<number>;
  /** YYYY-MM-DD, unique. */
  date: string;
  name: string;
  created_at: Instant;
  updated_at: Instant;
  version: Generated<number>;
}

/** One title process per sale (migration 0040; src/schemas/administracion/titles.ts; docs/domain.md "Titles at SUNARP"). */
export interface TitleProcessesTable {
  id: Generated<number>;
  sale_id: number;
  state: TitleState;
  /** YYYY-MM-DD: the date of the step that reached the current state (creation: the day it was created, Lima). */
  state_since: string;
  retention_pact_stated: Generated<Flag>;
  retention_pact_note: string | null;
  notes: string | null;
  minuta_signed_on: string | null;
  notary: string | null;
  escritura_number: string | null;
  escritura_date: string | null;
  titulo_number: string | null;
  presented_on: string | null;
  observation: string | null;
  reentry_on: string | null;
  /** Mayor derecho, céntimos of `mayor_derecho_currency`. */
  mayor_derecho_amount: number | null;
  mayor_derecho_currency: CurrencyCode | null;
  mayor_derecho_paid_on: string | null;
  partida: string | null;
  asiento: string | null;
  inscribed_on: string | null;
  delivery_reference: string | null;
  delivered_on: string | null;
  /** The `presented_on` whose deadline warning was sent (the job claims it once per asiento). */
  deadline_notice_for: ColumnType<string | null, string | null | undefined, string | null>;
  created_by: number | null;
  created_at: Instant;
  updated_at: Instant;
  version: Generated<number>;
}

/** The moves of a title process with the step's fields (`details`, JSON text). */
export interface TitleEventsTable {
  id: Generated<number>;
  process_id: number;
  from_state: TitleState | null;
  to_state: TitleState;
  date: string;
  details: string;
  note: string | null;
  user_id: number | null;
  created_at: Instant;
}

/** One version of a contract template family (subdivision, kind) (migration 0043; src/schemas/administracion/contract-templates.ts). */
export interface ContractTemplatesTable {
  id: Generated<number>;
  subdivision_id: number;
  kind: string;
  name: string;
  /** 1, 2… within the family. */
  version_number: number;
  /** BORRADOR | PUBLICADA. */
  state: string;
  /** The editor's JSON document (Tiptap), as text. */
  content: string;
  published_at: Instant | null;
  published_by: number | null;
  created_by: number | null;
  created_at: Instant;
  updated_at: Instant;
  version: Generated<number>;
}

/** A sale's contract document (migration 0043; src/schemas/administracion/contracts.ts; docs/domain.md "Contracts"). */
export interface ContractsTable {
  id: Generated<number>;
  company_id: number;
  sale_id: number;
  /** The exact template version it was made from. */
  template_id: number;
  kind: string;
  /** 'C-YYYY-NNNNNN', taken at issue; null while BORRADOR. */
  number: ColumnType<string | null, string | null | undefined, string | null>;
  year: ColumnType<number | null, number | null | undefined, number | null>;
  /** BORRADOR | EMITIDO | FIRMADO | RESUELTO | ANULADO. */
  state: string;
  /** JSON text: catalogue key → text supplied by the user. */
  overrides: ColumnType<string, string | undefined, string>;
  /** JSON text of the resolved document as issued (never rebuilt). */
  rendered_doc: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON text of the values as issued. */
  rendered_values: ColumnType<string | null, string | null | undefined, string | null>;
  /** The issued PDF's bytes (served as stored). */
  pdf_data: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
  signed_scan_data: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
  signed_scan_content_type: ColumnType<string | null, string | null | undefined, string | null>;
  signed_scan_name: ColumnType<string | null, string | null | undefined, string | null>;
  issued_at: ColumnType<Instant | null, Instant | null | undefined, Instant | null>;
  issued_by: ColumnType<number | null, number | null | undefined, number | null>;
  signed_at: ColumnType<Instant | null, Instant | null | undefined, Instant | null>;
  annul_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the overdue-signature notice was sent to the agent (once per contract). */
  signature_notice_at: ColumnType<Instant | null, Instant | null | undefined, Instant | null>;
  /** An ADENDA's `sale_reschedules` row (migration 0046); null for the other kinds. */
  reschedule_id: ColumnType<number | null, number | null | undefined, number | null>;
  created_by: number | null;
  created_at: Instant;
  updated_at: Instant;
  version: Generated<number>;
}

/** The contracts' correlative per company and year (migration 0043). */
export interface ContractCountersTable {
  company_id: number;
  year: number;
  last_number: ColumnType<number, number | undefined, number>;
}

/** The state changes of a contract (migration 0043). */
export interface ContractEventsTable {
  id: Generated<number>;
  contract_id: number;
  from_state: string | null;
  to_state: string;
  note: string | null;
  user_id: number | null;
  created_at: Instant;
}

/** The delivery record (acta de entrega) of a title process, at most one (migration 0042; docs/domain.md "Titles at SUNARP"). */
export interface TitleDeliveryRecordsTable {
  id: Generated<number>;
  process_id: number;
  /** Sniffed from the bytes: application/pdf, image/png, image/jpeg or image/webp. */
  content_type: string;
  /** Bytes. */
  size: number;
  uploaded_by: number | null;
  created_at: Instant;
  data: Buffer;
}

export interface DB {
  installation_settings: InstallationSettingsTable;
  companies: CompaniesTable;
  locals: LocalsTable;
  roles: RolesTable;
  role_permissions: RolePermissionsTable;
  users: UsersTable;
  user_roles: UserRolesTable;
  user_locals: UserLocalsTable;
  customers: CustomersTable;
  access_tokens: AccessTokensTable;
  password_resets: PasswordResetsTable;
  outbox: OutboxTable;
  notification_types: NotificationTypesTable;
  notifications: NotificationsTable;
  change_history: ChangeHistoryTable;
  subdivisions: SubdivisionsTable;
  stages: StagesTable;
  blocks: BlocksTable;
  lots: LotsTable;
  lot_status_changes: LotStatusChangesTable;
  lot_holds: LotHoldsTable;
  lot_import_land_uses: LotImportLandUsesTable;
  reservations: ReservationsTable;
  leads: LeadsTable;
  lead_subdivisions: LeadSubdivisionsTable;
  lead_activities: LeadActivitiesTable;
  quotes: QuotesTable;
  sales: SalesTable;
  sale_counts: SaleCountsTable;
  list_revisions: ListRevisionsTable;
  sale_holders: SaleHoldersTable;
  sale_instalments: SaleInstalmentsTable;
  subdivision_lot_counts: SubdivisionLotCountsTable;
  subdivision_revisions: SubdivisionRevisionsTable;
  bank_accounts: BankAccountsTable;
  wallets: WalletsTable;
  payments: PaymentsTable;
  payment_vouchers: PaymentVouchersTable;
  payment_allocations: PaymentAllocationsTable;
  sale_settlements: SaleSettlementsTable;
  sale_settlement_payments: SaleSettlementPaymentsTable;
  sale_rescissions: SaleRescissionsTable;
  sale_schedules: SaleSchedulesTable;
  sale_schedule_rows: SaleScheduleRowsTable;
  sale_reschedules: SaleReschedulesTable;
  receipt_counters: ReceiptCountersTable;
  instalment_reminders: InstalmentRemindersTable;
  instalment_counts: InstalmentCountsTable;
  public_holidays: PublicHolidaysTable;
  title_processes: TitleProcessesTable;
  title_events: TitleEventsTable;
  contract_templates: ContractTemplatesTable;
  contracts: ContractsTable;
  contract_counters: ContractCountersTable;
  contract_events: ContractEventsTable;
  title_delivery_records: TitleDeliveryRecordsTable;
  commission_policies: CommissionPoliciesTable;
  commissions: CommissionsTable;
  commission_settlements: CommissionSettlementsTable;
  commission_settlement_agents: CommissionSettlementAgentsTable;
  commission_settlement_lines: CommissionSettlementLinesTable;
  expenses: ExpensesTable;
}

/**
 * Reportes económicos: an expense of a subdivision (migration 0050; src/schemas/reportes/expenses.ts),
 * the egresos of Ingresos vs egresos.
 */
export interface ExpensesTable {
  id: Generated<number>;
  subdivision_id: number;
  /** YYYY-MM-DD (Lima). */
  expense_date: string;
  /** ≤ 200 characters. */
  concept: string;
  /** Céntimos of `currency`, > 0 (bigint: PostgreSQL may read it as text, so read it through Number()). */
  amount: ColumnType<number | string, number, number>;
  /** The subdivision's currency. */
  currency: CurrencyCode;
  /** Invoice or receipt reference (≤ 60), no file; null when none. */
  voucher: string | null;
  /** Staff user who registered it; null for the system (seed) or a removed user. */
  created_by: number | null;
  created_at: Instant;
  updated_at: Instant;
  /** Edit counter (server/db/versions.ts). */
  version: Generated<number>;
}

/** A commission policy per subdivision and role (migration 0044; docs/domain.md "Commissions"). */
export interface CommissionPoliciesTable {
  id: Generated<number>;
  subdivision_id: number;
  /** ASESOR | JEFE_VENTAS | CAPTADOR. */
  role: string;
  /** PORCENTAJE | MONTO_FIJO. */
  base: string;
  /** Basis points of the net price (PORCENTAJE). */
  percent_bp: number | null;
  /** Céntimos of the subdivision's currency (MONTO_FIJO). */
  amount: number | null;
  /** INICIAL_APROBADA | PORCENTAJE_COBRADO | CONTRATO_FIRMADO. */
  trigger_kind: string;
  trigger_percent_bp: number | null;
  /** JSON `[{ share_bp, at: 'TRIGGER' | 'CANCELADA' }]`, shares adding up to 10 000. */
  tranches: string;
  active: Generated<Flag>;
  created_by: number | null;
  created_at: Instant;
  updated_at: Instant;
  version: Generated<number>;
}

/** One tranche of one beneficiary's commission on a sale, or a REVERTIDA line (migration 0044). Céntimos of `currency`. */
export interface CommissionsTable {
  id: Generated<number>;
  sale_id: number;
  policy_id: number | null;
  user_id: number;
  role: string;
  tranche: number;
  tranche_count: number;
  tranche_share_bp: number;
  tranche_at: string;
  trigger_kind: string;
  trigger_percent_bp: number | null;
  base: string;
  percent_bp: number | null;
  /** The sale's price after discount when projected. */
  net_price: number;
  /** Negative on a REVERTIDA line. */
  amount: number;
  currency: CurrencyCode;
  /** PROYECTADA | DEVENGADA | LIQUIDADA | PAGADA | ANULADA | REVERTIDA. */
  state: string;
  reverses_id: number | null;
  settlement_id: number | null;
  projected_on: string;
  accrued_on: string | null;
  paid_on: string | null;
  annulled_on: string | null;
  reason: string | null;
  created_at: Instant;
  updated_at: Instant;
  version: Generated<number>;
}

/** A settlement of commissions (migration 0044): BORRADOR → APROBADA → PAGADA, céntimos of `currency`. */
export interface CommissionSettlementsTable {
  id: Generated<number>;
  company_id: number;
  currency: CurrencyCode;
  period_from: string;
  period_to: string;
  state: ColumnType<string, string | undefined, string>;
  total: ColumnType<number, number | undefined, number>;
  withholding: ColumnType<number, number | undefined, number>;
  note: string | null;
  approved_by: ColumnType<number | null, number | null | undefined, number | null>;
  approved_at: ColumnType<Instant | null, Instant | null | undefined, Instant | null>;
  operation_number: ColumnType<string | null, string | null | undefined, string | null>;
  paid_on: ColumnType<string | null, string | null | undefined, string | null>;
  paid_by: ColumnType<number | null, number | null | undefined, number | null>;
  voucher_content_type: ColumnType<string | null, string | null | undefined, string | null>;
  voucher_size: ColumnType<number | null, number | null | undefined, number | null>;
  voucher_data: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
  created_by: number | null;
  created_at: Instant;
  updated_at: Instant;
  version: Generated<number>;
}

/** One agent's totals in a settlement (migration 0044). */
export interface CommissionSettlementAgentsTable {
  settlement_id: number;
  user_id: number;
  issues_fee_receipts: Flag;
  lines: number;
  gross: number;
  withholding: number;
  net: number;
}

/** A commission taken by a settlement (migration 0044; unique `commission_id`). */
export interface CommissionSettlementLinesTable {
  id: Generated<number>;
  settlement_id: number;
  commission_id: number;
  user_id: number;
  amount: number;
}

/** Row types used by repositories. */
export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type CustomerRow = Selectable<CustomersTable>;
export type NewCustomer = Insertable<CustomersTable>;
export type OutboxRow = Selectable<OutboxTable>;
export type NotificationRow = Selectable<NotificationsTable>;
export type NotificationTypeRow = Selectable<NotificationTypesTable>;
export type ChangeHistoryRow = Selectable<ChangeHistoryTable>;
