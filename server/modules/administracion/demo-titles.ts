import type { Kysely } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { TitleState, TitleTransitionRequest } from '../../../src/schemas/administracion/titles';
import type { AuditContext } from '../../audit/audit';
import { todayInLimaBy, type Clock } from '../../clock';
import type { DB } from '../../db/database';
import { clockAt, versionOf } from './demo-contracts';
import { createTitleProcess, transitionTitleProcess } from './titles.service';

/**
 * Demo titles at SUNARP (docs/domain.md "Titles at SUNARP"): processes of paid-off (CANCELADA)
 * sales — and one FINANCIADO sale with its retention-of-title pact stated — moved through the
 * transitions table by the service itself, each step on its day in the past, so the board has every
 * state (PENDIENTE, MINUTA_FIRMADA, ESCRITURA, PRESENTADO, OBSERVADO, LIQUIDADO, TACHADO, INSCRITO,
 * ENTREGADO), one asiento de presentación near its 35-working-day end (its warning due) and
 * histories with a re-entry after an observation, a paid mayor derecho and a new presentation after
 * a tacha.
 */

/** One step of a demo process: the state, the days after the previous step, the step's fields. */
type Step = { to: TitleState; after: number } & Record<string, unknown>;

const NOTARIES = ['Notaría Paino Scarpati', 'Notaría Becerra Sosaya', 'Notaría Tambini Ávila', 'Notaría Rivera Rodríguez'] as const;

/** The path to INSCRITO of process `n`: minuta, escritura, presentation, inscription. */
const toEscritura = (n: number): Step[] => [
  { to: 'MINUTA_FIRMADA', after: 4 },
  { to: 'ESCRITURA', after: 12, notary: NOTARIES[n % NOTARIES.length], escritura_number: `${1480 + n * 37}` },
];
const presented = (n: number, after = 6): Step => ({ to: 'PRESENTADO', after, titulo_number: `2026-0${3_104_512 + n * 7_919}` });
const inscribed = (n: number, after = 21): Step => ({
  to: 'INSCRITO',
  after,
  partida: String(14_360_250 + n * 113),
  asiento: `C0000${1 + (n % 3)}`,
});

/**
 * The demo processes: each its steps and how many days before the seed it started (PENDIENTE),
 * the steps then dated in turn. The last step's state is the process's state today.
 */
function demoTitlePlans(): { startedAgo: number; retentionPact?: true; notes?: string; steps: Step[] }[] {
  return [
    { startedAgo: 20, steps: [] },
    { startedAgo: 9, steps: [], notes: 'Titular pidió esperar a su viaje para firmar la minuta' },
    { startedAgo: 30, steps: [{ to: 'MINUTA_FIRMADA', after: 5 }] },
    { startedAgo: 45, steps: toEscritura(3) },
    // Presented 47 days ago (30–35 working days, whatever the holidays): the asiento's warning is due.
    { startedAgo: 70, steps: [...toEscritura(4), presented(4, 9)] },
    { startedAgo: 40, steps: [...toEscritura(5), presented(5, 10)] },
    {
      startedAgo: 95,
      steps: [
        ...toEscritura(6),
        presented(6),
        {
          to: 'OBSERVADO',
          after: 9,
          observation:
            'Se observa: el área del lote consignada en la escritura no coincide con la de la partida matriz; presentar aclaración notarial con el plano visado.',
        },
      ],
    },
    { startedAgo: 80, steps: [...toEscritura(7), presented(7), { to: 'LIQUIDADO', after: 8, amount: 18_450, currency: 'PEN' }] },
    {
      startedAgo: 150,
      steps: [
        ...toEscritura(8),
        presented(8),
        { to: 'OBSERVADO', after: 10, observation: 'Falta el pago del impuesto de alcabala: adjuntar la constancia del SAT.' },
        { to: 'TACHADO', after: 30, note: 'Venció el asiento sin subsanar la observación' },
      ],
    },
    {
      startedAgo: 120,
      steps: [
        ...toEscritura(9),
        presented(9),
        { to: 'LIQUIDADO', after: 7, amount: 9_600, currency: 'PEN' },
        { to: 'PRESENTADO', after: 3, note: 'Mayor derecho pagado en la oficina registral' },
        inscribed(9, 5),
      ],
    },
    {
      startedAgo: 200,
      steps: [
        ...toEscritura(10),
        presented(10),
        { to: 'OBSERVADO', after: 12, observation: 'Presentar copia legalizada del DNI del cónyuge interviniente.' },
        { to: 'PRESENTADO', after: 6, note: 'Reingreso con la copia legalizada' },
        inscribed(10, 9),
        { to: 'ENTREGADO', after: 10, delivery_reference: 'Acta de entrega N.º 0031-2026, firmada por el titular en la Sede Central' },
      ],
    },
    {
      startedAgo: 260,
      steps: [
        ...toEscritura(11),
        presented(11),
        { to: 'OBSERVADO', after: 11, observation: 'Adjuntar el certificado de parámetros urbanísticos.' },
        { to: 'TACHADO', after: 28 },
        presented(12, 14),
        inscribed(11, 16),
        { to: 'ENTREGADO', after: 7, delivery_reference: 'Acta de entrega N.º 0017-2026, recibida por el titular con su DNI' },
      ],
    },
    // A financed sale with the pact of reservation of property (Código Civil art. 1583): escritura before it is paid off.
    { startedAgo: 60, retentionPact: true, steps: [...toEscritura(13), presented(13, 9)] },
  ];
}

/**
 * Seeds the demo title processes (inside the seed's transaction): the CANCELADA sales of both
 * subdivisions in order of id, and the first FINANCIADO sale EN_CUOTAS for the pact's process.
 * @param actorId the staff user who moves them (the demo administrator), or null.
 * @returns how many processes were made.
 */
export async function seedDemoTitles(trx: Kysely<DB>, clock: Clock, actorId: number | null): Promise<number> {
  const today = Temporal.PlainDate.from(todayInLimaBy(clock));
  const plans = demoTitlePlans();
  const paidOff = await trx.selectFrom('sales').select('id').where('status', '=', 'CANCELADA').orderBy('id').limit(plans.length).execute();
  const financed = await trx
    .selectFrom('sales')
    .select('id')
    .where('status', '=', 'EN_CUOTAS')
    .where('type', '=', 'FINANCIADO')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  let made = 0;
  let nextPaidOff = 0;
  for (const plan of plans) {
    const saleId = plan.retentionPact ? financed?.id : paidOff[nextPaidOff++]?.id;
    if (saleId === undefined) continue;
    let day = today.subtract({ days: plan.startedAgo });
    const audit = (on: Temporal.PlainDate): { deps: { db: Kysely<DB>; clock: Clock }; audit: AuditContext } => {
      const stepClock = clockAt(on.toString());
      return {
        deps: { db: trx, clock: stepClock },
        audit: { actor: actorId === null ? null : { userType: 'COLLABORATOR', accountId: actorId }, ip: null, clock: stepClock },
      };
    };
    const start = audit(day);
    let process = await createTitleProcess(start.deps, start.audit, {
      sale_id: saleId,
      ...(plan.retentionPact
        ? { retention_pact_stated: true, retention_pact_note: 'Cláusula quinta de la minuta de compraventa: pacto de reserva de propiedad' }
        : {}),
      ...(plan.notes ? { notes: plan.notes } : {}),
    });
    for (const { after, ...fields } of plan.steps) {
      const next = day.add({ days: after });
      day = Temporal.PlainDate.compare(next, today) > 0 ? today : next;
      const step = audit(day);
      process = await transitionTitleProcess(step.deps, step.audit, process.id, {
        ...fields,
        version: versionOf(process),
        date: day.toString(),
      } as TitleTransitionRequest);
    }
    made += 1;
  }
  return made;
}
