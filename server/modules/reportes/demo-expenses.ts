import type { Kysely } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { recordChange, systemAuditContext } from '../../audit/audit';
import { todayInLimaBy, type Clock } from '../../clock';
import type { DB } from '../../db/database';

/**
 * Demo data of the expenses register (src/schemas/reportes/expenses.ts): a few plausible expenses
 * of each demo subdivision (Los Viñedos de Carabayllo, Brisas de Chilca), in its currency, dated
 * this month and the two before by the seed's clock — so Ingresos vs egresos shows a margin on the
 * demo. Deterministic: the same clock gives the same rows. Called once inside the demo seed's
 * transaction (server/db/seed.ts); each row's creation is in the change history as the system's.
 */

/** Per subdivision code: months back from this one, day of the month (capped at today), concept, céntimos, voucher. */
export const DEMO_EXPENSES: Readonly<Record<string, ReadonlyArray<readonly [number, number, string, number, string | null]>>> = {
  LVC: [
    [2, 6, 'Movimiento de tierras y nivelación de la manzana C', 1_850_000, 'F001-000482'],
    [2, 20, 'Publicidad en redes sociales', 240_000, 'E001-1187'],
    [1, 9, 'Instalación de postes de alumbrado (avance 40 %)', 2_760_000, 'F002-000115'],
    [1, 25, 'Comisión notarial de minutas', 95_000, null],
    [0, 1, 'Vigilancia del terreno (mensual)', 320_000, 'R001-0031'],
  ],
  BDC: [
    [2, 12, 'Estudio de suelos', 1_200_000, 'F001-002210'],
    [1, 3, 'Trazo y lotización en campo', 980_000, 'F003-000078'],
    [1, 18, 'Cerco perimétrico (tramo norte)', 3_450_000, 'F001-002287'],
    [0, 1, 'Vigilancia del terreno (mensual)', 280_000, 'R001-0032'],
  ],
};

/** Inserts {@link DEMO_EXPENSES} for the demo subdivisions that exist (by code). */
export async function seedDemoExpenses(trx: Kysely<DB>, clock: Clock, adminId: number | null): Promise<void> {
  const today = Temporal.PlainDate.from(todayInLimaBy(clock));
  const now = clock.now().toISOString();
  const audit = systemAuditContext(clock);
  const subdivisions = await trx
    .selectFrom('subdivisions')
    .select(['id', 'code', 'currency'])
    .where('code', 'in', Object.keys(DEMO_EXPENSES))
    .orderBy('id')
    .execute();
  for (const subdivision of subdivisions) {
    for (const [monthsBack, day, concept, amount, voucher] of DEMO_EXPENSES[subdivision.code] ?? []) {
      const month = today.subtract({ months: monthsBack });
      let date = month.with({ day: Math.min(day, month.daysInMonth) });
      if (Temporal.PlainDate.compare(date, today) > 0) date = today;
      const values = {
        subdivision_id: subdivision.id,
        expense_date: date.toString(),
        concept,
        amount,
        currency: subdivision.currency,
        voucher,
        created_by: adminId,
        created_at: now,
        updated_at: now,
      };
      const { id } = await trx.insertInto('expenses').values(values).returning('id').executeTakeFirstOrThrow();
      await recordChange(trx, audit, { entity: 'expenses', recordId: id, action: 'CREATE', after: { id, ...values } });
    }
  }
}
