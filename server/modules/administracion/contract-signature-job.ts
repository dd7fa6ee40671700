import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { AUTH_ROUTES } from '../../../src/config/paths';
import { formatDate } from '../../../src/lib/dates';
import type { Clock } from '../../clock';
import { MINUTE_MS, startOfLimaDay, todayInLimaBy } from '../../clock';
import type { DB } from '../../db/database';
import { createNotifications, escapeHtml } from '../../notifications/notifications.service';
import { PollingJob } from '../../platform/polling-job';
import type { Broadcaster } from '../../realtime/broadcaster';
import { saleNumber } from '../comercio/sales.service';
import { signatureDueOn } from './contracts.service';

/**
 * The overdue signature's notice (docs/domain.md "Contracts"): a contract EMITIDO for longer than
 * its company's `contract_signature_days` (default 15) without its signed scan is flagged in
 * Registro de Contratos, and its sale's agent gets one WARNING notification ("El contrato … sigue
 * sin firmar"). Its queue is the database: EMITIDO contracts whose `signature_notice_at` is null
 * and whose window has passed; a conditional UPDATE of that column claims each, in the
 * notification's transaction, so two server processes send it once. A sale without an agent is
 * claimed without a notice (the register still flags it).
 */

/** Timing and bounds. */
export const CONTRACT_SIGNATURE_JOB = {
  /** How often a pass runs (ms): the flag is of a day. */
  pollMs: 30 * MINUTE_MS,
  /** Contracts read per pass. */
  batch: 200,
} as const;

export class ContractSignatureJob extends PollingJob {
  constructor(private readonly deps: { db: Kysely<DB>; clock: Clock; broadcaster: Broadcaster; log: Pick<FastifyBaseLogger, 'error'> }) {
    super(CONTRACT_SIGNATURE_JOB.pollMs, 'contract signature job pass failed', deps.log);
  }

  /** One pass is enough: contracts not yet overdue stay for a later day. */
  async runUntilDone(): Promise<number> {
    return this.runPass();
  }

  /** Notifies the agent of every contract overdue today (Lima) and not yet notified. @returns how many were notified. */
  async runPass(): Promise<number> {
    const { db, clock, broadcaster } = this.deps;
    const today = todayInLimaBy(clock);
    const companies = await db.selectFrom('companies').select(['id', 'contract_signature_days']).execute();
    let notified = 0;
    for (const company of companies) {
      const cutoff = startOfLimaDay(Temporal.PlainDate.from(today).subtract({ days: company.contract_signature_days }).toString());
      const candidates = await db
        .selectFrom('contracts as c')
        .innerJoin('sales', 'sales.id', 'c.sale_id')
        .innerJoin('lots', 'lots.id', 'sales.lot_id')
        .select(['c.id', 'c.number', 'c.sale_id', 'c.issued_at', 'sales.agent_id', 'lots.code'])
        .where('c.company_id', '=', company.id)
        .where('c.state', '=', 'EMITIDO')
        .where('c.signature_notice_at', 'is', null)
        .where('c.issued_at', '<', cutoff)
        .orderBy('c.issued_at')
        .orderBy('c.id')
        .limit(CONTRACT_SIGNATURE_JOB.batch)
        .execute();
      for (const c of candidates) {
        if (this.stopped) return notified;
        const created = await db.transaction().execute(async (trx) => {
          const claimed = await trx
            .updateTable('contracts')
            .set({ signature_notice_at: clock.now().toISOString() })
            .where('id', '=', c.id)
            .where('state', '=', 'EMITIDO')
            .where('signature_notice_at', 'is', null)
            .executeTakeFirst();
          if (claimed.numUpdatedRows === 0n || c.agent_id === null) return null;
          const due = signatureDueOn(new Date(c.issued_at!).toISOString(), company.contract_signature_days);
          return createNotifications(trx, clock, [{ userType: 'COLLABORATOR', accountId: c.agent_id }], {
            type: 'WARNING',
            title: 'Contrato sin firmar',
            detail: `<p>El contrato <b>${escapeHtml(c.number ?? '')}</b> (venta ${saleNumber(c.sale_id)}, ${escapeHtml(c.code)}) sigue sin firmar: el plazo venció el <b>${formatDate(due)}</b>. Suba el contrato firmado en Registro de Contratos.</p>`,
            route: AUTH_ROUTES.registroContratos.path,
          });
        });
        if (created) {
          broadcaster.publish(created.events);
          notified += 1;
        }
      }
    }
    return notified;
  }
}
