import { describe, expect, it } from 'vitest';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { systemAuditContext } from '../../server/audit/audit';
import { createSale } from '../../server/modules/comercio/sales.service';
import { addPaymentVoucher } from '../../server/modules/finanzas/payments.service';
import { QR_PIXEL_LIMITS, tooManyPixelsMessage, VOUCHER_PIXEL_LIMITS } from '../../server/platform/image-type';
import {
  createCustomer,
  createLot,
  createPayment,
  createSession,
  createStaff,
  createSubdivision,
  createWallet,
} from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';
import { png } from './images';

/**
 * docs/security.md 30.6: vouchers and wallet QRs accepted a PNG declaring 65 535 × 65 535 pixels
 * (a few bytes that a browser, or a PDF writer, would try to decode into 16 GiB). Their declared
 * size is now capped (server/platform/image-type.ts): a Spanish 422 on the upload's field.
 */
describe.each(dialects)('image pixel limits (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  it('a wallet QR over 4 096 px a side is a 422 on `qr`; a 4 096 px one is stored', async () => {
    const staff = await createStaff(db(), { permissions: [MODULE.finanzas, SUBMODULE.billeteras], clock: ctx().clock });
    const token = await createSession(db(), staff);
    const id = await createWallet(db(), { kind: 'YAPE' });
    const upload = (content: Buffer) => {
      const boundary = '----parcelaQr';
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="qr"; filename="qr.png"\r\nContent-Type: image/png\r\n\r\n`),
        content,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return ctx().app.inject({
        method: 'POST',
        url: `/api/wallets/${id}/qr`,
        payload,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...bearer(token) },
      });
    };
    const huge = await upload(png(65_535, 65_535));
    expect(huge.statusCode, huge.body).toBe(422);
    expect(huge.json().errors).toEqual({ qr: [tooManyPixelsMessage('El QR', { width: 65_535, height: 65_535 }, QR_PIXEL_LIMITS)] });
    expect((await upload(png(4_096, 4_096))).statusCode).toBe(200);
  });

  it('a voucher over 16 384 px a side or 64 MP is a 422 on `voucher`; a 48 MP photo is stored', async () => {
    const clock = ctx().clock;
    const subdivision = await createSubdivision(db());
    const customer = await createCustomer(db());
    await createSale({ db: db(), clock }, systemAuditContext(clock), {
      lot_id: await createLot(db(), subdivision.id, { block: 'V', number: '1' }),
      holders: [{ customer_id: customer.id, role: 'TITULAR', share_percent: '100' }],
      sale_date: '2026-01-10',
      down_payment_percent: '20',
      down_payment_parts: 1,
      instalments: 2,
      monthly_rate_percent: '0',
      method: 'SIN_INTERES',
      first_due_date: '2026-02-10',
    });
    const paymentId = await createPayment(db());
    const deps = { db: db(), clock };
    const actor = { kind: 'STAFF' as const, audit: systemAuditContext(clock) };
    for (const [width, height] of [
      [65_535, 65_535],
      [16_385, 10],
      [10_000, 6_401],
    ] as const)
      await expect(addPaymentVoucher(deps, actor, paymentId, png(width, height))).rejects.toMatchObject({
        statusCode: 422,
        errors: { voucher: [tooManyPixelsMessage('La captura', { width, height }, VOUCHER_PIXEL_LIMITS)] },
      });
    expect((await addPaymentVoucher(deps, actor, paymentId, png(8_000, 6_000))).vouchers).toHaveLength(1);
  });
});
