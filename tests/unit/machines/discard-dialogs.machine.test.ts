import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { provideQuoteForm } from '../../../src/machines/comercio/quote-form.machine';
import { provideReservationForm } from '../../../src/machines/comercio/reservation-form.machine';
import { reservationRequestMachine } from '../../../src/machines/comercio/reservation-request.machine';
import { annulSaleMachine } from '../../../src/machines/comercio/annul-sale.machine';
import { providePaymentForm } from '../../../src/machines/finanzas/payment-form.machine';
import { waiveLateFeeMachine } from '../../../src/machines/finanzas/waive-late-fee.machine';
import type { Sale, SaleAnnulment } from '../../../src/schemas/comercio/sales';
import type { InstalmentRow } from '../../../src/schemas/finanzas/instalments';

/**
 * docs/decisions.md "Keyboard and focus: every dialog with typed data": each dialog's machine keeps
 * a `dirty` flag; closing a changed form goes to `confirmingDiscard` ("¿Descartar los cambios?"),
 * where "Descartar" closes and "Seguir editando" goes back with what was typed; an untouched form
 * closes at once.
 */

const quoteLot = { id: 9, code: 'MZ A - LT 9', currency: 'PEN' as const, listPrice: 5_000_000 };

function quoteActor() {
  return createActor(
    provideQuoteForm({
      searchCustomers: vi.fn(async () => []),
      searchLots: vi.fn(async () => []),
      create: vi.fn(),
      changeStatus: vi.fn(),
      downloadPdf: vi.fn(),
      reportApiError: vi.fn(),
      toast: vi.fn(),
    }),
  ).start();
}

describe('quote form machine: closing with typed data', () => {
  it('an untouched form closes at once', () => {
    const actor = quoteActor();
    actor.send({ type: 'quote.open', lot: quoteLot, today: '2026-11-27' });
    expect(actor.getSnapshot().context.dirty).toBe(false);
    actor.send({ type: 'quote.close' });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
  });

  it('a changed form asks; "Seguir editando" keeps the values, "Descartar" closes and the next open is clean', () => {
    const actor = quoteActor();
    actor.send({ type: 'quote.open', lot: quoteLot, today: '2026-11-27' });
    actor.send({ type: 'quote.changed', values: { validDays: 3 } });
    actor.send({ type: 'quote.close' });
    expect(actor.getSnapshot().matches('confirmingDiscard')).toBe(true);
    actor.send({ type: 'quote.keepEditing' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(actor.getSnapshot().context.values.validDays).toBe(3);
    actor.send({ type: 'quote.close' });
    actor.send({ type: 'quote.discard' });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
    actor.send({ type: 'quote.open', lot: quoteLot, today: '2026-11-27' });
    expect(actor.getSnapshot().context.dirty).toBe(false);
  });
});

describe('reservation form machine: closing with typed data', () => {
  const start = () =>
    createActor(
      provideReservationForm({
        searchCustomers: vi.fn(async () => []),
        reserve: vi.fn(),
        lot: vi.fn(),
        reportApiError: vi.fn(),
        toast: vi.fn(),
      }),
    ).start();
  const lot = { id: 9, code: 'MZ A - LT 9', currency: 'PEN' as const };

  it('an untouched form closes at once', () => {
    const actor = start();
    actor.send({ type: 'reserve.open', lot });
    actor.send({ type: 'reserve.close' });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
  });

  it('a typed amount asks; "Seguir editando" keeps it, "Descartar" closes', () => {
    const actor = start();
    actor.send({ type: 'reserve.open', lot });
    actor.send({ type: 'reserve.amount', text: '500' });
    actor.send({ type: 'reserve.close' });
    expect(actor.getSnapshot().matches('confirmingDiscard')).toBe(true);
    actor.send({ type: 'reserve.keepEditing' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(actor.getSnapshot().context.amountText).toBe('500');
    actor.send({ type: 'reserve.close' });
    actor.send({ type: 'reserve.discard' });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
  });
});

describe('reservation request machine: closing with typed data', () => {
  const lot = { code: 'MZ B - LT 8', currency: 'PEN' as const, listPrice: 6_273_000 };

  it('an untouched request closes at once; a typed message asks, keeps it, then discards', () => {
    const actor = createActor(reservationRequestMachine).start();
    actor.send({ type: 'request.open', subdivisionKey: 'k3', lot, today: '2026-11-27' });
    actor.send({ type: 'request.close' });
    expect(actor.getSnapshot().matches('closed')).toBe(true);

    actor.send({ type: 'request.open', subdivisionKey: 'k3', lot, today: '2026-11-27' });
    actor.send({ type: 'request.changed', message: 'Llamar de tarde' });
    actor.send({ type: 'request.close' });
    expect(actor.getSnapshot().matches('confirmingDiscard')).toBe(true);
    actor.send({ type: 'request.keepEditing' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(actor.getSnapshot().context.message).toBe('Llamar de tarde');
    actor.send({ type: 'request.close' });
    actor.send({ type: 'request.discard' });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
    actor.send({ type: 'request.open', subdivisionKey: 'k3', lot, today: '2026-11-27' });
    expect(actor.getSnapshot().context).toMatchObject({ dirty: false, message: '' });
  });
});

describe('annul sale machine: cancelling with typed data', () => {
  const sale = { id: 3, number: 'V-000003', currency: 'PEN', lot: { id: 9, code: 'MZ A - LT 9' }, version: 4 } as unknown as Sale;
  const annulment: SaleAnnulment = { sale_id: 3, currency: 'PEN', paid: 0, credit_targets: [] };
  const start = () =>
    createActor(
      annulSaleMachine.provide({ actors: { loadAnnulment: fromPromise(async () => annulment), run: fromPromise(async () => sale) } }),
    ).start();

  it('an untouched question closes at once', async () => {
    const actor = start();
    actor.send({ type: 'reason.request', record: sale });
    await waitFor(actor, (s) => s.matches('asking'));
    actor.send({ type: 'reason.cancel' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
  });

  it('a typed reason asks; "Seguir editando" keeps it, "Descartar" closes and clears it', async () => {
    const actor = start();
    actor.send({ type: 'reason.request', record: sale });
    await waitFor(actor, (s) => s.matches('asking'));
    actor.send({ type: 'reason.changed', text: 'Desistimiento' });
    actor.send({ type: 'reason.cancel' });
    expect(actor.getSnapshot().matches('confirmingDiscard')).toBe(true);
    actor.send({ type: 'reason.keepEditing' });
    expect(actor.getSnapshot().matches('asking')).toBe(true);
    expect(actor.getSnapshot().context.reason).toBe('Desistimiento');
    actor.send({ type: 'reason.cancel' });
    actor.send({ type: 'reason.discard' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ reason: '', dirty: false, record: null });
  });

  it('a reason typed while what was paid loads: "Seguir editando" loads it again', async () => {
    let release!: (a: SaleAnnulment) => void;
    const actor = createActor(
      annulSaleMachine.provide({
        actors: {
          loadAnnulment: fromPromise(() => new Promise<SaleAnnulment>((resolve) => (release = resolve))),
          run: fromPromise(async () => sale),
        },
      }),
    ).start();
    actor.send({ type: 'reason.request', record: sale });
    actor.send({ type: 'reason.changed', text: 'Desistimiento' });
    actor.send({ type: 'reason.cancel' });
    expect(actor.getSnapshot().matches('confirmingDiscard')).toBe(true);
    actor.send({ type: 'reason.keepEditing' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    release(annulment);
    await waitFor(actor, (s) => s.matches('asking'));
    expect(actor.getSnapshot().context.reason).toBe('Desistimiento');
  });
});

describe('payment form machine ("Registrar pago"): closing with typed data', () => {
  const start = () =>
    createActor(
      providePaymentForm({
        searchSales: vi.fn(async () => []),
        searchReservations: vi.fn(async () => []),
        loadOptions: vi.fn(async () => ({ bankAccounts: [], wallets: [] })),
        create: vi.fn(),
        uploadVoucher: vi.fn(),
        reportApiError: vi.fn(),
        done: vi.fn(),
      }),
      { input: { today: '2026-11-27' } },
    ).start();

  it('an untouched form closes at once', () => {
    const actor = start();
    actor.send({ type: 'form.open' });
    actor.send({ type: 'form.close' });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
  });

  it('a typed operation number asks; "Seguir editando" keeps it, "Descartar" closes and the next open is blank', () => {
    const actor = start();
    actor.send({ type: 'form.open' });
    actor.send({ type: 'form.operationNumber', text: 'OP-123' });
    actor.send({ type: 'form.close' });
    expect(actor.getSnapshot().matches({ open: { form: 'confirmingDiscard' } })).toBe(true);
    actor.send({ type: 'form.keepEditing' });
    expect(actor.getSnapshot().matches({ open: { form: 'editing' } })).toBe(true);
    expect(actor.getSnapshot().context.operationNumber).toBe('OP-123');
    actor.send({ type: 'form.close' });
    actor.send({ type: 'form.discard' });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
    actor.send({ type: 'form.open' });
    expect(actor.getSnapshot().context).toMatchObject({ dirty: false, operationNumber: '' });
  });
});

describe('waive late fee machine ("Condonar mora"): closing with typed data', () => {
  const row = { id: 5, late_fee_due: 1500, currency: 'PEN' } as unknown as InstalmentRow;

  it('an untouched form (the amount prefilled) closes at once', () => {
    const actor = createActor(waiveLateFeeMachine).start();
    actor.send({ type: 'waive.open', row });
    actor.send({ type: 'waive.close' });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
  });

  it('a typed reason asks; "Seguir editando" keeps it, "Descartar" closes', () => {
    const actor = createActor(waiveLateFeeMachine).start();
    actor.send({ type: 'waive.open', row });
    actor.send({ type: 'waive.changed', field: 'reason', value: 'Acuerdo con el cliente' });
    actor.send({ type: 'waive.close' });
    expect(actor.getSnapshot().matches('confirmingDiscard')).toBe(true);
    actor.send({ type: 'waive.keepEditing' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(actor.getSnapshot().context.reason).toBe('Acuerdo con el cliente');
    actor.send({ type: 'waive.close' });
    actor.send({ type: 'waive.discard' });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ row: null, dirty: false });
  });
});
