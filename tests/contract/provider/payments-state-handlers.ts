import type { Kysely } from 'kysely';
import { systemAuditContext } from '../../../server/audit/audit';
import { systemClock } from '../../../server/clock';
import type { DB } from '../../../server/db/database';
import { addPaymentVoucher, approvePayment, openInstalmentsOn, registerPayment } from '../../../server/modules/finanzas/payments.service';
import type { Broadcaster } from '../../../server/realtime/broadcaster';
import { BACK_DATED_PAYMENT_DATE, PAYMENT, STAFF, STATES } from '../states';

/** A 1×1 PNG, the voucher of STATES.paymentPendingExists. */
const VOUCHER_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** The states' payments notify nobody (the verification does not look at realtime). */
const silent: Broadcaster = { publish: () => undefined, settled: async () => undefined };

/** What the Pagos handlers need from the verification harness. */
export interface PaymentsStateDeps {
  db: () => Kysely<DB>;
  /** The handler of STATES.saleExists (comercio-state-handlers.ts): STAFF signed in, sale 1 of lot 1 to CRM_CUSTOMER. */
  saleExists: (params?: unknown) => Promise<void>;
}

/** The provider states of Finanzas → Pagos (tests/contract/states.ts): payment 1 of sale 1, through the service as a request would. */
export function paymentsStateHandlers(deps: PaymentsStateDeps): Record<string, (params?: unknown) => Promise<void>> {
  const pending = async (params: unknown) => {
    await deps.saleExists(params);
    const services = { db: deps.db(), clock: systemClock, broadcaster: silent };
    const actor = { kind: 'STAFF' as const, audit: systemAuditContext(systemClock) };
    const payment = await registerPayment(services, actor, { sale_id: 1, ...PAYMENT });
    await addPaymentVoucher(services, actor, payment.id, VOUCHER_PNG);
    return { services, payment };
  };
  return {
    [STATES.paymentPendingExists]: async (params) => {
      await pending(params);
    },
    [STATES.paymentApprovedExists]: async (params) => {
      const { services, payment } = await pending(params);
      await approvePayment(services, systemAuditContext(systemClock), payment.id, {});
    },
    [STATES.paymentRegisteredBySignedInStaffExists]: async (params) => {
      await deps.saleExists(params);
      const services = { db: deps.db(), clock: systemClock, broadcaster: silent };
      const staff = await deps.db().selectFrom('users').select('id').where('email', '=', STAFF.email).executeTakeFirstOrThrow();
      const audit = { ...systemAuditContext(systemClock), actor: { userType: 'COLLABORATOR' as const, accountId: staff.id } };
      await registerPayment(services, { kind: 'STAFF', audit }, { sale_id: 1, ...PAYMENT });
    },
    [STATES.backDatedPaymentPendingExists]: async (params) => {
      await deps.saleExists(params);
      const services = { db: deps.db(), clock: systemClock, broadcaster: silent };
      const debt = (await openInstalmentsOn(deps.db(), 1, BACK_DATED_PAYMENT_DATE)).reduce(
        (sum, row) => sum + row.amountDueCents + row.lateFeeDueCents,
        0,
      );
      await registerPayment(
        services,
        { kind: 'STAFF', audit: systemAuditContext(systemClock) },
        { sale_id: 1, amount: debt, method: 'EFECTIVO', operation_date: BACK_DATED_PAYMENT_DATE },
      );
    },
  };
}
