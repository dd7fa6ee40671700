import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import { ApiError } from '../../../src/api/client';
import { pagoYapeMachine } from '../../../src/machines/comercio/pago-yape.machine';
import type { CustomerPayment, CustomerPaymentRequest, PaymentOptions, PurchaseDetail } from '../../../src/schemas/comercio/purchases';

/**
 * PagoYape's machine: a capture that fails after the payment was registered is sent again alone;
 * closing ends the flow (asking first when the form was changed); an earlier operation date reads the statement of that day and sends its
 * amount (docs/domain.md "Payments").
 */

const instalment = (id: number, due: string) => ({
  id,
  kind: 'CUOTA',
  number: id,
  due_date: due,
  amount: 10_000,
  paid: 0,
  balance: 10_000,
  status: 'PENDIENTE' as const,
  days_late: 0,
  late_fee_accrued: 0,
  late_fee_paid: 0,
  late_fee_waived: 0,
  late_fee_due: 0,
});
const purchase = {
  id: 4,
  currency: 'PEN',
  sale_date: '2026-01-01',
  schedule: [instalment(1, '2026-11-01'), instalment(2, '2026-12-01')],
} as PurchaseDetail;
const options: PaymentOptions = { wallets: [{ id: 3, kind: 'YAPE', phone: '987654321', holder: 'X', qr_url: null }], bank_accounts: [] };
const payment = { id: 11, status: 'PENDIENTE', vouchers: [] } as unknown as CustomerPayment;

function start(
  upload: (input: { paymentId: number; file: File }) => Promise<CustomerPayment>,
  loadStatement: (input: { saleId: number; asOf: string }) => Promise<PurchaseDetail> = async () => purchase,
) {
  const pay = vi.fn(async (_input: { saleId: number; body: CustomerPaymentRequest }) => ({
    payment,
    message: 'Pago enviado: queda pendiente de revisión',
  }));
  const machine = pagoYapeMachine.provide({
    actors: {
      loadQr: fromPromise(async () => 'blob:x'),
      loadStatement: fromPromise(({ input }: { input: { saleId: number; asOf: string } }) => loadStatement(input)),
      pay: fromPromise(({ input }: { input: { saleId: number; body: CustomerPaymentRequest } }) => pay(input)),
      upload: fromPromise(({ input }: { input: { paymentId: number; file: File } }) => upload(input)),
    },
  });
  const actor = createActor(machine, { input: { purchase, options, today: '2026-11-27' } }).start();
  return { actor, pay };
}

describe('pagoYapeMachine', () => {
  it('keeps the registered payment when its capture fails, and sends only the capture again', async () => {
    let attempt = 0;
    const upload = vi.fn(async () => {
      attempt += 1;
      if (attempt === 1) throw new ApiError(0, 'No se pudo conectar con el servidor. Inténtelo nuevamente.');
      return { ...payment, vouchers: [{ id: 1, content_type: 'image/png', url: '/x' }] };
    });
    const { actor, pay } = start(upload);
    expect(actor.getSnapshot().context.walletId).toBe(3);
    expect(actor.getSnapshot().context.amount).toBe(10_000);
    actor.send({ type: 'pay.changed', field: 'operation_number', value: '123' });
    actor.send({ type: 'pay.fileChosen', file: new File(['x'], 'c.png', { type: 'image/png' }) });
    actor.send({ type: 'pay.submit' });
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ flow: 'voucherFailed' })).toBe(true));
    expect(actor.getSnapshot().context.error).toMatch(/No se pudo conectar/);
    actor.send({ type: 'pay.retryVoucher' });
    const output = await toPromise(actor);
    expect(output).toEqual({ message: 'Pago enviado: queda pendiente de revisión', registered: true });
    expect(pay).toHaveBeenCalledTimes(1);
    expect(upload).toHaveBeenCalledTimes(2);
    expect(upload).toHaveBeenLastCalledWith({ paymentId: 11, file: expect.any(File) });
  });

  it('ends without a message when closed before paying, and refuses a future date', async () => {
    const { actor, pay } = start(vi.fn());
    actor.send({ type: 'pay.changed', field: 'operation_date', value: '2026-11-28' });
    actor.send({ type: 'pay.submit' });
    expect(actor.getSnapshot().context.errors.operation_date).toBe('La fecha de la operación no puede ser futura');
    actor.send({ type: 'pay.countChanged', count: 5 });
    expect(actor.getSnapshot().context).toMatchObject({ count: 2, amount: 20_000 });
    // The form was changed: closing asks first (docs/decisions.md "Keyboard and focus").
    actor.send({ type: 'pay.close' });
    expect(actor.getSnapshot().matches({ flow: 'confirmingDiscard' })).toBe(true);
    actor.send({ type: 'pay.keepEditing' });
    expect(actor.getSnapshot().matches({ flow: 'editing' })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ count: 2, operationDate: '2026-11-28' });
    actor.send({ type: 'pay.close' });
    actor.send({ type: 'pay.discard' });
    expect(await toPromise(actor)).toEqual({ message: null, registered: false });
    expect(pay).not.toHaveBeenCalled();
  });

  it('closes at once when nothing was typed or chosen (docs/decisions.md "Keyboard and focus")', async () => {
    const { actor } = start(vi.fn());
    expect(actor.getSnapshot().context.dirty).toBe(false);
    actor.send({ type: 'pay.close' });
    expect(await toPromise(actor)).toEqual({ message: null, registered: false });
  });

  it('figures the amount on the statement of an earlier operation date, and sends that amount', async () => {
    // On 2026-11-20 the first instalment was already late with S/ 15.00 of fee.
    const earlier = {
      ...purchase,
      schedule: [{ ...instalment(1, '2026-11-01'), status: 'VENCIDA' as const, late_fee_due: 1_500 }, instalment(2, '2026-12-01')],
    } as PurchaseDetail;
    let release: (value: PurchaseDetail) => void = () => undefined;
    const loadStatement = vi.fn(() => new Promise<PurchaseDetail>((resolve) => (release = resolve)));
    const { actor, pay } = start(async () => payment, loadStatement);
    actor.send({ type: 'pay.changed', field: 'operation_number', value: '77' });
    actor.send({ type: 'pay.fileChosen', file: new File(['x'], 'c.png', { type: 'image/png' }) });
    actor.send({ type: 'pay.changed', field: 'operation_date', value: '2026-11-20' });
    expect(actor.getSnapshot().matches({ flow: 'refiguring' })).toBe(true);
    expect(loadStatement).toHaveBeenCalledWith({ saleId: 4, asOf: '2026-11-20' });
    // While the amount is being figured, nothing is sent.
    actor.send({ type: 'pay.submit' });
    expect(pay).not.toHaveBeenCalled();
    release(earlier);
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ flow: 'editing' })).toBe(true));
    expect(actor.getSnapshot().context).toMatchObject({ statementDate: '2026-11-20', amount: 11_500 });
    actor.send({ type: 'pay.submit' });
    await vi.waitFor(() => expect(pay).toHaveBeenCalled());
    expect(pay.mock.calls[0]![0].body).toMatchObject({ amount: 11_500, operation_date: '2026-11-20', instalment_ids: [1] });
  });

  it('refuses a date before the sale without asking the server', () => {
    const loadStatement = vi.fn(async () => purchase);
    const { actor } = start(vi.fn(), loadStatement);
    actor.send({ type: 'pay.changed', field: 'operation_date', value: '2025-12-31' });
    actor.send({ type: 'pay.submit' });
    expect(loadStatement).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context.errors.operation_date).toBe(
      'La fecha de la operación no puede ser anterior a la de la venta o la separación (01/01/2026)',
    );
  });
});
