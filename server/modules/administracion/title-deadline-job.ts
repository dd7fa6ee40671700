import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { AUTH_ROUTES } from '../../../src/config/paths';
import { formatDate } from '../../../src/lib/dates';
import { presentationDeadline } from '../../../src/lib/administracion/working-days';
import { PRESENTATION_STATES } from '../../../src/schemas/administracion/titles';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import type { Clock } from '../../clock';
import { MINUTE_MS, todayInLimaBy } from '../../clock';
import type { DB } from '../../db/database';
import { activeStaffWithPermissions } from '../../notifications/notifications.repository';
import { createNotifications, escapeHtml } from '../../notifications/notifications.service';
import { PollingJob } from '../../platform/polling-job';
import type { Broadcaster } from '../../realtime/broadcaster';
import { saleNumber } from '../comercio/sales.service';
import { holidaySet } from './public-holidays.service';

/**
 * The asiento de presentación's warning (docs/domain.md "Titles at SUNARP"): from 5 working days
 * before the 35th working day after the presentation, until that day, the staff who hold the
 * titles submodule get one WARNING notification per asiento ("El asiento de presentación del
 * título … vence el dd/mm/aaaa"). Its queue is the database: a process PRESENTADO, OBSERVADO or
 * LIQUIDADO whose `deadline_notice_for` is not its `presented_on` yet; a conditional UPDATE of that
 * column claims it, in the notification's transaction, so two processes send it once. A new
 * presentation (after a tacha) has a new date, so it is warned again.
 */

/** Timing and bounds. */
export const TITLE_DEADLINE_JOB = {
  /** How often a pass runs (ms): the warning is of a day. */
  pollMs: 15 * MINUTE_MS,
  /** Processes read per pass. */
  batch: 200,
} as const;

/** Who is warned: 'Acceso módulo administración' + 'Acceso submódulo registros de partidas y títulos'. */
const AUDIENCE = [MODULE.administracion, SUBMODULE.partidasTitulos];

export class TitleDeadlineJob extends PollingJob {
  constructor(private readonly deps: { db: Kysely<DB>; clock: Clock; broadcaster: Broadcaster; log: Pick<FastifyBaseLogger, 'error'> }) {
    super(TITLE_DEADLINE_JOB.pollMs, 'title deadline job pass failed', deps.log);
  }

  /** One pass is enough: candidates not yet due stay for a later day. */
  async runUntilDone(): Promise<number> {
    return this.runPass();
  }

  /** Warns every process whose warning is due today (Lima) and not sent for its presentation. @returns how many were warned. */
  async runPass(): Promise<number> {
    const { db, clock, broadcaster } = this.deps;
    const today = todayInLimaBy(clock);
    const holidays = await holidaySet(db);
    const candidates = await db
      .selectFrom('title_processes as tp')
      .innerJoin('sales', 'sales.id', 'tp.sale_id')
      .innerJoin('lots', 'lots.id', 'sales.lot_id')
      .select(['tp.id', 'tp.sale_id', 'tp.presented_on', 'tp.titulo_number', 'lots.code'])
      .where('tp.state', 'in', [...PRESENTATION_STATES])
      .where('tp.presented_on', 'is not', null)
      .where((eb) => eb.or([eb('tp.deadline_notice_for', 'is', null), eb('tp.deadline_notice_for', '!=', eb.ref('tp.presented_on'))]))
      .orderBy('tp.presented_on')
      .orderBy('tp.id')
      .limit(TITLE_DEADLINE_JOB.batch)
      .execute();
    let warned = 0;
    for (const c of candidates) {
      if (this.stopped) break;
      const presentedOn = String(c.presented_on).slice(0, 10);
      const { deadline, notice_on } = presentationDeadline(presentedOn, holidays);
      if (today < notice_on || today > deadline) continue;
      const created = await db.transaction().execute(async (trx) => {
        const claimed = await trx
          .updateTable('title_processes')
          .set({ deadline_notice_for: presentedOn })
          .where('id', '=', c.id)
          .where('presented_on', '=', presentedOn)
          .where((eb) => eb.or([eb('deadline_notice_for', 'is', null), eb('deadline_notice_for', '!=', presentedOn)]))
          .executeTakeFirst();
        if (claimed.numUpdatedRows === 0n) return null;
        const recipients = (await activeStaffWithPermissions(trx, AUDIENCE)).map((accountId) => ({
          userType: 'COLLABORATOR' as const,
          accountId,
        }));
        return createNotifications(trx, clock, recipients, {
          type: 'WARNING',
          title: 'Asiento de presentación por vencer',
          detail: `<p>El asiento de presentación del título <b>${escapeHtml(c.titulo_number ?? '')}</b> (venta ${saleNumber(c.sale_id)}, ${escapeHtml(c.code)}) vence el <b>${formatDate(deadline)}</b>.</p>`,
          route: AUTH_ROUTES.partidasTitulos.path,
        });
      });
      if (created) {
        broadcaster.publish(created.events);
        warned += 1;
      }
    }
    return warned;
  }
}
