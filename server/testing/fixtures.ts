import type { Insertable, Kysely } from 'kysely';
import type { Permission } from '../../src/schemas/permissions';
import type { SaleStatus, SaleType } from '../../src/schemas/comercio/sales';
import { TEST_SCRYPT_LOG_N, testConfig, type AppConfig } from '../config';
import { systemClock, type Clock } from '../clock';
import type { CommissionsTable, DB, NewCustomer } from '../db/database';
import { insertCrmCustomer } from '../modules/crm/customers.repository';
import { generateSecret, storeAccessToken, type TokenOwner } from '../auth/tokens';
import { findMainCompanyId, insertCompany, setSubscriptionActive } from '../modules/configuracion/companies.repository';
import { createCustomerAccount, type NewCustomerInput } from '../auth/customers.service';
import { insertLocal } from '../modules/configuracion/locals.repository';
import { createPasswordResetToken } from '../auth/password-reset.service';
import { insertRole } from '../modules/configuracion/roles.repository';
import { createStaffUser, type NewStaffInput } from '../modules/configuracion/users.service';
import { insertNotifications } from '../notifications/notifications.repository';
import { sanitizeDetail } from '../notifications/notifications.service';
import {
  createLotRequestSchema,
  createSubdivisionRequestSchema,
  type CreateLotRequest,
  type CreateSubdivisionRequest,
  type LotStatus,
} from '../../src/schemas/proyectos/projects';
import { systemAuditContext } from '../audit/audit';
import { createOpaqueIds, type OpaqueIds } from '../ids';
import { createSubdivision as createSubdivisionRecord } from '../modules/proyectos/subdivisions.service';
import type { VersionedTable } from '../db/versions';
import { nextVersion } from '../db/versions';
import { bankByCode, cciCheckDigits } from '../../src/schemas/finanzas/banks';
import { insertBankAccount } from '../modules/finanzas/bank-accounts.repository';
import { insertWallet } from '../modules/finanzas/wallets.repository';
import {
  createBlock as createBlockRecord,
  createLot as createLotRecord,
  createStage as createStageRecord,
} from '../modules/proyectos/lots.service';
import { ENDED_SALE_STATUSES } from '../../src/schemas/comercio/sales';

/**
 * Test data through the same services and repositories the server uses (server tests and the Pact
 * provider's state handlers). Every helper takes the migrated `db`; generated identifiers are
 * unique within a database. Passwords are hashed at the test cost (2^12) unless told otherwise.
 */

let sequence = 0;
const next = () => (sequence += 1);

/** Common options: the hash cost and the clock that stamps rows. */
export interface FixtureOptions {
  scryptLogN?: number;
  clock?: Clock;
}

const hashing = (o: FixtureOptions) => ({ scryptLogN: o.scryptLogN ?? TEST_SCRYPT_LOG_N, clock: o.clock ?? systemClock });

/** Default password of fixture accounts. */
export const FIXTURE_PASSWORD = 'Secreta#2026';

/** A created staff user with its plain password. */
export interface StaffFixture extends TokenOwner {
  userType: 'COLLABORATOR';
  id: number;
  dni: string;
  email: string;
  password: string;
}

/** A created customer with its plain password. */
export interface CustomerFixture extends TokenOwner {
  userType: 'CUSTOMER';
  id: number;
  documentNumber: string;
  email: string;
  password: string;
}

/**
 * Creates a role. @returns its id.
 */
export function createRole(db: Kysely<DB>, name: string, permissions: readonly Permission[]): Promise<number> {
  return insertRole(db, name, permissions);
}

/**
 * Creates a staff user. Defaults: unique 8-digit DNI starting with 8, e-mail `staff<n>@parcela.test`,
 * password {@link FIXTURE_PASSWORD}, ACTIVO, no roles. `permissions` creates a dedicated role with
 * exactly those permissions; `roleNames` adds existing roles.
 */
export async function createStaff(
  db: Kysely<DB>,
  input: Partial<NewStaffInput> & FixtureOptions & { permissions?: readonly Permission[] } = {},
): Promise<StaffFixture> {
  const n = next();
  const { permissions, scryptLogN, clock, ...rest } = input;
  const roleNames = [...(rest.roleNames ?? [])];
  if (permissions) {
    const roleName = `Rol de prueba ${n}`;
    await createRole(db, roleName, permissions);
    roleNames.push(roleName);
  }
  const staff = {
    dni: `8${String(n).padStart(7, '0')}`,
    email: `staff${n}@parcela.test`,
    name: 'Prueba',
    surname: `Colaborador ${n}`,
    password: FIXTURE_PASSWORD,
    ...rest,
    roleNames,
  };
  const id = await createStaffUser(db, staff, hashing({ scryptLogN, clock }));
  return { userType: 'COLLABORATOR', id, accountId: id, dni: staff.dni, email: staff.email.toLowerCase(), password: staff.password };
}

/**
 * Creates a customer. Defaults: DNI type '1' with a unique 8-digit number starting with 6, e-mail
 * `cliente<n>@parcela.test`, phone 9xxxxxxxx, born 1990-01-15, password {@link FIXTURE_PASSWORD}, ACTIVO.
 */
export async function createCustomer(db: Kysely<DB>, input: Partial<NewCustomerInput> & FixtureOptions = {}): Promise<CustomerFixture> {
  const n = next();
  const { scryptLogN, clock, ...rest } = input;
  const customer: NewCustomerInput = {
    idDocumentType: '1',
    documentNumber: `6${String(n).padStart(7, '0')}`,
    name: 'Cliente',
    surname: `Prueba ${n}`,
    birthdayDate: '1990-01-15',
    email: `cliente${n}@parcela.test`,
    phone: `9${String(n).padStart(8, '0')}`,
    password: FIXTURE_PASSWORD,
    ...rest,
  };
  const id = await createCustomerAccount(db, customer, hashing({ scryptLogN, clock }));
  return {
    userType: 'CUSTOMER',
    id,
    accountId: id,
    documentNumber: customer.documentNumber,
    email: customer.email.toLowerCase(),
    password: customer.password,
  };
}

/**
 * Inserts a customer as staff enter one in CRM → Clientes (no portal login): NATURAL, DNI with a
 * unique 8-digit number starting with 7, phone 9xxxxxxxx, no e-mail unless given. Direct insert (no
 * change history), for tests and provider states.
 * @returns the new id.
 */
export async function createCrmCustomer(db: Kysely<DB>, input: Partial<NewCustomer> = {}): Promise<number> {
  const n = next();
  const now = new Date().toISOString();
  return insertCrmCustomer(db, {
    id_document_type: '1',
    document_number: `7${String(n).padStart(7, '0')}`,
    name: 'Cliente CRM',
    surname: `Prueba ${n}`,
    birthday_date: null,
    email: null,
    phone: `9${String(n).padStart(8, '0')}`,
    status: 'ACTIVO',
    password_hash: null,
    system_styles: null,
    created_at: now,
    updated_at: now,
    ...input,
  });
}

/**
 * Issues a bearer token for an account, as a login would.
 * @param options.token the raw token to honour (64 hex chars, e.g. a contract state's); default random.
 * @param options.config token lifetimes (default `testConfig()`: 8 h idle, 7 days absolute).
 * @returns the raw token.
 */
export async function createSession(
  db: Kysely<DB>,
  owner: TokenOwner,
  options: { token?: string; clock?: Clock; config?: Pick<AppConfig, 'tokenIdleHours' | 'tokenAbsoluteDays'> } = {},
): Promise<string> {
  const raw = options.token ?? generateSecret().raw;
  await storeAccessToken({ db, clock: options.clock ?? systemClock, config: options.config ?? testConfig() }, owner, raw);
  return raw;
}

/**
 * Creates a 30-minute reset link for an account.
 * @param options.token the raw token to honour (e.g. a contract state's); default random.
 * @returns the raw token (the link's `{id_encrypted}`).
 */
export function createResetToken(db: Kysely<DB>, owner: TokenOwner, options: { token?: string; clock?: Clock } = {}): Promise<string> {
  return createPasswordResetToken(db, options.clock ?? systemClock, owner, options.token);
}

/** Test company used when no company exists yet; its RUC passes the mod-11 check. */
export const FIXTURE_COMPANY = { businessName: 'Empresa de Prueba S.A.C.', ruc: '20100000009', address: 'Av. Prueba 100, Lima' } as const;

/** The installation's company id, creating {@link FIXTURE_COMPANY} when there is none. */
export async function ensureCompany(db: Kysely<DB>, options: { clock?: Clock } = {}): Promise<number> {
  return (
    (await findMainCompanyId(db)) ??
    insertCompany(db, { ...FIXTURE_COMPANY, createdAt: (options.clock ?? systemClock).now().toISOString() })
  );
}

/**
 * Sets the company's back-dating window of sales to `days` (docs/domain.md "Sales"), creating the
 * company if needed: for tests that register sales dated further back than the default 60 days.
 */
export async function setSaleBackdateDays(db: Kysely<DB>, days: number): Promise<void> {
  const id = await ensureCompany(db);
  await db.updateTable('companies').set({ sale_backdate_days: days }).where('id', '=', id).execute();
}

/** Sets the company's subscription flag (false → authenticated calls answer 402), creating the company if needed. */
export async function setSubscription(db: Kysely<DB>, active: boolean): Promise<void> {
  await ensureCompany(db);
  await setSubscriptionActive(db, active);
}

/** Creates a local of the company. @returns its id. */
export async function createLocal(db: Kysely<DB>, local: { name: string; address?: string; active?: boolean }): Promise<number> {
  const companyId = await ensureCompany(db);
  return insertLocal(db, { companyId, name: local.name, address: local.address ?? 'Dirección de prueba', active: local.active ?? true });
}

/** Options of {@link createNotification}; every field has a default. */
export interface NotificationFixtureInput {
  /** Catalogue code (default 'INFO'). */
  type?: string;
  /** Default 'Notificación de prueba <n>'. */
  title?: string;
  /** HTML, sanitised as the server does (default '<p>Detalle de prueba <n></p>'). */
  detail?: string;
  /** App path or null (default null). */
  route?: string | null;
  /** Creation instant (default the clock's now). */
  createdAt?: Date | string;
  /** True → already seen (seen at the creation instant). Default false (new). */
  seen?: boolean;
  clock?: Clock;
}

/**
 * Stores a notification for an account (staff or customer), as the server would, without
 * broadcasting it (server tests and the Pact provider's state handlers).
 * @returns the new notification id.
 */
export async function createNotification(db: Kysely<DB>, owner: TokenOwner, input: NotificationFixtureInput = {}): Promise<number> {
  const n = next();
  const createdAt = new Date(input.createdAt ?? (input.clock ?? systemClock).now()).toISOString();
  const [id] = await insertNotifications(db, [
    {
      recipient: { userType: owner.userType, accountId: owner.accountId },
      typeCode: input.type ?? 'INFO',
      title: input.title ?? `Notificación de prueba ${n}`,
      detail: sanitizeDetail(input.detail ?? `<p>Detalle de prueba ${n}</p>`),
      route: input.route ?? null,
      createdAt,
      seenAt: input.seen ? createdAt : null,
    },
  ]);
  if (id === undefined) throw new Error('notification not stored');
  return id;
}

// ---------------------------------------------------------------------------------------------
// Proyectos (issue "Proyectos"): subdivisions, stages, blocks and lots through the projects services
// ---------------------------------------------------------------------------------------------

/** Fields of {@link createSubdivision}; every one has a default (code `LT-<n>`, Lima/Lima/Carabayllo, PEN, 10 000 m², EN_VENTA). */
export type SubdivisionFixtureInput = Partial<CreateSubdivisionRequest> & {
  coordinate_system?: 'PLAN' | 'GEO';
  clock?: Clock;
  ids?: OpaqueIds;
};

/** A created subdivision: its id and opaque key (default alphabet unless `ids` is given). */
export interface SubdivisionFixture {
  id: number;
  key: string;
}

const projectsDeps = (db: Kysely<DB>, o: { clock?: Clock; ids?: OpaqueIds }) => ({
  db,
  clock: o.clock ?? systemClock,
  ids: o.ids ?? createOpaqueIds(),
});

/** Creates a subdivision through the service (change history written as the system). */
export async function createSubdivision(db: Kysely<DB>, input: SubdivisionFixtureInput = {}): Promise<SubdivisionFixture> {
  const n = next();
  const { clock, ids, coordinate_system, ...rest } = input;
  const deps = projectsDeps(db, { clock, ids });
  const body = createSubdivisionRequestSchema.parse({
    code: `LT-${n}`,
    name: `Lotización de prueba ${n}`,
    department: 'Lima',
    province: 'Lima',
    district: 'Carabayllo',
    total_area_m2: 10000,
    status: 'EN_VENTA',
    ...rest,
  });
  const created = await createSubdivisionRecord(deps, systemAuditContext(deps.clock), body);
  if (coordinate_system) await db.updateTable('subdivisions').set({ coordinate_system }).where('id', '=', created.id).execute();
  return { id: created.id, key: created.key };
}

/** Creates a stage of a subdivision. @returns its id. */
export async function createStage(
  db: Kysely<DB>,
  subdivisionId: number,
  name: string,
  options: { position?: number; clock?: Clock } = {},
): Promise<number> {
  const deps = projectsDeps(db, options);
  return (await createStageRecord(deps, systemAuditContext(deps.clock), subdivisionId, { name, position: options.position })).id;
}

/** Creates a block (name upper-cased) of a subdivision, optionally in a stage. @returns its id. */
export async function createBlock(
  db: Kysely<DB>,
  subdivisionId: number,
  name: string,
  options: { stageId?: number | null; clock?: Clock } = {},
): Promise<number> {
  const deps = projectsDeps(db, options);
  return (
    await createBlockRecord(deps, systemAuditContext(deps.clock), subdivisionId, {
      name: name.toUpperCase(),
      stage_id: options.stageId ?? null,
    })
  ).id;
}

/**
 * Fields of {@link createLot}. Defaults: block 'A', number `<n>`, 120 m², S/ 250.00 per m² (25 000
 * céntimos), status DISPONIBLE. `polygon` as `[x, y]` vertices. `status` other than DISPONIBLE is
 * reached with one history row (DISPONIBLE → status, reason "Dato de prueba") written by the system;
 * NO_VENDIBLE by creating the lot with a use not for sale (RECREACION unless `land_use` says another).
 */
export type LotFixtureInput = Partial<Omit<CreateLotRequest, 'block' | 'number'>> & {
  block?: string;
  number?: string;
  status?: LotStatus;
  polygon?: readonly (readonly [number, number])[] | null;
  clock?: Clock;
};

/** Creates a lot through the service (block created when missing). @returns its id. */
export async function createLot(db: Kysely<DB>, subdivisionId: number, input: LotFixtureInput = {}): Promise<number> {
  const n = next();
  const { clock, status, polygon, ...rest } = input;
  const deps = projectsDeps(db, { clock });
  // NO_VENDIBLE goes with a use not for sale (a park unless another is given), set at creation.
  const landUse = status === 'NO_VENDIBLE' ? (rest.land_use ?? 'RECREACION') : rest.land_use;
  const body = createLotRequestSchema.parse({
    block: 'A',
    number: String(n),
    area_m2: 120,
    price_per_m2: 25000,
    ...rest,
    ...(landUse ? { land_use: landUse } : {}),
  });
  const lot = await createLotRecord(deps, systemAuditContext(deps.clock), subdivisionId, {
    ...body,
    polygon: polygon ? JSON.stringify(polygon) : null,
  });
  if (status && status !== 'DISPONIBLE' && status !== 'NO_VENDIBLE') {
    await db.updateTable('lots').set({ status }).where('id', '=', lot.id).execute();
    await db
      .insertInto('lot_status_changes')
      .values({
        lot_id: lot.id,
        from_status: 'DISPONIBLE',
        to_status: status,
        reason: 'Dato de prueba',
        user_id: null,
        changed_at: deps.clock.now().toISOString(),
      })
      .execute();
  }
  return lot.id;
}

/**
 * Simulates another user's edit of a record: raises its `version` by 1 (what every change does,
 * server/db/versions.ts) without changing anything else. A client still holding the version it
 * read before gets the stale-edit 409 on its next PATCH (Pact provider state
 * `a record was changed by another user`, server tests).
 * @throws Error when the row does not exist.
 */
export async function changeRecordByAnotherUser(db: Kysely<DB>, table: VersionedTable, id: number): Promise<void> {
  const result = await db.updateTable(table).set({ version: nextVersion() }).where('id', '=', id).executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw new Error(`${table} ${id} does not exist`);
}

/** Options of {@link createBankAccount}; every field has a default (a BCP savings account in soles with a valid CCI). */
export interface BankAccountFixtureInput {
  bank?: string;
  kind?: 'AHORROS' | 'CORRIENTE';
  currency?: 'PEN' | 'USD';
  /** Digits; default unique per database. */
  number?: string;
  /** 20 digits; default built from `bank`'s entity code and `number` with the right check digits. */
  cci?: string;
  holder?: string;
  active?: boolean;
  clock?: Clock;
}

/** Creates a company bank account (Finanzas → Bancos) through the repository. @returns its id. */
export async function createBankAccount(db: Kysely<DB>, input: BankAccountFixtureInput = {}): Promise<number> {
  const bank = input.bank ?? 'BCP';
  const number = input.number ?? `19${String(next()).padStart(10, '0')}`;
  const first18 = `${bankByCode(bank)?.cciCode ?? '002'}191${number.slice(-12).padStart(12, '0')}`;
  const now = (input.clock ?? systemClock).now().toISOString();
  return insertBankAccount(db, {
    bank,
    kind: input.kind ?? 'AHORROS',
    currency: input.currency ?? 'PEN',
    number,
    cci: input.cci ?? `${first18}${cciCheckDigits(first18)}`,
    holder: input.holder ?? FIXTURE_COMPANY.businessName,
    active: input.active === false ? 0 : 1,
    created_at: now,
    updated_at: now,
  });
}

/** Options of {@link createWallet}; every field has a default (a Yape wallet with a unique phone, no QR). */
export interface WalletFixtureInput {
  kind?: 'YAPE' | 'PLIN';
  phone?: string;
  holder?: string;
  active?: boolean;
  /** PNG or JPEG bytes stored as its QR (default none). */
  qr?: { contentType: 'image/png' | 'image/jpeg'; data: Buffer };
  clock?: Clock;
}

/** Creates a company wallet (Finanzas → Billetera Digital) through the repository. @returns its id. */
export async function createWallet(db: Kysely<DB>, input: WalletFixtureInput = {}): Promise<number> {
  const now = (input.clock ?? systemClock).now().toISOString();
  return insertWallet(db, {
    kind: input.kind ?? 'YAPE',
    phone: input.phone ?? `9${String(next()).padStart(8, '0')}`,
    holder: input.holder ?? FIXTURE_COMPANY.businessName,
    active: input.active === false ? 0 : 1,
    created_at: now,
    updated_at: now,
    qr_content_type: input.qr?.contentType ?? null,
    qr_data: input.qr?.data ?? null,
    qr_updated_at: input.qr ? now : null,
  });
}

/** Options of {@link createPayment}. */
export interface PaymentFixtureInput {
  /** The sale paid (default: the oldest sale that still takes payments). */
  saleId?: number;
  /** Céntimos (default 100: S/ 1.00, within any open sale's debt). */
  amount?: number;
  /** APROBADO with the next receipt number (no allocation) instead of PENDIENTE. */
  approved?: boolean;
  /** A PNG voucher image stored with it. */
  voucher?: Buffer;
  clock?: Clock;
}

/**
 * Inserts a payment (Finanzas → Pagos) by direct writes, for route matrices and provider states: an
 * EFECTIVO payment at the office towards a sale, paid by its first holder, PENDIENTE (or APROBADO
 * with a receipt number taken from the real counter; nothing is allocated).
 * @returns its id. @throws Error when no sale takes payments.
 */
export async function createPayment(db: Kysely<DB>, input: PaymentFixtureInput = {}): Promise<number> {
  const sale = await db
    .selectFrom('sales')
    .innerJoin('sale_holders', 'sale_holders.sale_id', 'sales.id')
    .select(['sales.id', 'sales.currency', 'sale_holders.customer_id'])
    .where('sales.status', 'not in', [...ENDED_SALE_STATUSES, 'CANCELADA'])
    .$if(input.saleId !== undefined, (q) => q.where('sales.id', '=', input.saleId ?? 0))
    .orderBy('sales.id')
    .orderBy('sale_holders.position')
    .executeTakeFirst();
  if (!sale) throw new Error('createPayment: no sale takes payments');
  const now = (input.clock ?? systemClock).now().toISOString();
  let receipt: number | null = null;
  if (input.approved) {
    const row = await db
      .updateTable('receipt_counters')
      .set((eb) => ({ last_number: eb('last_number', '+', 1) }))
      .where('series', '=', 'R001')
      .returning('last_number')
      .executeTakeFirstOrThrow();
    receipt = Number(row.last_number);
  }
  const { id } = await db
    .insertInto('payments')
    .values({
      sale_id: sale.id,
      reservation_id: null,
      customer_id: sale.customer_id,
      currency: sale.currency,
      amount: input.amount ?? 100,
      method: 'EFECTIVO',
      bank_account_id: null,
      wallet_id: null,
      operation_number: null,
      operation_date: now.slice(0, 10),
      note: null,
      source: 'OFICINA',
      registered_by_user_id: null,
      status: input.approved ? 'APROBADO' : 'PENDIENTE',
      reviewed_at: input.approved ? now : null,
      receipt_series: receipt === null ? null : 'R001',
      receipt_number: receipt,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (input.voucher)
    await db
      .insertInto('payment_vouchers')
      .values({ payment_id: id, content_type: 'image/png', size: input.voucher.length, created_at: now, data: input.voucher })
      .execute();
  return id;
}

/** Options of {@link insertCashSale}. */
export interface CashSaleFixtureInput {
  lotId: number;
  subdivisionId: number;
  agentId?: number | null;
  /** Default: the column's default. An ANULADA sale gets the reason "Desistimiento". */
  status?: SaleStatus;
  type?: SaleType;
  /** `YYYY-MM-DD` (default 2026-02-01). */
  saleDate?: string;
  /** ISO instant of created_at and updated_at (default now). */
  createdAt?: string;
  /** A customer made the sale's TITULAR holder at 100 % (default: no holder). */
  titularId?: number;
}

/**
 * Inserts a sale by direct writes, for suites that need many sales without the sales service: S/
 * 30 000.00 (3 000 000 céntimos) list and final price, all of it down payment, no instalments
 * (SIN_INTERES, rate 0), in PEN; with its titular when given.
 * @returns the sale's id.
 */
export async function insertCashSale(db: Kysely<DB>, input: CashSaleFixtureInput): Promise<number> {
  const stamp = input.createdAt ?? new Date().toISOString();
  const { id } = await db
    .insertInto('sales')
    .values({
      lot_id: input.lotId,
      subdivision_id: input.subdivisionId,
      agent_id: input.agentId ?? null,
      guarantor_customer_id: null,
      reservation_id: null,
      quote_id: null,
      sale_date: input.saleDate ?? '2026-02-01',
      type: input.type ?? 'CONTADO',
      currency: 'PEN',
      list_price: 3_000_000,
      discount: 0,
      final_price: 3_000_000,
      down_payment: 3_000_000,
      financed: 0,
      instalments: 0,
      monthly_rate_percent: '0',
      method: 'SIN_INTERES',
      total_interest: 0,
      ...(input.status === undefined ? {} : { status: input.status }),
      annul_reason: input.status === 'ANULADA' ? 'Desistimiento' : null,
      created_by: null,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (input.titularId !== undefined) {
    await db
      .insertInto('sale_holders')
      .values({ sale_id: id, customer_id: input.titularId, role: 'TITULAR', share_percent: '100.00', position: 0 })
      .execute();
  }
  return id;
}

/**
 * A `commissions` row for tests and provider states (docs/domain.md "Commissions"): one tranche of
 * 100 % of a fixed amount (MONTO_FIJO) to an ASESOR, DEVENGADA, on a S/ 30 000.00 sale, projected
 * and earned on `values.projected_on` (default today, UTC). `values` names the sale, the agent and
 * the amount (céntimos) and replaces any other column.
 */
export function commissionRow(
  values: Pick<Insertable<CommissionsTable>, 'sale_id' | 'user_id' | 'amount'> & Partial<Insertable<CommissionsTable>>,
): Insertable<CommissionsTable> {
  const stamp = new Date().toISOString();
  const day = values.projected_on ?? stamp.slice(0, 10);
  return {
    policy_id: null,
    role: 'ASESOR',
    tranche: 1,
    tranche_count: 1,
    tranche_share_bp: 10_000,
    tranche_at: 'TRIGGER',
    trigger_kind: 'INICIAL_APROBADA',
    trigger_percent_bp: null,
    base: 'MONTO_FIJO',
    percent_bp: null,
    net_price: 3_000_000,
    currency: 'PEN',
    state: 'DEVENGADA',
    reverses_id: null,
    settlement_id: null,
    projected_on: day,
    accrued_on: day,
    paid_on: null,
    annulled_on: null,
    reason: null,
    created_at: stamp,
    updated_at: stamp,
    ...values,
  };
}
