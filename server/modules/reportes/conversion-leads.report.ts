import { sql, type Kysely, type RawBuilder } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { LEAD_CHANNEL_LABELS, type LeadActivityKind, type LeadChannel } from '../../../src/schemas/crm/leads';
import { AUTH_ROUTES } from '../../../src/config/paths';
import type { ReportColumn, ReportOutput, ReportRow } from '../../../src/schemas/reportes/report';
import { REPORT_TITLES } from '../../../src/schemas/reportes/report';
import { DAY_MS, HOUR_MS, startOfLimaDay } from '../../clock';
import type { DB } from '../../db/database';
import { isSqlite } from '../../db/portable';
import { reportPeriod, type ReportContext, type ReportDefinition } from './report-definition';

/**
 * Conversión de leads (docs/reports.md "Conversión de leads"): the funnel of the leads received in
 * a period, by channel × agent, with the median days from arrival to each stage.
 *
 * Stages (cumulative: a lead counted at a stage is counted at every earlier one):
 * - RECIBIDO: `received_at` falls on a Lima day from `from` to `to`. Date: `received_at`.
 * - CONTACTADO: a contact was logged (an activity of {@link CONTACT_ACTIVITY_KINDS}), or the lead
 *   is EN_ATENCION or CONCRETADO, or it reached CLIENTE. Date: the first contact activity's
 *   `occurred_at` (none when the lead only moved status).
 * - CLIENTE: converted into a customer (`customer_id` set, or CONCRETADO). Date: the first change
 *   history row of the lead that changed `customer_id` (POST /api/leads/{id}/convert); none for
 *   seed or imported data, which write no history.
 * - CON_VENTA: the lead's customer holds (sale_holders) a sale not ANULADA dated on or after the
 *   lead's arrival day. Date: the first such `sale_date`.
 *
 * One query reads one row per lead of the period (the 5-year cap of the period bounds it; a
 * developer receives hundreds to a few thousand leads a month), the stage dates from correlated
 * subqueries on indexed columns (lead_activities (lead_id, occurred_at), change_history (entity,
 * record_id), sale_holders/sales); counts and medians are rolled up here.
 */

/** The funnel's stages, in order. */
export const LEAD_FUNNEL_STAGES = ['RECIBIDO', 'CONTACTADO', 'CLIENTE', 'CON_VENTA'] as const;
export type LeadFunnelStage = (typeof LEAD_FUNNEL_STAGES)[number];
export const LEAD_FUNNEL_STAGE_LABELS: Record<LeadFunnelStage, string> = {
  RECIBIDO: 'Recibidos',
  CONTACTADO: 'Contactados',
  CLIENTE: 'Clientes',
  CON_VENTA: 'Con venta',
};

/** Activities that are a contact with the lead (a NOTA is an internal note, e.g. a merge's record). */
export const CONTACT_ACTIVITY_KINDS: readonly LeadActivityKind[] = ['LLAMADA', 'WHATSAPP', 'VISITA', 'EMAIL'];

/** Agent name of leads without one (unassigned, or the user was removed). */
const NO_AGENT = 'Sin asesor';
/** Lima has kept UTC−5 all year since 1994: an instant's Lima day is its UTC instant minus five hours. */
const LIMA_OFFSET_MS = 5 * HOUR_MS;

/** The Lima calendar day (`YYYY-MM-DD`) of an ISO instant. */
const limaDay = (instant: string): string => new Date(Date.parse(instant) - LIMA_OFFSET_MS).toISOString().slice(0, 10);
/** Whole days from calendar date `from` to `to` (both `YYYY-MM-DD`; never below 0). */
const daysFrom = (from: string, to: string): number => Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS));

/** SQL: the Lima calendar day of an instant column as `YYYY-MM-DD` text (comparable with `sales.sale_date`, ISO text on both dialects). */
function limaDaySql(db: Kysely<DB>, column: RawBuilder<unknown>): RawBuilder<string> {
  return isSqlite(db) ? sql<string>`date(${column}, '-5 hours')` : sql<string>`to_char(timezone('America/Lima', ${column}), 'YYYY-MM-DD')`;
}

/**
 * The median of whole numbers of days, rounded to a whole day (an even count takes the mean of the
 * two middle values, .5 rounding up); null for none.
 */
export function medianDays(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return Math.round(median);
}

/** One lead of the period as the query reads it. */
interface LeadRow {
  channel: string;
  agent_id: number | null;
  status: string;
  customer_id: number | null;
  received_at: string;
  contacted_at: string | null;
  converted_at: string | null;
  sold_on: string | null;
}

/** One group's running figures: counts per stage and the days to each dated stage. */
interface Group {
  channel: string;
  agentId: number | null;
  counts: Record<LeadFunnelStage, number>;
  daysToContact: number[];
  daysToCustomer: number[];
  daysToSale: number[];
}

const emptyGroup = (channel: string, agentId: number | null): Group => ({
  channel,
  agentId,
  counts: { RECIBIDO: 0, CONTACTADO: 0, CLIENTE: 0, CON_VENTA: 0 },
  daysToContact: [],
  daysToCustomer: [],
  daysToSale: [],
});

/** The stages a lead reached (cumulative) and the days from its arrival to each dated one; adds them to `group`. */
function addLead(group: Group, lead: LeadRow): void {
  const sold = lead.customer_id !== null && lead.sold_on !== null;
  const customer = sold || lead.customer_id !== null || lead.status === 'CONCRETADO';
  const contacted = customer || lead.contacted_at !== null || lead.status === 'EN_ATENCION';
  const arrived = limaDay(lead.received_at);
  group.counts.RECIBIDO += 1;
  if (contacted) group.counts.CONTACTADO += 1;
  if (customer) group.counts.CLIENTE += 1;
  if (sold) group.counts.CON_VENTA += 1;
  if (lead.contacted_at !== null) group.daysToContact.push(daysFrom(arrived, limaDay(lead.contacted_at)));
  if (customer && lead.converted_at !== null) group.daysToCustomer.push(daysFrom(arrived, limaDay(lead.converted_at)));
  if (sold) group.daysToSale.push(daysFrom(arrived, lead.sold_on!));
}

const COLUMNS: ReportColumn[] = [
  { key: 'channel', label: 'Canal', kind: 'text' },
  { key: 'agent', label: 'Asesor', kind: 'text' },
  { key: 'received', label: 'Recibidos', kind: 'count' },
  { key: 'contacted', label: 'Contactados', kind: 'count' },
  { key: 'customers', label: 'Clientes', kind: 'count' },
  { key: 'sold', label: 'Con venta', kind: 'count' },
  { key: 'conversion_rate', label: 'Conversión a cliente', kind: 'percent' },
  { key: 'sale_rate', label: 'Conversión a venta', kind: 'percent' },
  { key: 'median_days_contact', label: 'Mediana días a contacto', kind: 'days' },
  { key: 'median_days_customer', label: 'Mediana días a cliente', kind: 'days' },
  { key: 'median_days_sale', label: 'Mediana días a venta', kind: 'days' },
];

const ratio = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);

/** A group's cells under {@link COLUMNS}. */
const cellsOf = (group: Group, channel: string, agent: string): ReportRow['cells'] => ({
  channel,
  agent,
  received: group.counts.RECIBIDO,
  contacted: group.counts.CONTACTADO,
  customers: group.counts.CLIENTE,
  sold: group.counts.CON_VENTA,
  conversion_rate: ratio(group.counts.CLIENTE, group.counts.RECIBIDO),
  sale_rate: ratio(group.counts.CON_VENTA, group.counts.RECIBIDO),
  median_days_contact: medianDays(group.daysToContact),
  median_days_customer: medianDays(group.daysToCustomer),
  median_days_sale: medianDays(group.daysToSale),
});

/** A channel code's Spanish label (another server's new code as is). */
const channelLabel = (code: string): string => LEAD_CHANNEL_LABELS[code as LeadChannel] ?? code;

/**
 * The leads of the period under the filters, one row each, with the dates of their stages (see the
 * module's comment): `from`/`to` Lima dates (both included), `subdivision_id` a subdivision of
 * interest (lead_subdivisions), `agent_id` the lead's agent.
 */
export async function periodLeads(
  db: Kysely<DB>,
  filters: { from: string; to: string; subdivisionId?: number; agentId?: number },
): Promise<LeadRow[]> {
  const fromInstant = startOfLimaDay(filters.from);
  const toInstant = startOfLimaDay(Temporal.PlainDate.from(filters.to).add({ days: 1 }).toString());
  const rows = await db
    .selectFrom('leads as l')
    .select((eb) => [
      'l.channel',
      'l.agent_id',
      'l.status',
      'l.customer_id',
      'l.received_at',
      eb
        .selectFrom('lead_activities as a')
        .select((e) => e.fn.min('a.occurred_at').as('at'))
        .whereRef('a.lead_id', '=', 'l.id')
        .where('a.kind', 'in', [...CONTACT_ACTIVITY_KINDS])
        .as('contacted_at'),
      eb
        .selectFrom('change_history as ch')
        .select((e) => e.fn.min('ch.occurred_at').as('at'))
        .where('ch.entity', '=', 'leads')
        .where('ch.record_id', '=', sql<string>`cast(${sql.ref('l.id')} as text)`)
        .where('ch.changed_fields', 'like', '%"customer_id"%')
        .as('converted_at'),
      eb
        .selectFrom('sale_holders as h')
        .innerJoin('sales as s', 's.id', 'h.sale_id')
        .select((e) => e.fn.min('s.sale_date').as('on'))
        .whereRef('h.customer_id', '=', 'l.customer_id')
        .where('s.status', '<>', 'ANULADA')
        .where('s.sale_date', '>=', limaDaySql(db, sql.ref('l.received_at')))
        .as('sold_on'),
    ])
    .where('l.received_at', '>=', fromInstant)
    .where('l.received_at', '<', toInstant)
    .$if(filters.agentId !== undefined, (q) => q.where('l.agent_id', '=', filters.agentId!))
    .$if(filters.subdivisionId !== undefined, (q) =>
      q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('lead_subdivisions as ls')
            .select('ls.lead_id')
            .whereRef('ls.lead_id', '=', 'l.id')
            .where('ls.subdivision_id', '=', filters.subdivisionId!),
        ),
      ),
    )
    .execute();
  return rows.map((r) => ({
    channel: r.channel,
    agent_id: r.agent_id,
    status: r.status,
    customer_id: r.customer_id,
    received_at: String(r.received_at),
    contacted_at: r.contacted_at === null ? null : String(r.contacted_at),
    converted_at: r.converted_at === null ? null : String(r.converted_at),
    sold_on: r.sold_on === null ? null : String(r.sold_on),
  }));
}

/** Staff names by id (`name surname`). */
async function agentNames(db: Kysely<DB>, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const users = await db.selectFrom('users').select(['id', 'name', 'surname']).where('id', 'in', ids).execute();
  return new Map(users.map((u) => [u.id, `${u.name} ${u.surname}`.trim()]));
}

/** The leads list (CRM → LEADS) filtered by a row's channel and agent (and the report's subdivision). */
function leadsLink(channel: string, agentId: number | null, subdivisionId: number | undefined): string | undefined {
  if (agentId === null) return undefined; // the list cannot filter "no agent"
  const params = new URLSearchParams({ channel, agent_id: String(agentId) });
  if (subdivisionId !== undefined) params.set('subdivision_id', String(subdivisionId));
  return `${AUTH_ROUTES.leads.path}?${params.toString()}`;
}

/**
 * Builds Conversión de leads: one row per channel × agent (channels by label, then agents by name,
 * "Sin asesor" last) with the counts per stage, the conversion rates (ratios 0..1) and the median
 * days to contact, to customer and to sale; a totals row without currency; a funnel chart of the
 * totals per stage. Reads `from`, `to`, `subdivision_id`, `agent_id`.
 */
async function build({ deps, query, today }: ReportContext): Promise<ReportOutput> {
  const { from, to } = reportPeriod(query, today);
  const leads = await periodLeads(deps.db, { from, to, subdivisionId: query.subdivision_id, agentId: query.agent_id });
  const groups = new Map<string, Group>();
  const total = emptyGroup('', null);
  for (const lead of leads) {
    const key = `${lead.channel}|${lead.agent_id ?? ''}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = emptyGroup(lead.channel, lead.agent_id)));
    addLead(group, lead);
    addLead(total, lead);
  }
  const agentIds = [...new Set([...groups.values()].flatMap((g) => (g.agentId === null ? [] : [g.agentId])))];
  if (query.agent_id !== undefined && !agentIds.includes(query.agent_id)) agentIds.push(query.agent_id);
  const names = await agentNames(deps.db, agentIds);
  const agentName = (id: number | null) => (id === null ? NO_AGENT : (names.get(id) ?? NO_AGENT));
  const sorted = [...groups.values()].sort(
    (a, b) =>
      channelLabel(a.channel).localeCompare(channelLabel(b.channel), 'es') ||
      Number(a.agentId === null) - Number(b.agentId === null) ||
      agentName(a.agentId).localeCompare(agentName(b.agentId), 'es'),
  );
  const rows: ReportRow[] = sorted.map((g) => {
    const link = leadsLink(g.channel, g.agentId, query.subdivision_id);
    return { cells: cellsOf(g, channelLabel(g.channel), agentName(g.agentId)), ...(link ? { link } : {}) };
  });

  const filters: { label: string; value: string }[] = [];
  if (query.subdivision_id !== undefined) {
    const s = await deps.db.selectFrom('subdivisions').select('name').where('id', '=', query.subdivision_id).executeTakeFirst();
    filters.push({ label: 'Lotización', value: s?.name ?? `#${query.subdivision_id}` });
  }
  if (query.agent_id !== undefined) filters.push({ label: 'Asesor', value: names.get(query.agent_id) ?? `#${query.agent_id}` });

  return {
    report: 'conversion-leads',
    title: REPORT_TITLES['conversion-leads'],
    from,
    to,
    filters,
    notes: [
      'Contactado: primera llamada, WhatsApp, visita o correo registrado (las notas no cuentan), o lead en atención o más avanzado',
      'Cliente: lead convertido en cliente; los días a cliente solo cuentan conversiones registradas en el historial (no las importadas)',
      'Con venta: el cliente es titular o cotitular de una venta no anulada con fecha igual o posterior a la llegada del lead',
    ],
    columns: COLUMNS,
    rows,
    row_count: rows.length,
    totals: [{ cells: cellsOf(total, 'Total', '') }],
    chart: {
      kind: 'funnel',
      unit: 'count',
      categories: LEAD_FUNNEL_STAGES.map((s) => LEAD_FUNNEL_STAGE_LABELS[s]),
      series: [{ name: 'Leads', values: LEAD_FUNNEL_STAGES.map((s) => total.counts[s]) }],
    },
  };
}

/** Conversión de leads (/Reportes, a period's report): see {@link build}. */
export const leadConversionReport: ReportDefinition = {
  id: 'conversion-leads',
  kind: 'operational',
  period: true,
  build,
};
