import type { Kysely } from 'kysely';
import type { Clock } from '../../clock';
import type { DB } from '../../db/database';
import { LEAD_CHANNELS, type LeadActivityKind, type LeadChannel, type LeadStatus } from '../../../src/schemas/crm/leads';
import { insertLead, insertLeadActivity, setLeadSubdivisions } from './leads.repository';
import { sequence } from './demo-customers';

/**
 * Demo leads of CRM → LEADS (issue "CRM and sales", demo seed: ~300 leads across channels and
 * statuses): {@link DEMO_LEAD_COUNT} leads received over the last 90 days, most assigned to the
 * demo agent, some to the administrator, some unassigned; open ones with follow-ups from three
 * days ago (overdue) to a week ahead; CONCRETADO ones linked to a demo customer; each with 0–4
 * activities. Deterministic (a fixed pseudo-random sequence), so every demo database is the same.
 */

export const DEMO_LEAD_COUNT = 300;

const FIRST = ['Ana', 'Jorge', 'Milagros', 'Kevin', 'Yessenia', 'Brayan', 'Rocío', 'Julio', 'Katherine', 'Renzo', 'Fiorella', 'Diego'];
const LAST = ['Quispe', 'Huamán', 'Torres', 'Flores', 'Cárdenas', 'Ríos', 'Vargas', 'Soto', 'Palomino', 'Aguilar', 'Espinoza', 'León'];
const CAMPAIGNS = ['Preventa Carabayllo', 'Lotes desde S/ 300 al mes', 'Feria Inmobiliaria Lima', 'Verano 2026'];
const LOST = ['Sin presupuesto por ahora', 'Compró en otro proyecto', 'No contesta después de 5 intentos', 'Busca lote más cerca de Lima'];
const OUTCOMES: Record<LeadActivityKind, readonly string[]> = {
  LLAMADA: ['Contestó, pide precios de lotes esquina', 'No contestó', 'Interesado, llamar el sábado'],
  WHATSAPP: ['Se envió brochure y plano', 'Pidió cronograma a 60 meses', 'Respondió que lo evaluará con su familia'],
  VISITA: ['Visitó el proyecto con su esposa; le gustó la Mz. C', 'Visita agendada no se concretó'],
  EMAIL: ['Se envió cotización por correo'],
  NOTA: ['Cliente referido por la Sra. Rosa Quispe'],
};
/** Channels weighted as a developer in Lima sees them (Facebook and WhatsApp first). */
const WEIGHTED_CHANNELS: readonly LeadChannel[] = [
  ...LEAD_CHANNELS,
  'FACEBOOK',
  'FACEBOOK',
  'FACEBOOK',
  'WHATSAPP',
  'WHATSAPP',
  'TIKTOK',
  'INSTAGRAM',
];

/**
 * Inserts the demo leads and their activities (no change history: seed data).
 * @param agentId the demo agent (most leads); @param adminId the administrator (some leads).
 */
export async function seedDemoLeads(db: Kysely<DB>, clock: Clock, agentId: number | null, adminId: number | null): Promise<void> {
  const random = sequence(20_261_127);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const now = clock.now().getTime();
  const day = 86_400_000;
  const subdivisions = (await db.selectFrom('subdivisions').select('id').orderBy('id').execute()).map((s) => s.id);
  const customers = (
    await db.selectFrom('customers').select('id').where('password_hash', 'is', null).orderBy('id').limit(40).execute()
  ).map((c) => c.id);
  for (let i = 0; i < DEMO_LEAD_COUNT; i += 1) {
    const r = random();
    const status: LeadStatus =
      r < 0.35 ? 'POR_ATENDER' : r < 0.7 ? 'EN_ATENCION' : r < 0.8 && customers.length > 0 ? 'CONCRETADO' : 'NO_CONCRETADO';
    const received = new Date(now - Math.floor(random() * 90 * day) - Math.floor(random() * day)).toISOString();
    const agent = i % 10 < 7 ? agentId : i % 10 < 8 ? adminId : null;
    const open = status === 'POR_ATENDER' || status === 'EN_ATENCION';
    // On the hour, from three days ago (overdue) to a week ahead.
    const hour = 3_600_000;
    const followUp =
      open && random() < 0.8 ? new Date(Math.floor(now / hour) * hour + Math.round((random() * 10 - 3) * 24) * hour).toISOString() : null;
    const channel = pick(WEIGHTED_CHANNELS);
    const id = await insertLead(db, {
      name: `${pick(FIRST)} ${pick(LAST)} ${pick(LAST)}`,
      phone: `9${String(30_000_000 + i * 7907).padStart(8, '0')}`,
      email: random() < 0.5 ? `lead${i}@correo-demo.pe` : null,
      id_document_type: random() < 0.25 ? '1' : null,
      document_number: null,
      channel,
      campaign: channel === 'FACEBOOK' || channel === 'INSTAGRAM' || channel === 'TIKTOK' ? pick(CAMPAIGNS) : null,
      notes: null,
      agent_id: agent,
      status,
      lost_reason: status === 'NO_CONCRETADO' ? pick(LOST) : null,
      next_follow_up_at: followUp,
      customer_id: status === 'CONCRETADO' ? customers[i % customers.length]! : null,
      last_activity_at: null,
      received_at: received,
      created_by: null,
      created_at: received,
      updated_at: received,
    });
    // The document type needs a number: give the quarter with a type a DNI.
    await db
      .updateTable('leads')
      .set((eb) => ({
        document_number: eb
          .case()
          .when('id_document_type', '=', '1')
          .then(String(70_100_000 + i * 13))
          .else(null)
          .end(),
      }))
      .where('id', '=', id)
      .execute();
    if (subdivisions.length > 0) {
      await setLeadSubdivisions(db, id, random() < 0.3 ? subdivisions : [subdivisions[i % subdivisions.length]!]);
    }
    const activities = status === 'POR_ATENDER' ? 0 : 1 + Math.floor(random() * 4);
    let last: string | null = null;
    for (let a = 0; a < activities; a += 1) {
      const at = new Date(Math.min(now, Date.parse(received) + (a + 1) * Math.floor(random() * 4 + 1) * day)).toISOString();
      const kind = pick(Object.keys(OUTCOMES) as LeadActivityKind[]);
      await insertLeadActivity(db, { lead_id: id, kind, outcome: pick(OUTCOMES[kind]), occurred_at: at, user_id: agent, created_at: at });
      if (!last || at > last) last = at;
    }
    if (last) await db.updateTable('leads').set({ last_activity_at: last }).where('id', '=', id).execute();
  }
}
