import { describe, expect, it } from 'vitest';
import { changeHistoryPageSchema } from '../../src/schemas/historial/change-history';
import { saleResponseSchema } from '../../src/schemas/comercio/sales';
import { STAFF_PERMISSIONS } from '../../src/schemas/permissions';
import { recordChange, systemAuditContext } from '../../server/audit/audit';
import { createManualClock } from '../../server/clock';
import { createCrmCustomer, createLot, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * GET /api/change-history names each record by its business label (`record_label`;
 * server/modules/historial/record-labels.ts, docs/decisions.md "Historial de cambios: records by
 * their business labels"): a sale "V-000344", a lot "MZ B - LT 8", a customer by name and document.
 */
describe.each(dialects)('change history record labels (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  it('a sale shows V-…, its lot MZ … - LT …, its buyer by name and document; a deleted record its last snapshot', async () => {
    const staff = await createStaff(db(), { permissions: STAFF_PERMISSIONS, clock: ctx().clock });
    const token = await createSession(db(), staff);
    const subdivision = await createSubdivision(db());
    const lotId = await createLot(db(), subdivision.id, { block: 'B', number: '8' });
    const customerId = await createCrmCustomer(db(), { name: 'Rosa', surname: 'Díaz Ccori', document_number: '45551234' });
    const res = await ctx().app.inject({
      method: 'POST',
      url: '/api/sales',
      headers: bearer(token),
      payload: {
        lot_id: lotId,
        holders: [{ customer_id: customerId, role: 'TITULAR', share_percent: '100' }],
        sale_date: '2026-02-10',
        instalments: 0,
        monthly_rate_percent: '0',
        method: 'SIN_INTERES',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const saleId = saleResponseSchema.parse(res.json()).data.id;
    await db()
      .transaction()
      .execute(async (trx) => {
        const audit = systemAuditContext(createManualClock());
        await recordChange(trx, audit, {
          entity: 'customers',
          recordId: customerId,
          action: 'UPDATE',
          before: { phone: '1' },
          after: { phone: '2' },
        });
        await recordChange(trx, audit, {
          entity: 'locals',
          recordId: 999_999,
          action: 'DELETE',
          before: { id: 999_999, name: 'Local cerrado' },
        });
        await recordChange(trx, audit, { entity: 'lot_import_land_uses', recordId: '1:x', action: 'CREATE', after: { label: 'x' } });
      });
    const page = changeHistoryPageSchema.parse(
      (await ctx().app.inject({ method: 'GET', url: '/api/change-history?per_page=100', headers: bearer(token) })).json(),
    );
    const labelOf = (entity: string, recordId: number | string) =>
      page.data.find((e) => e.entity === entity && e.record_id === String(recordId))?.record_label;
    expect(labelOf('sales', saleId)).toBe(`V-${String(saleId).padStart(6, '0')}`);
    expect(labelOf('lots', lotId)).toBe('MZ B - LT 8');
    expect(labelOf('customers', customerId)).toBe('Rosa Díaz Ccori (45551234)');
    expect(labelOf('locals', 999_999)).toBe('Local cerrado');
    expect(labelOf('lot_import_land_uses', '1:x')).toBeNull();
    const csv = (await ctx().app.inject({ method: 'GET', url: '/api/change-history/export.csv?entity=sales', headers: bearer(token) }))
      .body;
    expect(csv).toContain(`V-${String(saleId).padStart(6, '0')} (${saleId})`);
  });
});
