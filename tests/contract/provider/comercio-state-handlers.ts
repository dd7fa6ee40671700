import type { Kysely } from 'kysely';
import { systemAuditContext } from '../../../server/audit/audit';
import type { DB } from '../../../server/db/database';
import { createReservation } from '../../../server/modules/comercio/reservations.service';
import { createQuote } from '../../../server/modules/comercio/quotes.service';
import { createSale } from '../../../server/modules/comercio/sales.service';
import { createManualClock, systemClock } from '../../../server/clock';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import {
  createCrmCustomer,
  createCustomer,
  createRole,
  createSession,
  createStaff,
  type StaffFixture,
} from '../../../server/testing/fixtures';
import { CRM_CUSTOMER, SALE_DATE, STATES } from '../states';
import { createSubdivisionWithLots } from './projects-state-handlers';

/** What the Comercial handlers need from the verification harness. */
export interface ComercioStateDeps {
  db: () => Kysely<DB>;
  staff: () => Promise<StaffFixture>;
  tokenParam: (params: unknown) => string;
}

/** The provider states of Comercial (tests/contract/states.ts). */
export function comercioStateHandlers(d: ComercioStateDeps): Record<string, (params?: unknown) => Promise<void>> {
  const customerAndLots = async (params: unknown) => {
    const staff = await d.staff();
    await createSession(d.db(), staff, { token: d.tokenParam(params) });
    await createCrmCustomer(d.db(), { ...CRM_CUSTOMER });
    await createSubdivisionWithLots(d.db());
    return staff;
  };
  return {
    [STATES.customerAndPublishedLotsExist]: async (params) => {
      await createRole(d.db(), 'Asesor contrato', [MODULE.crm, SUBMODULE.leads]);
      await createStaff(d.db(), { roleNames: ['Asesor contrato'] });
      await createSession(d.db(), await createCustomer(d.db()), { token: d.tokenParam(params) });
      await createSubdivisionWithLots(d.db());
    },
    [STATES.customerAndLotsExist]: async (params) => {
      await customerAndLots(params);
    },
    [STATES.liveReservationExists]: async (params) => {
      const staff = await customerAndLots(params);
      // Through the service, as the request would: the lot turns SEPARADO with its history.
      await createReservation(
        { db: d.db(), clock: systemClock },
        { ...systemAuditContext(systemClock), actor: { userType: 'COLLABORATOR', accountId: staff.accountId } },
        { customer_id: 1, lot_id: 1, amount: 50_000, hold_days: 7, conditions_accepted: true },
      );
    },
    [STATES.saleExists]: async (params) => {
      const staff = await customerAndLots(params);
      // Registered on its date (the pacts' payments are dated on it: never before the sale, docs/domain.md "Payments").
      const onSaleDay = createManualClock(`${SALE_DATE}T17:00:00.000Z`);
      await createSale(
        { db: d.db(), clock: onSaleDay },
        { ...systemAuditContext(onSaleDay), actor: { userType: 'COLLABORATOR', accountId: staff.accountId } },
        {
          lot_id: 1,
          holders: [{ customer_id: 1, role: 'TITULAR', share_percent: '100' }],
          sale_date: SALE_DATE,
          down_payment_parts: 1,
          instalments: 0,
          monthly_rate_percent: '0',
          method: 'SIN_INTERES',
        },
      );
    },
    [STATES.overdueSaleExists]: async (params) => {
      const staff = await customerAndLots(params);
      // Registered on its (past) date; every instalment is overdue on any later day.
      const onSaleDay = createManualClock('2025-01-10T17:00:00.000Z');
      await createSale(
        { db: d.db(), clock: onSaleDay },
        { ...systemAuditContext(onSaleDay), actor: { userType: 'COLLABORATOR', accountId: staff.accountId } },
        {
          lot_id: 1,
          holders: [{ customer_id: 1, role: 'TITULAR', share_percent: '100' }],
          sale_date: '2025-01-10',
          down_payment_cents: 0,
          down_payment_parts: 1,
          instalments: 6,
          monthly_rate_percent: '0',
          method: 'SIN_INTERES',
          first_due_date: '2025-02-01',
        },
      );
    },
    [STATES.saleOfMarch2026Exists]: async (params) => {
      const staff = await customerAndLots(params);
      // Registered on its date: a sale is dated within the company's window before the day it is registered.
      const onSaleDay = createManualClock('2026-03-15T17:00:00.000Z');
      await createSale(
        { db: d.db(), clock: onSaleDay },
        { ...systemAuditContext(onSaleDay), actor: { userType: 'COLLABORATOR', accountId: staff.accountId } },
        {
          lot_id: 1,
          holders: [{ customer_id: 1, role: 'TITULAR', share_percent: '100' }],
          sale_date: '2026-03-15',
          down_payment_parts: 1,
          instalments: 0,
          monthly_rate_percent: '0',
          method: 'SIN_INTERES',
        },
      );
    },
    [STATES.quoteExists]: async (params) => {
      const staff = await customerAndLots(params);
      await createQuote(
        { db: d.db(), clock: systemClock },
        { ...systemAuditContext(systemClock), actor: { userType: 'COLLABORATOR', accountId: staff.accountId } },
        {
          lot_id: 1,
          customer_id: 1,
          down_payment_parts: 1,
          instalments: 0,
          monthly_rate_percent: '0',
          method: 'SIN_INTERES',
          valid_days: 30,
        },
      );
    },
  };
}
