import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../../src/api/client';
import { annulSaleMachine, PENALTY_INVALID } from '../../../src/machines/comercio/annul-sale.machine';
import { SALE_MESSAGES, type AnnulSaleRequest, type Sale, type SaleAnnulment } from '../../../src/schemas/comercio/sales';

/** "Anular venta" (src/machines/comercio/annul-sale.machine.ts; docs/domain.md "Annulling a sale"). */

const sale = { id: 3, number: 'V-000003', currency: 'PEN', lot: { id: 9, code: 'MZ A - LT 9' }, version: 4 } as unknown as Sale;
const paid = (cents: number): SaleAnnulment => ({
  sale_id: 3,
  currency: 'PEN',
  paid: cents,
  credit_targets: [{ id: 8, number: 'V-000008', lot_code: 'MZ B - LT 2', subdivision_name: 'Los Viñedos', debt: 3_000_000 }],
});

function start(
  annulment: SaleAnnulment,
  run = vi.fn(async (_id: number, _body: AnnulSaleRequest) => ({ ...sale, status: 'ANULADA' }) as Sale),
) {
  const actor = createActor(
    annulSaleMachine.provide({
      actors: {
        loadAnnulment: fromPromise(async () => annulment),
        run: fromPromise(({ input }) => run(input.id, input.body)),
      },
    }),
  ).start();
  return { actor, run };
}

describe('annul sale machine', () => {
  it('nothing paid: the reason alone, as before', async () => {
    const { actor, run } = start(paid(0));
    const done = vi.fn();
    actor.on('done', done);
    actor.send({ type: 'reason.request', record: sale });
    await waitFor(actor, (s) => s.matches('asking'));
    actor.send({ type: 'reason.confirm' });
    expect(actor.getSnapshot().context.error).toBe(SALE_MESSAGES.reasonRequired);
    actor.send({ type: 'reason.changed', text: '  Desistimiento ' });
    actor.send({ type: 'reason.confirm' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(run).toHaveBeenCalledWith(3, { reason: 'Desistimiento', version: 4 });
    expect(done).toHaveBeenCalledTimes(1);
  });

  it('money paid: refund of paid − penalty; a bad or too large penalty stays on the question', async () => {
    const { actor, run } = start(paid(700_000));
    actor.send({ type: 'reason.request', record: sale });
    await waitFor(actor, (s) => s.matches('asking'));
    actor.send({ type: 'reason.changed', text: 'Desistimiento' });
    actor.send({ type: 'settlement.penalty', text: 'abc' });
    actor.send({ type: 'reason.confirm' });
    expect(actor.getSnapshot().context.error).toBe(PENALTY_INVALID);
    actor.send({ type: 'settlement.penalty', text: '7,000.01' });
    actor.send({ type: 'reason.confirm' });
    expect(actor.getSnapshot().context.error).toBe(SALE_MESSAGES.penaltyTooHigh);
    expect(run).not.toHaveBeenCalled();
    actor.send({ type: 'settlement.penalty', text: '700' });
    actor.send({ type: 'reason.confirm' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(run).toHaveBeenCalledWith(3, {
      reason: 'Desistimiento',
      version: 4,
      settlement: { mode: 'REEMBOLSO', penalty: 70_000, refund: 630_000 },
    });
  });

  it('credit: the target is required; the server’s refusal stays on the question with its message', async () => {
    const run = vi.fn(async (): Promise<Sale> => {
      throw new ApiError(422, SALE_MESSAGES.creditExceedsDebt);
    });
    const { actor } = start(paid(700_000), run);
    actor.send({ type: 'reason.request', record: sale });
    await waitFor(actor, (s) => s.matches('asking'));
    actor.send({ type: 'reason.changed', text: 'Desistimiento' });
    actor.send({ type: 'settlement.mode', mode: 'CREDITO' });
    actor.send({ type: 'reason.confirm' });
    expect(actor.getSnapshot().context.error).toBe(SALE_MESSAGES.targetRequired);
    actor.send({ type: 'settlement.target', id: 8 });
    actor.send({ type: 'reason.confirm' });
    await waitFor(actor, (s) => s.matches('asking') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe(SALE_MESSAGES.creditExceedsDebt);
    expect(run).toHaveBeenCalledWith(3, {
      reason: 'Desistimiento',
      version: 4,
      settlement: { mode: 'CREDITO', penalty: 0, target_sale_id: 8 },
    });
    // Something was typed: cancelling asks first (docs/decisions.md "Keyboard and focus").
    actor.send({ type: 'reason.cancel' });
    expect(actor.getSnapshot().matches('confirmingDiscard')).toBe(true);
    actor.send({ type: 'reason.discard' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ record: null, annulment: null, mode: 'REEMBOLSO', targetSaleId: null });
  });

  it('keeps the reason typed while what was paid loads', async () => {
    let resolve: (a: SaleAnnulment) => void = () => {};
    const actor = createActor(
      annulSaleMachine.provide({
        actors: { loadAnnulment: fromPromise(() => new Promise<SaleAnnulment>((r) => (resolve = r))) },
      }),
    ).start();
    actor.send({ type: 'reason.request', record: sale });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    actor.send({ type: 'reason.changed', text: 'Desistimiento' });
    resolve(paid(0));
    await waitFor(actor, (s) => s.matches('asking'));
    expect(actor.getSnapshot().context.reason).toBe('Desistimiento');
  });

  it('a failed load shows its message; cancel closes', async () => {
    const actor = createActor(
      annulSaleMachine.provide({
        actors: { loadAnnulment: fromPromise(async (): Promise<SaleAnnulment> => Promise.reject(new ApiError(404, 'No encontrado'))) },
      }),
    ).start();
    actor.send({ type: 'reason.request', record: sale });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe('No encontrado');
    actor.send({ type: 'reason.cancel' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
  });
});
