import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { AUTH_ROUTES } from '../../../src/config/paths';
import { formatDate } from '../../../src/lib/dates';
import { formatMoney } from '../../../src/lib/money';
import type { InstalmentReminderKind } from '../../../src/schemas/finanzas/instalments';
import type { TokenOwner } from '../../auth/tokens';
import type { Clock } from '../../clock';
import { MINUTE_MS, todayInLimaBy } from '../../clock';
import type { DB } from '../../db/database';
import type { Broadcaster, BroadcastEvent } from '../../realtime/broadcaster';
import { PollingJob } from '../../platform/polling-job';
import { createNotifications, escapeHtml } from '../../notifications/notifications.service';
import { saleNumber } from '../comercio/sales.service';
import { dateOfEpochDay, epochDay } from '../../../src/lib/dates';
import { refreshSaleLateFees } from './late-fees.service';
import { ENDED_SALE_STATUSES } from '../../../src/schemas/comercio/sales';

/**
 * The daily late-fee job and the instalments' reminders (issue 16: "Late fees — … computed by a
 * daily job that is idempotent (running it twice, or after downtime, gives the same figures),
 * persisted"; "Overdue reminders: a daily job raises notifications to the collector (and the
 * customer) for instalments due in 3 days and overdue ones"; docs/decisions.md "Registro de Cuotas
 * and reminders"). Modelled on the reservations' expiry (server/modules/comercio/reservation-expiry.ts):
 * its queue is the database itself, so it survives restarts.
 *
 * - Late fees: every sale not ANULADA nor CANCELADA with an open instalment (not PAGADA) already
 *   due whose figures are not of today (`late_fee_as_of` null or earlier) is figured for today by
 *   `refreshSaleLateFees` (late-fees.service.ts), twenty sales per transaction. The figures are
 *   a pure function of the payments and the date, so a second run, or a run after days of
 *   downtime, stores the same figures; a sale figured today is not read again today.
 * - Reminders (notifications type PAYMENT for "vence pronto", WARNING for "vencida") to the sale's
 *   agent (the collector, `sales.agent_id`) and to its holders (customers): for instalments not
 *   paid due within {@link LATE_FEE_JOB}.dueSoonDays days, and for instalments VENCIDA that became
 *   overdue (the day after their due date) within the last {@link LATE_FEE_JOB}.overdueWindowDays days (an instalment overdue
 *   for months when reminders started — a first start on old data — is not announced; the register
 *   shows it). Once per instalment and kind: the row in `instalment_reminders` (migration 0025) is
 *   claimed in the same transaction as the notifications, whose events are published after commit.
 *   One notification per sale, kind and recipient lists that sale's instalments.
 */

/** Timing and bounds. */
export const LATE_FEE_JOB = {
  /** How often a pass runs (ms): figures are of a day, so a pass finds work once a day after midnight in Lima. */
  pollMs: 15 * MINUTE_MS,
  /** Sales figured, and instalments reminded, per pass (a full batch starts another pass at once). */
  batch: 100,
  /**
   * Sales figured in one transaction: fewer commits (on 2 000 000 schedule rows, 8 636 sales took
   * 8.3 s one per transaction and 5.3 s a hundred per transaction) while a transaction holds the
   * database for a few milliseconds only.
   */
  salesPerTransaction: 20,
  /** "Vence pronto": reminded when due today or within this many days. */
  dueSoonDays: 3,
  /** "Vencida": reminded when it became overdue (the day after its due date) at most this many days ago. */
  overdueWindowDays: 7,
} as const;

/** Counts of one pass. */
export interface LateFeePass {
  /** Sales figured. */
  sales: number;
  /** Instalment rows whose stored figures changed. */
  changed: number;
  /** Instalments whose reminders were raised (or found claimed by another process). */
  reminded: number;
}

/** Sale statuses whose instalments are no longer collected. */
const CLOSED_SALE_STATUSES = [...ENDED_SALE_STATUSES, 'CANCELADA'] as const;

/** `date` moved by `days` (ISO `YYYY-MM-DD`). */
const shift = (date: string, days: number) => dateOfEpochDay((epochDay(date) ?? 0) + days);

export class LateFeeJob extends PollingJob {
  constructor(private readonly deps: { db: Kysely<DB>; clock: Clock; broadcaster: Broadcaster; log: Pick<FastifyBaseLogger, 'error'> }) {
    super(LATE_FEE_JOB.pollMs, 'late-fee job pass failed', deps.log);
  }

  /**
   * Runs passes until one handles less than a batch: every sale due is figured for the clock's
   * today and every reminder due is raised. The sales are walked in id order from the start of the
   * run, so a sale the rules leave as it was (its figures not stored) is not read twice in a run.
   */
  async runUntilDone(): Promise<LateFeePass> {
    const total: LateFeePass = { sales: 0, changed: 0, reminded: 0 };
    let after = 0;
    let pass: LateFeePass & { lastSaleId: number; more: boolean };
    do {
      pass = await this.runPass(after);
      after = pass.lastSaleId;
      total.sales += pass.sales;
      total.changed += pass.changed;
      total.reminded += pass.reminded;
    } while (!this.stopped && pass.more);
    return total;
  }

  /**
   * One pass on the clock's today (Lima): figures up to a batch of sales with id above `afterSaleId`,
   * then raises up to a batch of instalments' reminders of each kind (grouped per sale); publishes the notifications after
   * each commit.
   */
  async runPass(afterSaleId = 0): Promise<LateFeePass & { lastSaleId: number; more: boolean }> {
    const { db, clock, broadcaster } = this.deps;
    const today = todayInLimaBy(clock);
    const pass = { sales: 0, changed: 0, reminded: 0, lastSaleId: afterSaleId, more: false };
    const ids = await salesToFigure(db, today, afterSaleId, LATE_FEE_JOB.batch);
    for (let i = 0; i < ids.length; i += LATE_FEE_JOB.salesPerTransaction) {
      const chunk = ids.slice(i, i + LATE_FEE_JOB.salesPerTransaction);
      pass.changed += await figureSales(db, chunk, today, this.deps.log);
      pass.sales += chunk.length;
      pass.lastSaleId = chunk[chunk.length - 1]!;
    }
    if (pass.sales >= LATE_FEE_JOB.batch) pass.more = true;
    for (const kind of ['POR_VENCER', 'VENCIDA'] as const) {
      const due = await instalmentsToRemind(db, kind, today, LATE_FEE_JOB.batch);
      if (due.length >= LATE_FEE_JOB.batch) pass.more = true;
      const bySale = new Map<number, number[]>();
      for (const r of due) bySale.set(r.sale_id, [...(bySale.get(r.sale_id) ?? []), r.id]);
      for (const [saleId, ids] of bySale) {
        broadcaster.publish(await remindSale(db, clock, kind, saleId, ids, today));
        pass.reminded += ids.length;
      }
    }
    return pass;
  }
}

/**
 * Figures `saleIds` for `today` in one transaction; when it fails, sale by sale, so one sale the
 * rules refuse (logged) does not hold back the others. @returns the instalment rows changed.
 */
async function figureSales(
  db: Kysely<DB>,
  saleIds: readonly number[],
  today: string,
  log: Pick<FastifyBaseLogger, 'error'>,
): Promise<number> {
  const figure = async (trx: Kysely<DB>, id: number) => (await refreshSaleLateFees(trx, id, today)).changed;
  try {
    return await db.transaction().execute(async (trx) => {
      let changed = 0;
      for (const id of saleIds) changed += await figure(trx, id);
      return changed;
    });
  } catch {
    let changed = 0;
    for (const id of saleIds) {
      try {
        changed += await db.transaction().execute((trx) => figure(trx, id));
      } catch (error) {
        log.error({ err: error, saleId: id }, 'late-fee job: the sale could not be figured');
      }
    }
    return changed;
  }
}

/**
 * Ids of sales (above `afterSaleId`, ascending, at most `limit`) not ANULADA nor CANCELADA with an
 * instalment not PAGADA, due before `today`, whose figures are not of `today`. Reads the partial
 * index `sale_instalments_open_sale_idx` (migration 0025) in sale order.
 */
export async function salesToFigure(db: Kysely<DB>, today: string, afterSaleId: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('sale_instalments as i')
    .select('i.sale_id')
    .distinct()
    .where('i.status', '<>', 'PAGADA')
    .where('i.sale_id', '>', afterSaleId)
    .where('i.due_date', '<', today)
    .where((eb) => eb.or([eb('i.late_fee_as_of', 'is', null), eb('i.late_fee_as_of', '<', today)]))
    .where('i.sale_id', 'not in', (eb) =>
      eb
        .selectFrom('sales')
        .select('sales.id')
        .where('sales.status', 'in', [...CLOSED_SALE_STATUSES]),
    )
    .orderBy('i.sale_id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.sale_id);
}

/**
 * Instalments owed a reminder of `kind` on `today` that have not had it, ordered by sale, at most
 * `limit` rows (whole sales: the rows of the last sale are cut off by the limit, and come next pass).
 * POR_VENCER: PENDIENTE or PARCIAL, due in [today, today + dueSoonDays]. VENCIDA: VENCIDA whose first
 * late day (the day after its due date) is within the last overdueWindowDays days (today included).
 */
export async function instalmentsToRemind(
  db: Kysely<DB>,
  kind: InstalmentReminderKind,
  today: string,
  limit: number,
): Promise<Array<{ id: number; sale_id: number }>> {
  let query = db
    .selectFrom('sale_instalments as i')
    .innerJoin('sales', 'sales.id', 'i.sale_id')
    .select(['i.id', 'i.sale_id'])
    .where('sales.status', 'not in', [...CLOSED_SALE_STATUSES])
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('instalment_reminders as r')
            .select('r.instalment_id')
            .whereRef('r.instalment_id', '=', 'i.id')
            .where('r.kind', '=', kind),
        ),
      ),
    );
  if (kind === 'POR_VENCER') {
    query = query
      .where('i.status', 'in', ['PENDIENTE', 'PARCIAL'])
      .where('i.due_date', '>=', today)
      .where('i.due_date', '<=', shift(today, LATE_FEE_JOB.dueSoonDays));
  } else {
    // Days late (from the due date) 1 … overdueWindowDays: due in [today − window, today − 1].
    query = query
      .where('i.status', '=', 'VENCIDA')
      .where('i.due_date', '>=', shift(today, -LATE_FEE_JOB.overdueWindowDays))
      .where('i.due_date', '<', today);
  }
  const rows = await query.orderBy('i.sale_id').orderBy('i.id').limit(limit).execute();
  return rows;
}

/** Who is told about a sale's instalments: its agent (staff) and its holders (customers). */
async function recipientsOf(
  db: Kysely<DB>,
  saleId: number,
): Promise<{ agent: TokenOwner[]; customers: TokenOwner[]; info: SaleInfo | undefined }> {
  const sale = await db
    .selectFrom('sales')
    .innerJoin('lots', 'lots.id', 'sales.lot_id')
    .innerJoin('subdivisions', 'subdivisions.id', 'sales.subdivision_id')
    .select(['sales.agent_id', 'sales.currency', 'lots.code as lot_code', 'subdivisions.name as subdivision_name'])
    .where('sales.id', '=', saleId)
    .executeTakeFirst();
  const holders = await db.selectFrom('sale_holders').select('customer_id').where('sale_id', '=', saleId).orderBy('position').execute();
  return {
    agent: sale?.agent_id ? [{ userType: 'COLLABORATOR', accountId: sale.agent_id }] : [],
    customers: holders.map((h) => ({ userType: 'CUSTOMER' as const, accountId: h.customer_id })),
    info: sale
      ? { lotCode: sale.lot_code, subdivisionName: sale.subdivision_name, currency: sale.currency === 'USD' ? 'USD' : 'PEN' }
      : undefined,
  };
}

interface SaleInfo {
  lotCode: string;
  subdivisionName: string;
  currency: 'PEN' | 'USD';
}

/**
 * Claims the reminders of `kind` of the sale's instalments `ids` (those another process has not
 * claimed first) and raises one notification to the agent and one to the holders listing them, in
 * one transaction. @returns the events to publish after commit (none when nothing was claimed).
 */
export async function remindSale(
  db: Kysely<DB>,
  clock: Clock,
  kind: InstalmentReminderKind,
  saleId: number,
  ids: readonly number[],
  today: string,
): Promise<BroadcastEvent[]> {
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto('instalment_reminders')
      .values(ids.map((id) => ({ instalment_id: id, kind, sent_on: today })))
      .onConflict((oc) => oc.doNothing())
      .returning('instalment_id')
      .execute();
    if (claimed.length === 0) return [];
    const rows = await trx
      .selectFrom('sale_instalments')
      .select(['kind', 'number', 'due_date', 'amount', 'paid'])
      .where(
        'id',
        'in',
        claimed.map((c) => c.instalment_id),
      )
      .orderBy('due_date')
      .orderBy('id')
      .execute();
    const { agent, customers, info } = await recipientsOf(trx, saleId);
    const currency = info?.currency ?? 'PEN';
    const items = rows
      .map(
        (r) =>
          `<li>${r.kind === 'INICIAL' ? 'Inicial' : 'Cuota'} ${r.number}: vence el ${formatDate(r.due_date)}, saldo ${formatMoney(Number(r.amount) - Number(r.paid), currency)}</li>`,
      )
      .join('');
    const where = info ? ` (lote ${escapeHtml(info.lotCode)}, ${escapeHtml(info.subdivisionName)})` : '';
    const number = saleNumber(saleId);
    const soon = kind === 'POR_VENCER';
    const title = soon ? `Cuotas por vencer: venta ${number}` : `Cuotas vencidas: venta ${number}`;
    const lead = soon ? 'vence pronto' : 'está vencida';
    const events: BroadcastEvent[] = [];
    const staff = await createNotifications(trx, clock, agent, {
      type: soon ? 'PAYMENT' : 'WARNING',
      title,
      detail: `<p>De la venta <b>${number}</b>${where} ${rows.length === 1 ? lead : lead.replace('vence', 'vencen').replace('está vencida', 'están vencidas')}:</p><ul>${items}</ul>`,
      route: `${AUTH_ROUTES.registroCuotas.path}?sale_id=${saleId}`,
    });
    events.push(...staff.events);
    const own = await createNotifications(trx, clock, customers, {
      type: soon ? 'PAYMENT' : 'WARNING',
      title: soon ? 'Tiene cuotas por vencer' : 'Tiene cuotas vencidas',
      detail: `<p>De su compra${where}:</p><ul>${items}</ul><p>${soon ? 'Puede pagarlas desde Mis Compras.' : 'Regularice su pago para detener la mora.'}</p>`,
      route: AUTH_ROUTES.misCompras.path,
    });
    events.push(...own.events);
    return events;
  });
}
