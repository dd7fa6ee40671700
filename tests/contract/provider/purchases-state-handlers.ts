import type { Kysely } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { systemAuditContext, type AuditContext } from '../../../server/audit/audit';
import { createManualClock, systemClock, todayInLimaBy } from '../../../server/clock';
import type { DB } from '../../../server/db/database';
import { createSale } from '../../../server/modules/comercio/sales.service';
import { addPaymentVoucher, approvePayment, registerPayment } from '../../../server/modules/finanzas/payments.service';
import type { Broadcaster } from '../../../server/realtime/broadcaster';
import { createBankAccount, createSession, createWallet, type CustomerFixture } from '../../../server/testing/fixtures';
import { BANK_ACCOUNT, PURCHASE, SALE_DATE, STATES, WALLET } from '../states';
import { createSubdivisionWithLots } from './projects-state-handlers';

/** A 1×1 PNG: the wallet's QR and the approved payment's voucher. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** The states' payments notify nobody (the verification does not look at realtime). */
const silent: Broadcaster = { publish: () => undefined, settled: async () => undefined };

/** What the customer-purchase handlers need from the verification harness. */
export interface PurchasesStateDeps {
  db: () => Kysely<DB>;
  /** Creates CUSTOMER (with the company) and returns it. */
  customer: () => Promise<CustomerFixture>;
  /** The state's `token` parameter (throws when missing). */
  tokenParam: (params: unknown) => string;
}

/**
 * The provider states of the customer's purchases (Mis Compras, Detalle de Compra, PagoYape;
 * tests/contract/states.ts): everything through the services, as the requests would make it. The
 * sale is dated SALE_DATE, registered that day, and its first part paid that day: PagoYape's pacts
 * pay on that date (a payment is never dated before its sale), when nothing was overdue yet —
 * whenever the verification runs, the amount of a payment of that day is the same.
 */
export function purchasesStateHandlers(deps: PurchasesStateDeps): Record<string, (params?: unknown) => Promise<void>> {
  const purchase = async (params: unknown) => {
    const customer = await deps.customer();
    await createSession(deps.db(), customer, { token: deps.tokenParam(params) });
    await createSubdivisionWithLots(deps.db());
    await createWallet(deps.db(), { ...WALLET, qr: { contentType: 'image/png', data: PNG } });
    await createBankAccount(deps.db(), { ...BANK_ACCOUNT });
    const today = Temporal.PlainDate.from(todayInLimaBy(systemClock));
    const saleDay = Temporal.PlainDate.from(SALE_DATE);
    const staffAudit = systemAuditContext(systemClock);
    const onSaleDay = createManualClock(`${SALE_DATE}T17:00:00.000Z`);
    await createSale({ db: deps.db(), clock: onSaleDay }, systemAuditContext(onSaleDay), {
      lot_id: 1,
      holders: [{ customer_id: customer.id, role: 'TITULAR', share_percent: '100' }],
      sale_date: SALE_DATE,
      down_payment_cents: PURCHASE.downPayment,
      down_payment_parts: 2,
      instalments: 12,
      monthly_rate_percent: '0',
      method: 'SIN_INTERES',
      first_due_date: saleDay.add({ months: 3 }).toString(),
    });
    const services = { db: deps.db(), clock: systemClock, broadcaster: silent };
    const audit: AuditContext = { ...staffAudit, actor: { userType: 'CUSTOMER', accountId: customer.id } };
    const actor = { kind: 'CUSTOMER' as const, customerId: customer.id, audit };
    const paid = await registerPayment(services, actor, {
      sale_id: 1,
      customer_id: customer.id,
      amount: PURCHASE.part,
      method: 'YAPE',
      wallet_id: 1,
      operation_number: PURCHASE.paidOperation,
      operation_date: SALE_DATE,
    });
    await addPaymentVoucher(services, actor, paid.id, PNG);
    await approvePayment(services, staffAudit, paid.id, {});
    return { customer, services, actor, today };
  };
  return {
    [STATES.customerPurchaseExists]: async (params) => {
      await purchase(params);
    },
    [STATES.customerPendingPaymentExists]: async (params) => {
      const { customer, services, actor, today } = await purchase(params);
      await registerPayment(services, actor, {
        sale_id: 1,
        customer_id: customer.id,
        amount: 10_000,
        method: 'YAPE',
        wallet_id: 1,
        operation_number: 'PACT-2',
        operation_date: today.toString(),
      });
    },
  };
}
