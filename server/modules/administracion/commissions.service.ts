import { sql, type Kysely } from 'kysely';
import {
  COMMISSION_MESSAGES,
  COMMISSION_ROLE_LABELS,
  COMMISSION_STATE_LABELS,
  settlementNumber,
  type Commission,
  type CommissionAgent,
  type CommissionAgentsQuery,
  type CommissionPoliciesQuery,
  type CommissionPolicy,
  type CommissionsQuery,
  type CreateCommissionPolicyRequest,
  type PaySettlementRequest,
  type Settlement,
  type SettlementDetail,
  type SettlementsQuery,
  type UpdateCommissionAgentRequest,
  type UpdateCommissionPolicyRequest,
  createCommissionPolicyRequestSchema,
  createSettlementRequestSchema,
} from '../../../src/schemas/administracion/commissions';
import type { z } from 'zod';
import { dateCell, type CellValue } from '../../../src/lib/csv';
import { recordChange, staffActorId, type AuditContext } from '../../audit/audit';
import { todayInLimaBy, type Clock } from '../../clock';
import { todayInLima } from '../../../src/lib/lima-today';
import type { DB } from '../../db/database';
import { paginate, type Page } from '../../db/paging';
import { fromFlag, isUniqueViolation, toFlag } from '../../db/portable';
import { searchPatternSql, searchTextOf } from '../../db/text-search';
import { conflict, fieldError, HttpError, notFound, validationError } from '../../errors';
import { detectImageType } from '../../platform/image-type';
import { renderDocument, tableFile, type FileDownload } from '../../platform/documents';
import type { WorkerPool } from '../../platform/worker-pool';
import { findMainCompanyId } from '../configuracion/companies.repository';
import { loadPdfIssuer } from '../configuracion/companies.service';
import { saleNumber } from '../comercio/sales.service';
import { isoDay, refreshSettlementTotals } from './commission-lifecycle';

/**
 * Administración → Comisiones y Pagos (docs/domain.md "Commissions"): the policies, the agents'
 * settings, the commissions list (narrowed by 'Solo sus comisiones y las de su equipo') and the
 * settlements BORRADOR → APROBADA → PAGADA with their Excel and per-agent PDF. Every write runs in
 * one transaction with its change-history row; every refusal is a Spanish 4xx.
 */

type Deps = { db: Kysely<DB>; clock: Clock };
type Db = Kysely<DB>;

const num = (v: unknown): number => Number(v ?? 0);
/** A stored instant as ISO text (PostgreSQL hands back a Date). */
const instant = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v));
const fullName = (name: string | null | undefined, surname: string | null | undefined) => [name, surname].filter(Boolean).join(' ');

// ---------------------------------------------------------------- commissions

/** The owner filter of a narrowed caller: their own commissions and those of agents whose sales head they are. */
function ownOrTeam(owner: number) {
  return sql<boolean>`(c.user_id = ${owner} or c.user_id in (select id from users where sales_head_id = ${owner}))`;
}

/**
 * The day a commission counts in a period (alias `c`): the day it was earned (`accrued_on`:
 * DEVENGADA, LIQUIDADA, PAGADA, REVERTIDA and an annulled one that had been earned), or the day it
 * was projected while not yet. The list's `period_from`/`period_to` and Reportes → Comisiones
 * (server/modules/reportes/comisiones.report.ts) both read it.
 */
export const commissionPeriodDay = sql<string>`coalesce(c.accrued_on, c.projected_on)`;

function commissionsQuery(db: Db) {
  return db
    .selectFrom('commissions as c')
    .innerJoin('sales', 'sales.id', 'c.sale_id')
    .innerJoin('lots', 'lots.id', 'sales.lot_id')
    .innerJoin('subdivisions', 'subdivisions.id', 'sales.subdivision_id')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .leftJoin('commission_settlements as st', 'st.id', 'c.settlement_id');
}

function selectCommission(query: ReturnType<typeof commissionsQuery>) {
  return query
    .selectAll('c')
    .select([
      'sales.status as sale_status',
      'sales.subdivision_id',
      'lots.code as lot_code',
      'subdivisions.name as subdivision_name',
      'u.name as agent_name',
      'u.surname as agent_surname',
      'st.state as settlement_state',
    ]);
}
type CommissionRow = Awaited<ReturnType<ReturnType<typeof selectCommission>['executeTakeFirstOrThrow']>>;

function toCommission(r: CommissionRow): Commission {
  return {
    id: r.id,
    sale: {
      id: r.sale_id,
      number: saleNumber(r.sale_id),
      status: r.sale_status,
      lot_code: r.lot_code,
      subdivision_id: r.subdivision_id,
      subdivision_name: r.subdivision_name,
      net_price: num(r.net_price),
    },
    agent: { id: r.user_id, name: fullName(r.agent_name, r.agent_surname) },
    role: r.role as Commission['role'],
    tranche: r.tranche,
    tranche_count: r.tranche_count,
    tranche_share_bp: r.tranche_share_bp,
    tranche_at: r.tranche_at as Commission['tranche_at'],
    trigger: r.trigger_kind as Commission['trigger'],
    trigger_percent_bp: r.trigger_percent_bp,
    base: r.base as Commission['base'],
    percent_bp: r.percent_bp,
    amount: num(r.amount),
    currency: r.currency,
    state: r.state as Commission['state'],
    reverses_id: r.reverses_id,
    settlement:
      r.settlement_id !== null ? { id: r.settlement_id, number: settlementNumber(r.settlement_id), state: r.settlement_state ?? '' } : null,
    projected_on: isoDay(r.projected_on)!,
    accrued_on: isoDay(r.accrued_on),
    paid_on: isoDay(r.paid_on),
    annulled_on: isoDay(r.annulled_on),
    reason: r.reason,
    version: r.version,
  };
}

/**
 * GET /api/commissions: a page of commissions with the filters of {@link CommissionsQuery}.
 * @param owner the narrowed caller ('Solo sus comisiones y las de su equipo'), or null for everyone's.
 */
export async function listCommissions(db: Db, query: CommissionsQuery, owner: number | null): Promise<Page<Commission>> {
  let filtered = commissionsQuery(db);
  if (owner !== null) filtered = filtered.where(ownOrTeam(owner));
  if (query.state) filtered = filtered.where('c.state', '=', query.state);
  if (query.agent_id) filtered = filtered.where('c.user_id', '=', query.agent_id);
  if (query.role) filtered = filtered.where('c.role', '=', query.role);
  if (query.subdivision_id) filtered = filtered.where('sales.subdivision_id', '=', query.subdivision_id);
  if (query.sale_id) filtered = filtered.where('c.sale_id', '=', query.sale_id);
  if (query.settlement_id) filtered = filtered.where('c.settlement_id', '=', query.settlement_id);
  if (query.currency) filtered = filtered.where('c.currency', '=', query.currency);
  const day = commissionPeriodDay;
  if (query.period_from) filtered = filtered.where(day, '>=', query.period_from);
  if (query.period_to) filtered = filtered.where(day, '<=', query.period_to);
  if (query.q) {
    const pattern = searchPatternSql(query.q);
    const saleId = /^v?-?0*(\d{1,9})$/i.exec(query.q.trim())?.[1];
    filtered = filtered.where((eb) =>
      eb.or([
        eb('lots.search_text', 'like', pattern),
        eb(searchTextOf(db, "u.name || ' ' || u.surname"), 'like', pattern),
        ...(saleId !== undefined ? [eb('sales.id', '=', Number(saleId))] : []),
      ]),
    );
  }
  const sort = query.sort ?? '-id';
  const descending = sort.startsWith('-');
  const field = sort.replace(/^-/, '') as 'id' | 'amount' | 'accrued_on' | 'projected_on' | 'state';
  const page = await paginate(filtered, query, (q) =>
    selectCommission(q)
      .orderBy(`c.${field}`, descending ? 'desc' : 'asc')
      .orderBy('c.id', descending ? 'desc' : 'asc'),
  );
  return { data: page.data.map(toCommission), meta: page.meta };
}

// ---------------------------------------------------------------- policies

function policiesQuery(db: Db) {
  return db
    .selectFrom('commission_policies as p')
    .innerJoin('subdivisions', 'subdivisions.id', 'p.subdivision_id')
    .selectAll('p')
    .select(['subdivisions.name as subdivision_name', 'subdivisions.currency as subdivision_currency']);
}
type PolicyRow = Awaited<ReturnType<ReturnType<typeof policiesQuery>['executeTakeFirstOrThrow']>>;

function toPolicy(r: PolicyRow): CommissionPolicy {
  let tranches: CommissionPolicy['tranches'] = [];
  try {
    tranches = JSON.parse(r.tranches) as CommissionPolicy['tranches'];
  } catch {
    tranches = [];
  }
  return {
    id: r.id,
    subdivision: { id: r.subdivision_id, name: r.subdivision_name, currency: r.subdivision_currency },
    role: r.role as CommissionPolicy['role'],
    base: r.base as CommissionPolicy['base'],
    percent_bp: r.percent_bp,
    amount: r.amount === null ? null : num(r.amount),
    trigger: r.trigger_kind as CommissionPolicy['trigger'],
    trigger_percent_bp: r.trigger_percent_bp,
    tranches,
    active: fromFlag(r.active),
    updated_at: String(r.updated_at),
    version: r.version,
  };
}

/** GET /api/commission-policies: by subdivision and role. */
export async function listPolicies(db: Db, query: CommissionPoliciesQuery): Promise<Page<CommissionPolicy>> {
  let filtered = db.selectFrom('commission_policies as p').innerJoin('subdivisions', 'subdivisions.id', 'p.subdivision_id');
  if (query.subdivision_id) filtered = filtered.where('p.subdivision_id', '=', query.subdivision_id);
  const page = await paginate(filtered, query, (q) =>
    q
      .selectAll('p')
      .select(['subdivisions.name as subdivision_name', 'subdivisions.currency as subdivision_currency'])
      .orderBy('subdivisions.name')
      .orderBy('p.role')
      .orderBy('p.id'),
  );
  return { data: page.data.map(toPolicy), meta: page.meta };
}

async function policyById(db: Db, id: number): Promise<CommissionPolicy> {
  const row = await policiesQuery(db).where('p.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return toPolicy(row);
}

/**
 * POST /api/commission-policies: one policy per subdivision and role; it applies to the sales
 * registered from then on (a sale keeps the policy it was registered under).
 * @throws HttpError 422 unknown subdivision; 409 a policy of that role already.
 */
export async function createPolicy(
  deps: Deps,
  audit: AuditContext,
  body: z.output<typeof createCommissionPolicyRequestSchema>,
): Promise<CommissionPolicy> {
  const subdivision = await deps.db.selectFrom('subdivisions').select('id').where('id', '=', body.subdivision_id).executeTakeFirst();
  if (!subdivision) throw fieldError('subdivision_id', COMMISSION_MESSAGES.subdivisionUnknown);
  const stamp = deps.clock.now().toISOString();
  try {
    const id = await deps.db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('commission_policies')
        .values({
          subdivision_id: body.subdivision_id,
          role: body.role,
          base: body.base,
          percent_bp: body.base === 'PORCENTAJE' ? (body.percent_bp ?? null) : null,
          amount: body.base === 'MONTO_FIJO' ? (body.amount ?? null) : null,
          trigger_kind: body.trigger,
          trigger_percent_bp: body.trigger === 'PORCENTAJE_COBRADO' ? (body.trigger_percent_bp ?? null) : null,
          tranches: JSON.stringify(body.tranches),
          active: toFlag(body.active ?? true),
          created_by: staffActorId(audit),
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordChange(trx, audit, {
        entity: 'commission_policies',
        recordId: id,
        action: 'CREATE',
        after: await trx.selectFrom('commission_policies').selectAll().where('id', '=', id).executeTakeFirst(),
      });
      return id;
    });
    return policyById(deps.db, id);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(COMMISSION_MESSAGES.policyDuplicate);
    throw error;
  }
}

/**
 * PATCH /api/commission-policies/{id}: base, figures, trigger, tranches or active, with the
 * version read. The merged policy is checked again as a whole.
 * @throws HttpError 404; 409 stale; 422 a base without its figure, a trigger without its percent.
 */
export async function updatePolicy(
  deps: Deps,
  audit: AuditContext,
  id: number,
  body: UpdateCommissionPolicyRequest,
): Promise<CommissionPolicy> {
  await deps.db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('commission_policies').selectAll().where('id', '=', id).executeTakeFirst();
    if (!before) throw notFound();
    const base = body.base ?? (before.base as 'PORCENTAJE' | 'MONTO_FIJO');
    const trigger = body.trigger ?? (before.trigger_kind as CreateCommissionPolicyRequest['trigger'] & string);
    const merged = {
      subdivision_id: before.subdivision_id,
      role: before.role,
      base,
      percent_bp: base === 'PORCENTAJE' ? (body.percent_bp !== undefined ? body.percent_bp : before.percent_bp) : null,
      amount: base === 'MONTO_FIJO' ? (body.amount !== undefined ? body.amount : before.amount === null ? null : num(before.amount)) : null,
      trigger,
      trigger_percent_bp:
        trigger === 'PORCENTAJE_COBRADO'
          ? body.trigger_percent_bp !== undefined
            ? body.trigger_percent_bp
            : before.trigger_percent_bp
          : null,
      tranches: body.tranches ?? JSON.parse(before.tranches),
      active: body.active ?? fromFlag(before.active),
    };
    const checked = createCommissionPolicyRequestSchema.safeParse(merged);
    if (!checked.success) {
      const errors: Record<string, string[]> = {};
      for (const issue of checked.error.issues) (errors[String(issue.path[0] ?? 'body')] ??= []).push(issue.message);
      throw validationError(errors);
    }
    const result = await trx
      .updateTable('commission_policies')
      .set((eb) => ({
        base: merged.base,
        percent_bp: merged.percent_bp ?? null,
        amount: merged.amount ?? null,
        trigger_kind: merged.trigger,
        trigger_percent_bp: merged.trigger_percent_bp ?? null,
        tranches: JSON.stringify(checked.data.tranches),
        active: toFlag(merged.active),
        updated_at: deps.clock.now().toISOString(),
        version: eb('version', '+', 1),
      }))
      .where('id', '=', id)
      .$if(body.version !== undefined, (q) => q.where('version', '=', body.version))
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw staleEdit();
    await recordChange(trx, audit, {
      entity: 'commission_policies',
      recordId: id,
      action: 'UPDATE',
      before,
      after: await trx.selectFrom('commission_policies').selectAll().where('id', '=', id).executeTakeFirst(),
    });
  });
  return policyById(deps.db, id);
}

/** 409 of a stale version (src/schemas/versions.ts). */
function staleEdit(): HttpError {
  const message = 'El registro fue modificado por otro usuario; recargue para ver los cambios';
  return new HttpError(409, message, { version: [message] });
}

// ---------------------------------------------------------------- agents

function agentsQuery(db: Db) {
  return db.selectFrom('users as u').leftJoin('users as head', 'head.id', 'u.sales_head_id');
}

function selectAgent(query: ReturnType<typeof agentsQuery>) {
  return query.select([
    'u.id',
    'u.name',
    'u.surname',
    'u.dni',
    'u.status',
    'u.issues_fee_receipts',
    'u.version',
    'head.id as head_id',
    'head.name as head_name',
    'head.surname as head_surname',
  ]);
}
type AgentRow = Awaited<ReturnType<ReturnType<typeof selectAgent>['executeTakeFirstOrThrow']>>;

const toAgent = (r: AgentRow): CommissionAgent => ({
  id: r.id,
  name: fullName(r.name, r.surname),
  dni: r.dni,
  status: r.status,
  issues_fee_receipts: fromFlag(r.issues_fee_receipts),
  sales_head: r.head_id !== null ? { id: r.head_id, name: fullName(r.head_name, r.head_surname) } : null,
  version: r.version,
});

/** GET /api/commission-agents: the staff users with their commission settings (`q`: name or DNI). */
export async function listAgents(db: Db, query: CommissionAgentsQuery): Promise<Page<CommissionAgent>> {
  let filtered = agentsQuery(db);
  if (query.q) {
    const pattern = searchPatternSql(query.q);
    filtered = filtered.where((eb) =>
      eb.or([eb(searchTextOf(db, "u.name || ' ' || u.surname"), 'like', pattern), eb('u.dni', 'like', pattern)]),
    );
  }
  const page = await paginate(filtered, query, (q) => selectAgent(q).orderBy('u.name').orderBy('u.surname').orderBy('u.id'));
  return { data: page.data.map(toAgent), meta: page.meta };
}

/**
 * PATCH /api/commission-agents/{id}: whether the user issues recibos por honorarios, and their
 * sales head (an active staff user other than themselves, whose own chain of heads does not lead
 * back to them).
 * @throws HttpError 404; 409 stale; 422 on `sales_head_id`.
 */
export async function updateAgent(
  deps: Deps,
  audit: AuditContext,
  id: number,
  body: UpdateCommissionAgentRequest,
): Promise<CommissionAgent> {
  await deps.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('users')
      .select(['id', 'issues_fee_receipts', 'sales_head_id', 'version'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!before) throw notFound();
    if (body.sales_head_id != null) {
      if (body.sales_head_id === id) throw fieldError('sales_head_id', COMMISSION_MESSAGES.headSelf);
      const head = await trx.selectFrom('users').select(['id', 'status']).where('id', '=', body.sales_head_id).executeTakeFirst();
      if (!head || head.status !== 'ACTIVO') throw fieldError('sales_head_id', COMMISSION_MESSAGES.headUnknown);
      // No cycle: walk the head's own chain (bounded).
      let cursor: number | null = body.sales_head_id;
      for (let i = 0; cursor !== null && i < 50; i += 1) {
        const next: { sales_head_id: number | null } | undefined = await trx
          .selectFrom('users')
          .select('sales_head_id')
          .where('id', '=', cursor)
          .executeTakeFirst();
        cursor = next?.sales_head_id ?? null;
        if (cursor === id) throw fieldError('sales_head_id', COMMISSION_MESSAGES.headCycle);
      }
    }
    const result = await trx
      .updateTable('users')
      .set((eb) => ({
        ...(body.issues_fee_receipts !== undefined ? { issues_fee_receipts: toFlag(body.issues_fee_receipts) } : {}),
        ...(body.sales_head_id !== undefined ? { sales_head_id: body.sales_head_id } : {}),
        updated_at: deps.clock.now().toISOString(),
        version: eb('version', '+', 1),
      }))
      .where('id', '=', id)
      .$if(body.version !== undefined, (q) => q.where('version', '=', body.version))
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw staleEdit();
    await recordChange(trx, audit, {
      entity: 'users',
      recordId: id,
      action: 'UPDATE',
      before: { issues_fee_receipts: before.issues_fee_receipts, sales_head_id: before.sales_head_id },
      after: {
        issues_fee_receipts: body.issues_fee_receipts ?? fromFlag(before.issues_fee_receipts),
        sales_head_id: body.sales_head_id ?? before.sales_head_id,
      },
    });
  });
  const row = await selectAgent(agentsQuery(deps.db)).where('u.id', '=', id).executeTakeFirstOrThrow();
  return toAgent(row);
}

// ---------------------------------------------------------------- settlements

function settlementsBase(db: Db) {
  return db.selectFrom('commission_settlements as s').leftJoin('companies', 'companies.id', 's.company_id');
}

function selectSettlement(query: ReturnType<typeof settlementsBase>) {
  return query
    .select([
      's.id',
      's.state',
      's.currency',
      's.period_from',
      's.period_to',
      's.company_id',
      'companies.business_name as company_name',
      's.total',
      's.withholding',
      's.note',
      's.approved_at',
      's.operation_number',
      's.paid_on',
      's.voucher_content_type',
      's.created_at',
      's.version',
    ])
    .select((eb) => [
      eb
        .selectFrom('commission_settlement_agents as a')
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .whereRef('a.settlement_id', '=', 's.id')
        .as('agents_count'),
      eb
        .selectFrom('commission_settlement_lines as l')
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .whereRef('l.settlement_id', '=', 's.id')
        .as('lines_count'),
    ]);
}
type SettlementRow = Awaited<ReturnType<ReturnType<typeof selectSettlement>['executeTakeFirstOrThrow']>>;

const toSettlement = (r: SettlementRow): Settlement => ({
  id: r.id,
  number: settlementNumber(r.id),
  state: r.state as Settlement['state'],
  currency: r.currency,
  period_from: isoDay(r.period_from)!,
  period_to: isoDay(r.period_to)!,
  company: { id: r.company_id, name: r.company_name ?? '' },
  total: num(r.total),
  withholding: num(r.withholding),
  net: num(r.total) - num(r.withholding),
  agents_count: num(r.agents_count),
  lines_count: num(r.lines_count),
  note: r.note,
  approved_at: r.approved_at === null ? null : instant(r.approved_at),
  operation_number: r.operation_number,
  paid_on: isoDay(r.paid_on),
  has_voucher: r.voucher_content_type !== null,
  created_at: instant(r.created_at),
  version: r.version,
});

/** GET /api/commission-settlements: newest first by default. */
export async function listSettlements(db: Db, query: SettlementsQuery): Promise<Page<Settlement>> {
  let filtered = settlementsBase(db);
  if (query.state) filtered = filtered.where('s.state', '=', query.state);
  if (query.currency) filtered = filtered.where('s.currency', '=', query.currency);
  const sort = query.sort ?? '-id';
  const descending = sort.startsWith('-');
  const field = sort.replace(/^-/, '') as 'id' | 'created_at' | 'total';
  const page = await paginate(filtered, query, (q) =>
    selectSettlement(q)
      .orderBy(`s.${field}`, descending ? 'desc' : 'asc')
      .orderBy('s.id', 'desc'),
  );
  return { data: page.data.map(toSettlement), meta: page.meta };
}

/** GET /api/commission-settlements/{id}: with its agents' totals and its lines. @throws HttpError 404. */
export async function getSettlement(db: Db, id: number): Promise<SettlementDetail> {
  const row = await selectSettlement(settlementsBase(db)).where('s.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  const agents = await db
    .selectFrom('commission_settlement_agents as a')
    .innerJoin('users', 'users.id', 'a.user_id')
    .select(['a.user_id', 'users.name', 'users.surname', 'a.issues_fee_receipts', 'a.lines', 'a.gross', 'a.withholding', 'a.net'])
    .where('a.settlement_id', '=', id)
    .orderBy('users.name')
    .orderBy('users.surname')
    .execute();
  const lines = await selectCommission(commissionsQuery(db))
    .innerJoin('commission_settlement_lines as sl', 'sl.commission_id', 'c.id')
    .where('sl.settlement_id', '=', id)
    .orderBy('u.name')
    .orderBy('c.sale_id')
    .orderBy('c.id')
    .execute();
  return {
    ...toSettlement(row),
    agents: agents.map((a) => ({
      agent: { id: a.user_id, name: fullName(a.name, a.surname) },
      issues_fee_receipts: fromFlag(a.issues_fee_receipts),
      lines: a.lines,
      gross: num(a.gross),
      withholding: num(a.withholding),
      net: num(a.net),
    })),
    lines: lines.map(toCommission),
  };
}

/** The installation's company (the one row of `companies`). */
async function companyId(db: Db): Promise<number> {
  const company = await findMainCompanyId(db);
  if (company === undefined) throw conflict('Registre primero la empresa en Configuración → Empresas');
  return company;
}

/**
 * POST /api/commission-settlements: a BORRADOR settlement of the company for `currency`, the
 * period and the agents. Its lines: the agents' DEVENGADA commissions earned in the period (or
 * exactly `commission_ids`), and every REVERTIDA line of theirs not yet settled up to the period's
 * end; per-agent totals with the 4th-category withholding. A commission is in one settlement at
 * most (unique line; a concurrent settlement taking the same one loses with 409).
 * @throws HttpError 422 an agent unknown or of another company (`agent_ids`), a named commission
 *   unknown, of another agent or currency (`commission_ids`), nothing to settle; 409 a named
 *   commission not DEVENGADA or already in a settlement, or a race.
 */
export async function createSettlement(
  deps: Deps,
  audit: AuditContext,
  body: z.output<typeof createSettlementRequestSchema>,
): Promise<SettlementDetail> {
  const company = await companyId(deps.db);
  const agentIds = [...new Set(body.agent_ids)];
  const agents = await deps.db
    .selectFrom('users')
    .select(['id', 'name', 'surname', 'issues_fee_receipts'])
    .where('id', 'in', agentIds)
    .execute();
  if (agents.length !== agentIds.length) throw fieldError('agent_ids', COMMISSION_MESSAGES.agentUnknown);
  // An agent belongs to the company when one of their locals is the company's (a user without locals belongs to the installation's one company).
  const locals = await deps.db
    .selectFrom('user_locals')
    .innerJoin('locals', 'locals.id', 'user_locals.local_id')
    .select(['user_locals.user_id', 'locals.company_id'])
    .where('user_locals.user_id', 'in', agentIds)
    .execute();
  for (const agent of agents) {
    const companies = locals.filter((l) => l.user_id === agent.id).map((l) => l.company_id);
    if (companies.length > 0 && !companies.includes(company))
      throw fieldError('agent_ids', COMMISSION_MESSAGES.agentOtherCompany(fullName(agent.name, agent.surname)));
  }
  if (body.commission_ids) {
    const ids = [...new Set(body.commission_ids)];
    const named = await deps.db
      .selectFrom('commissions')
      .select(['id', 'state', 'user_id', 'currency', 'settlement_id'])
      .where('id', 'in', ids)
      .execute();
    if (named.length !== ids.length) throw fieldError('commission_ids', COMMISSION_MESSAGES.commissionUnknown);
    for (const c of named) {
      if (c.settlement_id !== null) throw conflict(COMMISSION_MESSAGES.commissionAlreadySettled(c.id, settlementNumber(c.settlement_id)));
      if (c.state !== 'DEVENGADA' && c.state !== 'REVERTIDA') throw conflict(COMMISSION_MESSAGES.commissionNotSettleable(c.id));
      if (c.currency !== body.currency) throw fieldError('commission_ids', COMMISSION_MESSAGES.commissionOtherCurrency(c.id));
      if (!agentIds.includes(c.user_id)) throw fieldError('commission_ids', COMMISSION_MESSAGES.commissionOtherAgent(c.id));
    }
  }
  const stamp = deps.clock.now().toISOString();
  try {
    const id = await deps.db.transaction().execute(async (trx) => {
      const candidates = await trx
        .selectFrom('commissions')
        .select(['id', 'user_id', 'amount'])
        .where('user_id', 'in', agentIds)
        .where('currency', '=', body.currency)
        .where('settlement_id', 'is', null)
        .$if(body.commission_ids !== undefined, (q) => q.where('id', 'in', body.commission_ids!))
        .where((eb) =>
          eb.or([
            eb.and([eb('state', '=', 'DEVENGADA'), eb('accrued_on', '>=', body.period_from), eb('accrued_on', '<=', body.period_to)]),
            eb.and([eb('state', '=', 'REVERTIDA'), eb('accrued_on', '<=', body.period_to)]),
          ]),
        )
        .orderBy('id')
        .execute();
      if (candidates.length === 0) throw fieldError('period_to', COMMISSION_MESSAGES.noLines);
      if (body.commission_ids && candidates.length !== new Set(body.commission_ids).size) throw conflict(COMMISSION_MESSAGES.raced);
      const { id } = await trx
        .insertInto('commission_settlements')
        .values({
          company_id: company,
          currency: body.currency,
          period_from: body.period_from,
          period_to: body.period_to,
          state: 'BORRADOR',
          note: body.note ?? null,
          created_by: staffActorId(audit),
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const withLines = new Set(candidates.map((c) => c.user_id));
      const present = agents.filter((a) => withLines.has(a.id));
      await trx
        .insertInto('commission_settlement_agents')
        .values(
          present.map((a) => ({
            settlement_id: id,
            user_id: a.id,
            issues_fee_receipts: a.issues_fee_receipts,
            lines: 0,
            gross: 0,
            withholding: 0,
            net: 0,
          })),
        )
        .execute();
      for (let i = 0; i < candidates.length; i += 200) {
        const chunk = candidates.slice(i, i + 200);
        await trx
          .insertInto('commission_settlement_lines')
          .values(chunk.map((c) => ({ settlement_id: id, commission_id: c.id, user_id: c.user_id, amount: num(c.amount) })))
          .execute();
        // Claimed only while still free: a concurrent settlement that took one makes this one roll back.
        const claimed = await trx
          .updateTable('commissions')
          .set((eb) => ({ settlement_id: id, updated_at: stamp, version: eb('version', '+', 1) }))
          .where(
            'id',
            'in',
            chunk.map((c) => c.id),
          )
          .where('settlement_id', 'is', null)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== chunk.length) throw conflict(COMMISSION_MESSAGES.raced);
      }
      await refreshSettlementTotals(trx, id);
      await recordChange(trx, audit, {
        entity: 'commission_settlements',
        recordId: id,
        action: 'CREATE',
        after: await settlementAudit(trx, id),
      });
      return id;
    });
    return getSettlement(deps.db, id);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(COMMISSION_MESSAGES.raced);
    throw error;
  }
}

/** The settlement's row for the change history (no voucher bytes). */
async function settlementAudit(trx: Db, id: number) {
  return trx
    .selectFrom('commission_settlements')
    .select([
      'id',
      'company_id',
      'currency',
      'period_from',
      'period_to',
      'state',
      'total',
      'withholding',
      'note',
      'approved_by',
      'approved_at',
      'operation_number',
      'paid_on',
      'paid_by',
      'voucher_content_type',
      'voucher_size',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Claims settlement `id` in `state` (and `version` when sent) with `set`; 404 / 409 otherwise. */
async function claimSettlement(
  trx: Db,
  id: number,
  state: string,
  version: number | undefined,
  set: Parameters<ReturnType<Db['updateTable']>['set']>[0] extends never ? never : Record<string, unknown>,
  wrongState: string,
): Promise<void> {
  const result = await trx
    .updateTable('commission_settlements')
    .set((eb) => ({ ...set, version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .where('state', '=', state)
    .$if(version !== undefined, (q) => q.where('version', '=', version!))
    .executeTakeFirst();
  if (result.numUpdatedRows > 0n) return;
  const row = await trx.selectFrom('commission_settlements').select('state').where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  if (row.state !== state) throw conflict(wrongState);
  throw staleEdit();
}

/**
 * POST /api/commission-settlements/{id}/approve: BORRADOR → APROBADA; its DEVENGADA lines become
 * LIQUIDADA (REVERTIDA lines keep their state).
 * @throws HttpError 404; 409 not BORRADOR or stale.
 */
export async function approveSettlement(
  deps: Deps,
  audit: AuditContext,
  id: number,
  version: number | undefined,
): Promise<SettlementDetail> {
  await deps.db.transaction().execute(async (trx) => {
    const before = await settlementAudit(trx, id);
    const stamp = deps.clock.now().toISOString();
    await claimSettlement(
      trx,
      id,
      'BORRADOR',
      version,
      { state: 'APROBADA', approved_by: staffActorId(audit), approved_at: stamp, updated_at: stamp },
      COMMISSION_MESSAGES.notDraft,
    );
    await trx
      .updateTable('commissions')
      .set((eb) => ({ state: 'LIQUIDADA', updated_at: stamp, version: eb('version', '+', 1) }))
      .where('settlement_id', '=', id)
      .where('state', '=', 'DEVENGADA')
      .execute();
    await recordChange(trx, audit, {
      entity: 'commission_settlements',
      recordId: id,
      action: 'UPDATE',
      before,
      after: await settlementAudit(trx, id),
    });
  });
  return getSettlement(deps.db, id);
}

/**
 * DELETE /api/commission-settlements/{id}: a BORRADOR settlement is discarded; its commissions are
 * free again for another settlement.
 * @throws HttpError 404; 409 not BORRADOR.
 */
export async function deleteSettlement(deps: Deps, audit: AuditContext, id: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const before = await settlementAudit(trx, id);
    if (!before) throw notFound();
    const stamp = deps.clock.now().toISOString();
    await claimSettlement(trx, id, 'BORRADOR', undefined, { updated_at: stamp }, COMMISSION_MESSAGES.notDraft);
    await trx
      .updateTable('commissions')
      .set((eb) => ({ settlement_id: null, updated_at: stamp, version: eb('version', '+', 1) }))
      .where('settlement_id', '=', id)
      .execute();
    await trx.deleteFrom('commission_settlements').where('id', '=', id).execute();
    await recordChange(trx, audit, { entity: 'commission_settlements', recordId: id, action: 'DELETE', before });
  });
}

/** The types a settlement voucher may be: a PDF or an image (sniffed from the bytes). */
export function voucherType(bytes: Buffer): 'application/pdf' | 'image/png' | 'image/jpeg' | 'image/webp' | null {
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  return detectImageType(bytes, ['image/png', 'image/jpeg', 'image/webp']);
}

/**
 * POST /api/commission-settlements/{id}/voucher: the bank's voucher of the payment (PDF or image
 * sniffed from its bytes, ≤ 10 MB) of an APROBADA settlement; a second upload replaces it.
 * @throws HttpError 404; 409 not APROBADA; 422 on `voucher` not a PDF or image.
 */
export async function uploadSettlementVoucher(deps: Deps, audit: AuditContext, id: number, bytes: Buffer): Promise<SettlementDetail> {
  const type = voucherType(bytes);
  await deps.db.transaction().execute(async (trx) => {
    const before = await settlementAudit(trx, id);
    if (!before) throw notFound();
    if (before.state !== 'APROBADA') throw conflict(COMMISSION_MESSAGES.notApproved);
    if (!type) throw fieldError('voucher', COMMISSION_MESSAGES.voucherType);
    const stamp = deps.clock.now().toISOString();
    await claimSettlement(
      trx,
      id,
      'APROBADA',
      undefined,
      { voucher_content_type: type, voucher_size: bytes.length, voucher_data: bytes, updated_at: stamp },
      COMMISSION_MESSAGES.notApproved,
    );
    await recordChange(trx, audit, {
      entity: 'commission_settlements',
      recordId: id,
      action: 'UPDATE',
      before,
      after: await settlementAudit(trx, id),
    });
  });
  return getSettlement(deps.db, id);
}

/** GET /api/commission-settlements/{id}/voucher. @throws HttpError 404 (also when none). */
export async function readSettlementVoucher(db: Db, id: number): Promise<{ contentType: string; data: Buffer }> {
  const row = await db
    .selectFrom('commission_settlements')
    .select(['voucher_content_type', 'voucher_data'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound();
  if (!row.voucher_content_type || !row.voucher_data) throw new HttpError(404, COMMISSION_MESSAGES.noVoucher);
  return { contentType: row.voucher_content_type, data: Buffer.from(row.voucher_data) };
}

/**
 * POST /api/commission-settlements/{id}/pay: APROBADA → PAGADA with the operation number and the
 * day paid (not after today, not before the approval); its LIQUIDADA commissions become PAGADA on
 * that day. The voucher must be uploaded first.
 * @throws HttpError 404; 409 not APROBADA, no voucher, stale; 422 on `paid_on`.
 */
export async function paySettlement(deps: Deps, audit: AuditContext, id: number, body: PaySettlementRequest): Promise<SettlementDetail> {
  const today = todayInLimaBy(deps.clock);
  await deps.db.transaction().execute(async (trx) => {
    const before = await settlementAudit(trx, id);
    if (!before) throw notFound();
    if (before.state !== 'APROBADA') throw conflict(COMMISSION_MESSAGES.notApproved);
    if (!before.voucher_content_type) throw conflict(COMMISSION_MESSAGES.voucherRequired);
    if (body.paid_on > today) throw fieldError('paid_on', COMMISSION_MESSAGES.paidInFuture);
    const approvedOn = before.approved_at ? todayInLima(new Date(instant(before.approved_at))) : null;
    if (approvedOn && body.paid_on < approvedOn) throw fieldError('paid_on', COMMISSION_MESSAGES.paidBeforeApproval);
    const stamp = deps.clock.now().toISOString();
    await claimSettlement(
      trx,
      id,
      'APROBADA',
      body.version,
      {
        state: 'PAGADA',
        operation_number: body.operation_number.toUpperCase(),
        paid_on: body.paid_on,
        paid_by: staffActorId(audit),
        updated_at: stamp,
      },
      COMMISSION_MESSAGES.notApproved,
    );
    await trx
      .updateTable('commissions')
      .set((eb) => ({ state: 'PAGADA', paid_on: body.paid_on, updated_at: stamp, version: eb('version', '+', 1) }))
      .where('settlement_id', '=', id)
      .where('state', '=', 'LIQUIDADA')
      .execute();
    await trx
      .updateTable('commissions')
      .set({ paid_on: body.paid_on, updated_at: stamp })
      .where('settlement_id', '=', id)
      .where('state', '=', 'REVERTIDA')
      .execute();
    await recordChange(trx, audit, {
      entity: 'commission_settlements',
      recordId: id,
      action: 'UPDATE',
      before,
      after: await settlementAudit(trx, id),
    });
  });
  return getSettlement(deps.db, id);
}

/** Amount in currency units for a spreadsheet cell. */
const units = (cents: number) => cents / 100;

/**
 * GET /api/commission-settlements/{id}/export: the settlement as an Excel workbook (one row per
 * line, then one per agent's totals), by the one writer of every export on the documents' pool.
 */
export async function settlementXlsx(deps: { db: Db; documents: WorkerPool }, id: number): Promise<FileDownload> {
  const s = await getSettlement(deps.db, id);
  const header = [
    'Liquidación',
    'Asesor',
    'Rol',
    'Venta',
    'Lote',
    'Lotización',
    'Tramo',
    'Estado',
    'Devengada',
    'Moneda',
    'Monto',
    'Retención 4.ª',
    'Neto',
  ];
  const rows: CellValue[][] = s.lines.map((l) => [
    s.number,
    l.agent.name,
    COMMISSION_ROLE_LABELS[l.role],
    l.sale.number,
    l.sale.lot_code,
    l.sale.subdivision_name,
    `${l.tranche}/${l.tranche_count}`,
    COMMISSION_STATE_LABELS[l.state],
    dateCell(l.accrued_on),
    l.currency,
    units(l.amount),
    null,
    null,
  ]);
  for (const a of s.agents)
    rows.push([
      s.number,
      a.agent.name,
      'TOTAL',
      null,
      null,
      null,
      null,
      null,
      null,
      s.currency,
      units(a.gross),
      units(a.withholding),
      units(a.net),
    ]);
  return tableFile(deps.documents, { format: 'xlsx', sheetName: s.number, header, rows, fileName: `${s.number}.xlsx` });
}

/**
 * GET /api/commission-settlements/{id}/agents/{agent_id}/pdf: the liquidation of one agent as a PDF
 * (./commission-pdf.ts, on the documents' pool): their lines, gross, the 4th-category withholding
 * as a line when it applies, and the net.
 * @throws HttpError 404 unknown settlement or agent not in it.
 */
export async function settlementAgentPdf(
  deps: { db: Db; documents: WorkerPool },
  id: number,
  agentId: number,
): Promise<{ fileName: string; bytes: Buffer }> {
  const s = await getSettlement(deps.db, id);
  const agent = s.agents.find((a) => a.agent.id === agentId);
  if (!agent) throw new HttpError(404, COMMISSION_MESSAGES.agentNotInSettlement);
  const lines = s.lines.filter((l) => l.agent.id === agentId);
  const bytes = await renderDocument(deps.documents, 'pdf.commissionSettlement', {
    settlement: { ...s, lines, agents: [agent] },
    issuer: await loadPdfIssuer(deps.db),
  });
  return { fileName: `${s.number}-${agentId}.pdf`, bytes };
}
