import type { Kysely } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import {
  CONTRACT_VARIABLES,
  variableAllowedIn,
  type ContractKind,
  type ContractValues,
  type VariableValue,
} from '../../../src/schemas/administracion/contract-templates';
import { MARITAL_STATUS_LABELS, PROPERTY_REGIME_LABELS, type MaritalStatus, type PropertyRegime } from '../../../src/schemas/crm/customers';
import { DOCUMENT_TYPES } from '../../../src/schemas/documents';
import { LAND_USE_LABEL, UNSELLABLE_LAND_USES, type LandUse } from '../../../src/schemas/proyectos/projects';
import { contractAmountInWords, dateInWords } from '../../../src/lib/administracion/amount-in-words';
import { lotBoundaries, neighbourLabel, type BoundaryPoint, type BoundarySide } from '../../../src/lib/administracion/lot-boundaries';
import { creditCost } from '../../../src/lib/comercio/credit-cost';
import { formatDate, todayInLima } from '../../../src/lib/dates';
import { formatMoney, type CurrencyCode } from '../../../src/lib/money';
import { districtsOf } from '../../../src/lib/ubigeo';
import { PAYMENT_METHOD_LABELS } from '../../../src/schemas/comercio/terms';
import type { DB } from '../../db/database';
import { notFound } from '../../errors';
import { approvedPaidOn } from '../comercio/sale-settlement';
import { saleNumber } from '../comercio/sales.service';
import { displayName } from '../crm/customers.repository';

/**
 * The values of a contract's variables (docs/domain.md "Contract variables"): every key of
 * {@link CONTRACT_VARIABLES} a template of the kind may use, resolved from the sale, its buyers,
 * lot, subdivision and company. Each value carries its display text (src/schemas/administracion/
 * contract-templates.ts `VariableValue`); null = missing data the user supplies before issue.
 *
 * One small function per group ({@link GROUP_RESOLVERS}); a group whose data arrives later (the
 * addendum's new schedule) answers null for its keys until it is written. The contracts module
 * may override any key (the user's corrections, the contract number at issue).
 */

/** Days the notarial letter of resolution grants the buyer to pay before the contract is resolved (Código Civil art. 1429: at least 15). */
export const RESOLUTION_NOTICE_DAYS = 15;

/** Options of the resolvers. */
export interface ContractValuesOptions {
  /** The day of signing (YYYY-MM-DD); default today in Lima. */
  today?: string;
  /** An ADENDA's rescheduling (`sale_reschedules.id`); absent or null = the sale's latest. */
  rescheduleId?: number | null;
}

/** One buyer (or the spouse) as the values read them. */
interface Person {
  id: number;
  person_type: 'NATURAL' | 'JURIDICA';
  id_document_type: string;
  document_number: string;
  name: string;
  surname: string | null;
  legal_representative: string | null;
  marital_status: string | null;
  property_regime: PropertyRegime | null;
  spouse_id: number | null;
  address: string | null;
  ubigeo: string | null;
}

/** What every group reads: loaded once per contract. */
interface ContractContext {
  kind: ContractKind;
  today: string;
  currency: CurrencyCode;
  company: Awaited<ReturnType<typeof loadCompany>>;
  subdivision: Awaited<ReturnType<typeof loadSubdivision>>;
  lot: Awaited<ReturnType<typeof loadLot>>;
  /** The buyers, TITULAR first, then by position; `role` of the sale (a reservation's customer: TITULAR). */
  buyers: (Person & { role: string })[];
  /** Spouses of the buyers by customer id (customers.spouse_id). */
  spouses: Map<number, Person>;
  sale: Awaited<ReturnType<typeof loadSale>> | null;
  reservation: { id: number; amount: number; currency: CurrencyCode; created_at: string; expires_at: string } | null;
  /** ADENDA: the rescheduling it writes down (null = the sale's latest). */
  rescheduleId?: number | null;
  db: Kysely<DB>;
}

type GroupValues = ContractValues;

// ------------------------------------------------------------------------------------------------
// Display texts
// ------------------------------------------------------------------------------------------------

const text = (value: string | null | undefined): VariableValue | null =>
  value != null && value.trim() !== '' ? { type: 'TEXT', text: value.trim() } : null;
const money = (cents: number, currency: CurrencyCode): VariableValue => ({
  type: 'MONEY',
  cents,
  currency,
  text: formatMoney(cents, currency),
});
const words = (cents: number, currency: CurrencyCode): VariableValue => ({ type: 'TEXT', text: contractAmountInWords(cents, currency) });
const date = (iso: string): VariableValue => ({ type: 'DATE', date: iso, text: formatDate(iso) });
const decimals2 = new Intl.NumberFormat('es-PE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** A number with two decimals ("120.00", "1,250.50"). */
const measure = (value: number): VariableValue => ({ type: 'NUMBER', value, text: decimals2.format(value) });
/** A count ("3"). */
const count = (value: number): VariableValue => ({ type: 'NUMBER', value, text: String(value) });
/** A percentage as a number with two decimals, without the sign ("1.50"): templates write "%". */
const percent = (value: number): VariableValue => ({ type: 'NUMBER', value, text: decimals2.format(value) });
/** The Lima calendar day of an instant. */
const limaDay = (instant: string) => todayInLima(Temporal.Instant.from(instant));

/** "DNI N.º 12345678", "RUC N.º 20…", "Carné de extranjería N.º …", "Pasaporte N.º …". */
export function documentText(type: string, number: string): string {
  const label = DOCUMENT_TYPES.find((d) => d.code === type)?.label ?? 'Documento';
  return `${label} N.º ${number}`;
}

/** The district's name of an INEI ubigeo ("Carabayllo"); null when unknown. */
export function districtName(ubigeo: string | null): string | null {
  if (!ubigeo || !/^\d{6}$/.test(ubigeo)) return null;
  return districtsOf(ubigeo.slice(0, 4)).find((d) => d.code === ubigeo)?.name ?? null;
}

const personName = (p: Person) => displayName(p);
const isMarried = (p: Person) => p.marital_status === 'CASADO';

/**
 * One buyer as the parties' clause names them: "JUAN PÉREZ RÍOS, identificado con DNI N.º 12345678,
 * de estado civil casado(a) bajo el régimen de sociedad de gananciales con MARÍA …, identificada con
 * DNI N.º …, con domicilio en Av. …, distrito de Carabayllo"; a company "…, con RUC N.º …,
 * representada por …". Missing parts are left out of the sentence (the single values are null).
 */
function buyerSentence(p: Person, spouse: Person | null): string {
  const parts = [personName(p).toUpperCase()];
  if (p.person_type === 'JURIDICA') {
    parts.push(`con ${documentText(p.id_document_type, p.document_number)}`);
    if (p.legal_representative) parts.push(`debidamente representada por ${p.legal_representative}`);
  } else {
    parts.push(`identificado(a) con ${documentText(p.id_document_type, p.document_number)}`);
    if (p.marital_status) {
      let status = `de estado civil ${maritalText(p.marital_status)}`;
      if (isMarried(p) && p.property_regime) status += ` bajo el régimen de ${PROPERTY_REGIME_LABELS[p.property_regime].toLowerCase()}`;
      if (spouse)
        status += ` con ${personName(spouse).toUpperCase()}, identificado(a) con ${documentText(spouse.id_document_type, spouse.document_number)}`;
      parts.push(status);
    }
  }
  const district = districtName(p.ubigeo);
  if (p.address) parts.push(`con domicilio en ${p.address.trim()}${district ? `, distrito de ${district}` : ''}`);
  return parts.join(', ');
}

const maritalText = (status: string) => (MARITAL_STATUS_LABELS[status as MaritalStatus] ?? status).toLowerCase();

/** "A, B y C". */
function joinList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join('; ')} y ${items[items.length - 1]}`;
}

// ------------------------------------------------------------------------------------------------
// Loading
// ------------------------------------------------------------------------------------------------

const PERSON_COLUMNS = [
  'customers.id',
  'customers.person_type',
  'customers.id_document_type',
  'customers.document_number',
  'customers.name',
  'customers.surname',
  'customers.legal_representative',
  'customers.marital_status',
  'customers.property_regime',
  'customers.spouse_id',
  'customers.address',
  'customers.ubigeo',
] as const;

function loadCompany(db: Kysely<DB>) {
  return db
    .selectFrom('companies')
    .select([
      'business_name',
      'ruc',
      'address',
      'legal_representative',
      'legal_representative_dni',
      'legal_representative_power_entry',
      'contract_place',
    ])
    .orderBy('id')
    .executeTakeFirst();
}

async function loadSubdivision(db: Kysely<DB>, id: number) {
  return db
    .selectFrom('subdivisions')
    .select([
      'id',
      'name',
      'district',
      'province',
      'department',
      'registry_entry',
      'currency',
      'coordinate_system',
      'late_fee_grace_days',
      'late_fee_kind',
      'late_fee_daily_amount',
      'late_fee_monthly_percent',
      'late_fee_cap',
      'rescission_overdue_instalments',
      'rescission_penalty_pct',
    ])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function loadLot(db: Kysely<DB>, id: number) {
  return db
    .selectFrom('lots')
    .innerJoin('blocks', 'blocks.id', 'lots.block_id')
    .leftJoin('stages', 'stages.id', 'blocks.stage_id')
    .select([
      'lots.id',
      'lots.subdivision_id',
      'lots.number',
      'lots.area_m2',
      'lots.list_price',
      'lots.polygon',
      'lots.perimeter_m',
      'lots.front_m',
      'lots.front_neighbour',
      'lots.back_m',
      'lots.back_neighbour',
      'lots.right_m',
      'lots.right_neighbour',
      'lots.left_m',
      'lots.left_neighbour',
      'blocks.name as block_name',
      'stages.name as stage_name',
    ])
    .where('lots.id', '=', id)
    .executeTakeFirstOrThrow();
}

function loadSale(db: Kysely<DB>, saleId: number) {
  return db
    .selectFrom('sales')
    .select([
      'id',
      'lot_id',
      'subdivision_id',
      'reservation_id',
      'sale_date',
      'type',
      'currency',
      'list_price',
      'discount',
      'final_price',
      'down_payment',
      'reservation_credit',
      'financed',
      'instalments',
      'monthly_rate_percent',
      'method',
      'status',
    ])
    .where('id', '=', saleId)
    .executeTakeFirst();
}

async function loadPeople(db: Kysely<DB>, ids: readonly number[]): Promise<Map<number, Person>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('customers')
    .select(PERSON_COLUMNS)
    .where('customers.id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, r as Person]));
}

/** The buyers' spouses: customers.spouse_id, else the sale's CONYUGE holder for a married TITULAR. */
async function loadSpouses(db: Kysely<DB>, buyers: readonly (Person & { role: string })[]): Promise<Map<number, Person>> {
  const people = await loadPeople(
    db,
    buyers.flatMap((b) => (b.spouse_id != null ? [b.spouse_id] : [])),
  );
  const spouses = new Map<number, Person>();
  for (const buyer of buyers) {
    const spouse = buyer.spouse_id != null ? people.get(buyer.spouse_id) : undefined;
    if (spouse) spouses.set(buyer.id, spouse);
  }
  const titular = buyers[0];
  const holderSpouse = buyers.find((b) => b.role === 'CONYUGE');
  if (titular && !spouses.has(titular.id) && holderSpouse && holderSpouse.id !== titular.id) spouses.set(titular.id, holderSpouse);
  return spouses;
}

// ------------------------------------------------------------------------------------------------
// Groups
// ------------------------------------------------------------------------------------------------

/** empresa.*: the company's row (Configuración → Empresas). */
function companyValues({ company }: ContractContext): GroupValues {
  return {
    'empresa.razon_social': text(company?.business_name),
    'empresa.ruc': text(company?.ruc),
    'empresa.domicilio': text(company?.address),
    'empresa.representante': text(company?.legal_representative),
    'empresa.representante_dni': text(company?.legal_representative_dni),
    'empresa.poder_partida': text(company?.legal_representative_power_entry),
  };
}

/**
 * comprador.*: the TITULAR (customers row): name, document, marital status, property regime (a
 * married buyer's; "no aplica" for others), address and district (ubigeo), spouse (spouse_id, else
 * the sale's CONYUGE holder; "no aplica" when not married or cohabiting); compradores.lista: every
 * buyer's sentence.
 */
function buyerValues({ buyers, spouses }: ContractContext): GroupValues {
  const titular = buyers[0];
  if (!titular) return {};
  const spouse = spouses.get(titular.id) ?? null;
  const natural = titular.person_type === 'NATURAL';
  const hasPartner = natural && (titular.marital_status === 'CASADO' || titular.marital_status === 'CONVIVIENTE');
  const notApplicable: VariableValue = { type: 'TEXT', text: 'no aplica' };
  const items = buyers
    .filter((b) => b.role !== 'CONYUGE' || !spouses.has(titular.id) || spouses.get(titular.id)!.id !== b.id)
    .map((b) => buyerSentence(b, spouses.get(b.id) ?? null));
  return {
    'comprador.nombre': text(personName(titular)),
    'comprador.documento': text(documentText(titular.id_document_type, titular.document_number)),
    'comprador.estado_civil': natural ? (titular.marital_status ? text(maritalText(titular.marital_status)) : null) : notApplicable,
    'comprador.regimen_patrimonial': isMarried(titular)
      ? titular.property_regime
        ? text(PROPERTY_REGIME_LABELS[titular.property_regime].toLowerCase())
        : null
      : titular.marital_status || !natural
        ? notApplicable
        : null,
    'comprador.domicilio': text(titular.address),
    'comprador.distrito': text(districtName(titular.ubigeo)),
    'comprador.conyuge_nombre': spouse ? text(personName(spouse)) : hasPartner ? null : notApplicable,
    'comprador.conyuge_documento': spouse
      ? text(documentText(spouse.id_document_type, spouse.document_number))
      : hasPartner
        ? null
        : notApplicable,
    'compradores.lista': { type: 'LIST', items, text: joinList(items) },
  };
}

/**
 * lote.*: block (manzana), number, stage ("Única" when the block has none), area, perimeter and the
 * four boundaries — the lot's stored values (the engineers' table) side by side, else figured from
 * the polygons (src/lib/administracion/lot-boundaries.ts).
 */
async function lotValues({ lot, subdivision, db }: ContractContext): Promise<GroupValues> {
  const stored = (length: number | null, neighbour: string | null): BoundarySide | null =>
    length != null || neighbour != null ? { length_m: length != null ? Number(length) : NaN, neighbour: neighbour ?? '' } : null;
  let sides = {
    front: stored(lot.front_m, lot.front_neighbour),
    back: stored(lot.back_m, lot.back_neighbour),
    right: stored(lot.right_m, lot.right_neighbour),
    left: stored(lot.left_m, lot.left_neighbour),
  };
  const ring = parseRing(lot.polygon);
  let perimeter = lot.perimeter_m != null ? Number(lot.perimeter_m) : null;
  const complete = (s: BoundarySide | null) => s !== null && Number.isFinite(s.length_m) && s.neighbour !== '';
  if (ring && (![sides.front, sides.back, sides.right, sides.left].every(complete) || perimeter === null)) {
    const others = await db
      .selectFrom('lots')
      .innerJoin('blocks', 'blocks.id', 'lots.block_id')
      .select(['lots.number', 'lots.polygon', 'lots.land_use', 'blocks.name as block_name'])
      .where('lots.subdivision_id', '=', lot.subdivision_id)
      .where('lots.id', '!=', lot.id)
      .where('lots.polygon', 'is not', null)
      .execute();
    const neighbours = others.flatMap((o) => {
      const polygon = parseRing(o.polygon);
      const use = o.land_use as LandUse;
      return polygon
        ? [{ polygon, label: neighbourLabel(o.number, o.block_name, UNSELLABLE_LAND_USES.includes(use) ? LAND_USE_LABEL[use] : null) }]
        : [];
    });
    const figured = lotBoundaries(ring, neighbours, subdivision.coordinate_system === 'GEO');
    if (figured) {
      const merge = (own: BoundarySide | null, computed: BoundarySide | null): BoundarySide | null =>
        computed === null
          ? own
          : {
              length_m: own && Number.isFinite(own.length_m) ? own.length_m : computed.length_m,
              neighbour: own && own.neighbour !== '' ? own.neighbour : computed.neighbour,
            };
      sides = {
        front: merge(sides.front, figured.front),
        back: merge(sides.back, figured.back),
        right: merge(sides.right, figured.right),
        left: merge(sides.left, figured.left),
      };
      if (perimeter === null) {
        perimeter = [figured.front, figured.back, figured.right, figured.left].reduce((sum, s) => sum + (s?.length_m ?? 0), 0);
      }
    }
  }
  const length = (s: BoundarySide | null) => (s && Number.isFinite(s.length_m) ? measure(s.length_m) : null);
  const neighbour = (s: BoundarySide | null) => (s && s.neighbour !== '' ? text(s.neighbour) : null);
  return {
    'lote.manzana': text(lot.block_name),
    'lote.numero': text(lot.number),
    'lote.etapa': text(lot.stage_name ?? 'Única'),
    'lote.area_m2': measure(Number(lot.area_m2)),
    'lote.perimetro_m': perimeter !== null ? measure(Math.round(perimeter * 100) / 100) : null,
    'lote.lindero_frente': neighbour(sides.front),
    'lote.medida_frente': length(sides.front),
    'lote.lindero_fondo': neighbour(sides.back),
    'lote.medida_fondo': length(sides.back),
    'lote.lindero_derecha': neighbour(sides.right),
    'lote.medida_derecha': length(sides.right),
    'lote.lindero_izquierda': neighbour(sides.left),
    'lote.medida_izquierda': length(sides.left),
  };
}

/** A stored polygon (JSON [[x, y], …]); null when absent or malformed. */
function parseRing(json: string | null): BoundaryPoint[] | null {
  if (!json) return null;
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value) || value.length < 3) return null;
    if (!value.every((p) => Array.isArray(p) && p.length >= 2 && Number.isFinite(p[0]) && Number.isFinite(p[1]))) return null;
    return (value as number[][]).map((p) => [p[0]!, p[1]!] as const);
  } catch {
    return null;
  }
}

/** lotizacion.*: the subdivision's row (Proyectos → Lotizaciones); the partida matriz may be missing. */
function subdivisionValues({ subdivision }: ContractContext): GroupValues {
  return {
    'lotizacion.nombre': text(subdivision.name),
    'lotizacion.distrito': text(subdivision.district),
    'lotizacion.provincia': text(subdivision.province),
    'lotizacion.departamento': text(subdivision.department),
    'lotizacion.partida_matriz': text(subdivision.registry_entry),
  };
}

/** The late-fee policy as a contract's sentence (the subdivision's late_fee_* columns; docs/domain.md "Instalments, days late and late fees"). */
export function lateFeePolicyText(
  policy: {
    late_fee_grace_days: number;
    late_fee_kind: string;
    late_fee_daily_amount: number;
    late_fee_monthly_percent: string;
    late_fee_cap: number | null;
  },
  currency: CurrencyCode,
): string {
  const grace = Number(policy.late_fee_grace_days);
  const start =
    grace > 0
      ? `Vencidos ${grace} ${grace === 1 ? 'día' : 'días'} calendario de gracia desde la fecha de vencimiento de una cuota sin que esta haya sido pagada`
      : 'Desde el día siguiente al vencimiento de una cuota no pagada';
  const fee =
    policy.late_fee_kind === 'PORCENTAJE_MENSUAL'
      ? `se aplicará un interés moratorio de ${decimals2.format(Number(policy.late_fee_monthly_percent))} % mensual sobre el importe impago de la cuota, calculado por cada día de atraso`
      : `se aplicará una penalidad por mora de ${formatMoney(Number(policy.late_fee_daily_amount), currency)} por cada día de atraso`;
  const cap = policy.late_fee_cap != null ? `, hasta un máximo de ${formatMoney(Number(policy.late_fee_cap), currency)} por cuota` : '';
  return `${start}, ${fee}${cap}, hasta la fecha de su pago.`;
}

/**
 * venta.*: the sale's terms (sales row): price (final, after the discount) in figures and words,
 * the reservation credited, down payment, amount financed, rates (the TEA by
 * src/lib/comercio/credit-cost.ts `creditCost`, 0 for a cash sale), instalments, the schedule as a
 * table of the stored CUOTA rows (a cash sale's: its payment parts) with its total, the late-fee
 * policy and the subdivision's rescission policy.
 */
async function saleValues({ sale, subdivision, db }: ContractContext): Promise<GroupValues> {
  if (!sale) return {};
  const currency = sale.currency;
  const rows = await db
    .selectFrom('sale_instalments')
    .select(['kind', 'number', 'due_date', 'amount', 'capital', 'interest'])
    .where('sale_id', '=', sale.id)
    .orderBy('due_date')
    .orderBy('number')
    .execute();
  const quotas = rows.filter((r) => r.kind === 'CUOTA');
  const scheduled = quotas.length > 0 ? quotas : rows;
  const sum = (pick: (r: (typeof rows)[number]) => number) => scheduled.reduce((total, r) => total + Number(pick(r)), 0);
  const total = sum((r) => r.amount);
  const f = (cents: number) => formatMoney(cents, currency);
  const table: VariableValue = {
    type: 'TABLE',
    head: ['N.º', 'Vencimiento', 'Capital', 'Interés', 'Cuota'],
    rows: scheduled.map((r) => [
      r.kind === 'CUOTA' ? String(r.number) : `Inicial ${r.number}`,
      formatDate(r.due_date),
      f(Number(r.capital)),
      f(Number(r.interest)),
      f(Number(r.amount)),
    ]),
    foot: ['Total', '', f(sum((r) => r.capital)), f(sum((r) => r.interest)), f(total)],
    text: `${scheduled.length} ${scheduled.length === 1 ? 'cuota' : 'cuotas'} por un total de ${f(total)}`,
  };
  const cost = creditCost({
    method: sale.method,
    monthlyRatePercent: sale.monthly_rate_percent,
    financedCents: Number(sale.financed),
    instalmentsCents: quotas.map((r) => Number(r.amount)),
  });
  return {
    'venta.numero': text(saleNumber(sale.id)),
    'venta.precio': money(Number(sale.final_price), currency),
    'venta.precio_letras': words(Number(sale.final_price), currency),
    'venta.separacion_abonada': money(Number(sale.reservation_credit), currency),
    'venta.cuota_inicial': money(Number(sale.down_payment), currency),
    'venta.cuota_inicial_letras': words(Number(sale.down_payment), currency),
    'venta.monto_financiado': money(Number(sale.financed), currency),
    'venta.monto_financiado_letras': words(Number(sale.financed), currency),
    'venta.tasa_mensual': percent(Number(sale.monthly_rate_percent)),
    'venta.tea': percent(cost ? Math.round(cost.tea * 10_000) / 100 : 0),
    'venta.numero_cuotas': count(Number(sale.instalments)),
    'venta.cronograma': table,
    'venta.cronograma_total': money(total, currency),
    'venta.politica_mora': text(lateFeePolicyText(subdivision, currency)),
    'venta.cuotas_resolucion': count(Number(subdivision.rescission_overdue_instalments)),
    'venta.penalidad_porcentaje': percent(Number(subdivision.rescission_penalty_pct)),
  };
}

/**
 * contrato.*: the date of signing (options.today, else today in Lima) in figures and in words, the
 * company's contract_place; `contrato.numero` stays null: the contracts module numbers the
 * contract at issue (C-2026-000123) and sets it.
 */
function contractValues({ today, company }: ContractContext): GroupValues {
  return {
    'contrato.numero': null,
    'contrato.fecha_firma': date(today),
    'contrato.fecha_firma_letras': { type: 'TEXT', text: dateInWords(today) },
    'contrato.lugar': text(company?.contract_place),
  };
}

/**
 * separacion.*: the reservation (arras): amount in figures and words, the day it was made and the
 * last day it holds the lot (Lima), and the agreed price — the sale's final price when the
 * document is made from a sale, else the lot's list price.
 */
function separationValues({ reservation, sale, lot }: ContractContext): GroupValues {
  if (!reservation) return {};
  const price = sale ? money(Number(sale.final_price), sale.currency) : money(Number(lot.list_price), reservation.currency);
  return {
    'separacion.monto': money(Number(reservation.amount), reservation.currency),
    'separacion.monto_letras': words(Number(reservation.amount), reservation.currency),
    'separacion.fecha': date(limaDay(reservation.created_at)),
    'separacion.vence': date(limaDay(reservation.expires_at)),
    'separacion.precio_pactado': price,
  };
}

/** A schedule's CUOTA rows as a contract's table (N.º, Vencimiento, Capital, Interés, Cuota; totals at the foot). */
function scheduleTable(
  rows: readonly { number: number; due_date: string; capital: number; interest: number; amount: number }[],
  currency: CurrencyCode,
): VariableValue {
  const f = (cents: number) => formatMoney(cents, currency);
  const sum = (pick: (r: (typeof rows)[number]) => number) => rows.reduce((total, r) => total + pick(r), 0);
  const total = sum((r) => r.amount);
  return {
    type: 'TABLE',
    head: ['N.º', 'Vencimiento', 'Capital', 'Interés', 'Cuota'],
    rows: rows.map((r) => [String(r.number), formatDate(r.due_date), f(r.capital), f(r.interest), f(r.amount)]),
    foot: ['Total', '', f(sum((r) => r.capital)), f(sum((r) => r.interest)), f(total)],
    text: `${rows.length} ${rows.length === 1 ? 'cuota' : 'cuotas'} por un total de ${f(total)}`,
  };
}

/** "Se trasladan al nuevo cronograma las moras adeudadas (S/ 120.00)" / "Se condonan…" / none owed. */
export function addendumLateFeeText(mode: string, cents: number, currency: CurrencyCode): string {
  if (cents <= 0) return 'A la fecha de la adenda no se adeudaban moras.';
  const amount = formatMoney(cents, currency);
  return mode === 'CARRY'
    ? `Las moras adeudadas a la fecha de la adenda, por ${amount}, se trasladan al nuevo cronograma y forman parte del monto financiado.`
    : `Las moras adeudadas a la fecha de la adenda, por ${amount}, quedan condonadas.`;
}

/**
 * adenda.*: the rescheduling (`sale_reschedules`, migration 0045) the ADENDA writes down — the
 * contract's `reschedule_id`, else the sale's latest; none yet = missing keys. Its reason, day
 * (Lima), the balance rescheduled, the late fees carried or waived, the terms (method, monthly rate,
 * instalments, first due date), what it finances, and the new schedule (table and total): the rows
 * it added — live while it is the current schedule, else as archived when a later adenda replaced it.
 */
async function addendumValues({ sale, rescheduleId, db }: ContractContext): Promise<GroupValues> {
  if (!sale) return {};
  const adenda = await db
    .selectFrom('sale_reschedules')
    .selectAll()
    .where('sale_id', '=', sale.id)
    .$if(rescheduleId != null, (q) => q.where('id', '=', rescheduleId!))
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!adenda) return {};
  const currency = adenda.currency;
  const archived = await db
    .selectFrom('sale_schedules')
    .select('id')
    .where('sale_id', '=', sale.id)
    .where('number', '=', adenda.schedule_number)
    .executeTakeFirst();
  const source = archived
    ? await db.selectFrom('sale_schedule_rows').selectAll().where('schedule_id', '=', archived.id).where('kind', '=', 'CUOTA').execute()
    : await db
        .selectFrom('sale_instalments')
        .selectAll()
        .where('sale_id', '=', sale.id)
        .where('kind', '=', 'CUOTA')
        .where('schedule_number', '=', adenda.schedule_number)
        .execute();
  // The adenda's rows are numbered after every row it kept: the last `instalments` of its schedule.
  const rows = source
    .map((r) => ({
      number: r.number,
      due_date: r.due_date,
      capital: Number(r.capital),
      interest: Number(r.interest),
      amount: Number(r.amount),
    }))
    .sort((a, b) => a.number - b.number)
    .slice(-adenda.instalments);
  return {
    'adenda.motivo': text(adenda.reason),
    'adenda.saldo': money(Number(adenda.balance), currency),
    'adenda.cronograma_nuevo': scheduleTable(rows, currency),
    'adenda.mora': text(addendumLateFeeText(adenda.late_fee_mode, Number(adenda.late_fee_amount), currency)),
    'adenda.fecha': date(limaDay(new Date(adenda.created_at as string).toISOString())),
    'adenda.metodo': text(PAYMENT_METHOD_LABELS[adenda.method as keyof typeof PAYMENT_METHOD_LABELS] ?? adenda.method),
    'adenda.tasa_mensual': percent(Number(adenda.monthly_rate_percent)),
    'adenda.numero_cuotas': count(adenda.instalments),
    'adenda.primer_vencimiento': date(adenda.first_due_date),
    'adenda.monto_financiado': money(Number(adenda.financed), currency),
    'adenda.total': money(Number(adenda.total), currency),
  };
}

/**
 * resolucion.*: the letter of Código Civil art. 1429. Once the rescission is recorded
 * (`sale_rescissions`, migration 0045) its stored figures: the overdue rows it counted (`detail`),
 * the approved money paid, the penalty kept, the refund and its day (Lima). Before, as of the
 * letter's date — the CUOTA rows due before it and not fully paid (count and table: N.º,
 * Vencimiento, Cuota, Pagado, Saldo), the approved money on the sale (sale-settlement.ts
 * `approvedPaidOn`), the penalty at the subdivision's percent of it (art. 1563), the refund (paid −
 * penalty). Either way the {@link RESOLUTION_NOTICE_DAYS} days granted.
 */
async function resolutionValues({ sale, subdivision, today, db }: ContractContext): Promise<GroupValues> {
  if (!sale) return {};
  const currency = sale.currency;
  const f = (cents: number) => formatMoney(cents, currency);
  const table = (rows: readonly { label: string; due_date: string; amount: number; unpaid: number }[]): VariableValue => {
    const owed = rows.reduce((sum, r) => sum + r.unpaid, 0);
    return {
      type: 'TABLE',
      head: ['N.º', 'Vencimiento', 'Cuota', 'Pagado', 'Saldo'],
      rows: rows.map((r) => [r.label, formatDate(r.due_date), f(r.amount), f(r.amount - r.unpaid), f(r.unpaid)]),
      foot: ['Total', '', '', '', f(owed)],
      text: `${rows.length} ${rows.length === 1 ? 'cuota vencida' : 'cuotas vencidas'} por ${f(owed)}`,
    };
  };
  const recorded = await db
    .selectFrom('sale_rescissions')
    .select(['overdue_instalments', 'paid', 'penalty', 'refund', 'detail', 'created_at'])
    .where('sale_id', '=', sale.id)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (recorded) {
    const detail = JSON.parse(recorded.detail) as { kind: string; number: number; due_date: string; amount: number; unpaid: number }[];
    return {
      'resolucion.cuotas_vencidas': count(Number(recorded.overdue_instalments)),
      'resolucion.cuotas_detalle': table(
        detail.map((r) => ({
          label: r.kind === 'CUOTA' ? String(r.number) : `Inicial ${r.number}`,
          due_date: r.due_date,
          amount: Number(r.amount),
          unpaid: Number(r.unpaid),
        })),
      ),
      'resolucion.monto_pagado': money(Number(recorded.paid), currency),
      'resolucion.penalidad': money(Number(recorded.penalty), currency),
      'resolucion.devolucion': money(Number(recorded.refund), currency),
      'resolucion.plazo_dias': count(RESOLUTION_NOTICE_DAYS),
      'resolucion.fecha': date(limaDay(new Date(recorded.created_at as string).toISOString())),
    };
  }
  const overdue = await db
    .selectFrom('sale_instalments')
    .select(['number', 'due_date', 'amount', 'paid'])
    .where('sale_id', '=', sale.id)
    .where('kind', '=', 'CUOTA')
    .where('due_date', '<', today)
    .orderBy('due_date')
    .orderBy('number')
    .execute();
  const unpaid = overdue.filter((r) => Number(r.paid) < Number(r.amount));
  const paid = (await approvedPaidOn(db, sale.id)).total;
  const penalty = Math.round((paid * Number(subdivision.rescission_penalty_pct)) / 100);
  return {
    'resolucion.cuotas_vencidas': count(unpaid.length),
    'resolucion.cuotas_detalle': table(
      unpaid.map((r) => ({
        label: String(r.number),
        due_date: r.due_date,
        amount: Number(r.amount),
        unpaid: Number(r.amount) - Number(r.paid),
      })),
    ),
    'resolucion.monto_pagado': money(paid, currency),
    'resolucion.penalidad': money(penalty, currency),
    'resolucion.devolucion': money(paid - penalty, currency),
    'resolucion.plazo_dias': count(RESOLUTION_NOTICE_DAYS),
    'resolucion.fecha': date(today),
  };
}

/** The groups in catalogue order; each answers its keys (absent keys are null). */
const GROUP_RESOLVERS: readonly ((ctx: ContractContext) => GroupValues | Promise<GroupValues>)[] = [
  companyValues,
  buyerValues,
  lotValues,
  subdivisionValues,
  saleValues,
  contractValues,
  separationValues,
  addendumValues,
  resolutionValues,
];

/** Every key allowed for the context's kind, from the groups; keys not produced are null. */
async function resolve(ctx: ContractContext): Promise<ContractValues> {
  const produced: ContractValues = {};
  for (const group of GROUP_RESOLVERS) Object.assign(produced, await group(ctx));
  const values: ContractValues = {};
  for (const variable of CONTRACT_VARIABLES) {
    if (variableAllowedIn(variable.key, ctx.kind)) values[variable.key] = produced[variable.key] ?? null;
  }
  return values;
}

/**
 * The values of every variable a `kind` template may use, for sale `saleId` (docs/domain.md
 * "Contract variables"). Each value carries its display text; null = missing data (an address not
 * recorded, the company's representative's DNI not set, the contract number before issue…).
 * SEPARACION reads the sale's reservation (its keys null when the sale had none; a separation
 * document before any sale: {@link resolveReservationValues}). ADENDA keys are null until the
 * rescheduling provides them (then they are its figures: `options.rescheduleId`, else the sale's
 * latest); CARTA_RESOLUCION keys are figured as of `today` until the rescission is recorded, then
 * they are its stored figures.
 * @param options.today the signing day, YYYY-MM-DD (default today in Lima).
 * @throws HttpError 404 when the sale does not exist; RangeError on an invalid `today`.
 */
export async function resolveContractValues(
  db: Kysely<DB>,
  saleId: number,
  kind: ContractKind,
  options?: ContractValuesOptions,
): Promise<ContractValues> {
  const today = Temporal.PlainDate.from(options?.today ?? todayInLima(), { overflow: 'reject' }).toString();
  const sale = await loadSale(db, saleId);
  if (!sale) throw notFound();
  const holders = await db
    .selectFrom('sale_holders')
    .select(['customer_id', 'role', 'position'])
    .where('sale_id', '=', saleId)
    .orderBy('position')
    .execute();
  holders.sort((a, b) => Number(b.role === 'TITULAR') - Number(a.role === 'TITULAR') || a.position - b.position);
  const people = await loadPeople(
    db,
    holders.map((h) => h.customer_id),
  );
  const buyers = holders.flatMap((h) => {
    const person = people.get(h.customer_id);
    return person ? [{ ...person, role: h.role }] : [];
  });
  const reservation =
    sale.reservation_id != null
      ? ((await db
          .selectFrom('reservations')
          .select(['id', 'amount', 'currency', 'created_at', 'expires_at'])
          .where('id', '=', sale.reservation_id)
          .executeTakeFirst()) ?? null)
      : null;
  const [company, subdivision, lot, spouses] = await Promise.all([
    loadCompany(db),
    loadSubdivision(db, sale.subdivision_id),
    loadLot(db, sale.lot_id),
    loadSpouses(db, buyers),
  ]);
  return resolve({
    kind,
    today,
    currency: sale.currency,
    company,
    subdivision,
    lot,
    buyers,
    spouses,
    sale,
    reservation,
    rescheduleId: options?.rescheduleId ?? null,
    db,
  });
}

/**
 * The values of a SEPARACION document made from a reservation before any sale (the usual case:
 * the arras are signed when the lot is reserved): company, buyer (the reservation's customer as
 * TITULAR), lot, subdivision, contract date and place, and separacion.* (the agreed price: the lot's
 * list price). Keys of the sale's terms are not allowed in SEPARACION templates.
 * @param options.today the signing day, YYYY-MM-DD (default today in Lima).
 * @throws HttpError 404 when the reservation does not exist.
 */
export async function resolveReservationValues(
  db: Kysely<DB>,
  reservationId: number,
  options?: { today?: string },
): Promise<ContractValues> {
  const today = Temporal.PlainDate.from(options?.today ?? todayInLima(), { overflow: 'reject' }).toString();
  const reservation = await db
    .selectFrom('reservations')
    .select(['id', 'customer_id', 'lot_id', 'amount', 'currency', 'created_at', 'expires_at'])
    .where('id', '=', reservationId)
    .executeTakeFirst();
  if (!reservation) throw notFound();
  const people = await loadPeople(db, [reservation.customer_id]);
  const customer = people.get(reservation.customer_id);
  const buyers = customer ? [{ ...customer, role: 'TITULAR' }] : [];
  const lot = await loadLot(db, reservation.lot_id);
  const [company, subdivision, spouses] = await Promise.all([
    loadCompany(db),
    loadSubdivision(db, lot.subdivision_id),
    loadSpouses(db, buyers),
  ]);
  return resolve({
    kind: 'SEPARACION',
    today,
    currency: reservation.currency,
    company,
    subdivision,
    lot,
    buyers,
    spouses,
    sale: null,
    reservation,
    db,
  });
}
