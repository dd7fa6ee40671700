import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../../src/api/client';
import { reservationRequestMachine, simulateRequest } from '../../../src/machines/comercio/reservation-request.machine';
import type { ReservationRequest } from '../../../src/schemas/comercio/portal-sales';

/** "Solicitar separación" of a customer's map (src/machines/comercio/reservation-request.machine.ts). */

const lot = { code: 'MZ B - LT 8', currency: 'PEN' as const, listPrice: 6_273_000 };

describe('reservation request machine', () => {
  it('simulates without interest as the terms change, sends the request and shows the answer', async () => {
    const submit = vi.fn(async (_body: ReservationRequest) => 'Solicitud enviada');
    const actor = createActor(
      reservationRequestMachine.provide({ actors: { submit: fromPromise(({ input }) => submit(input.body)) } }),
    ).start();
    actor.send({ type: 'request.open', subdivisionKey: 'k3', lot, today: '2026-11-27' });
    expect(actor.getSnapshot().context.plan).toMatchObject({ downPaymentCents: 1_254_600, financedCents: 5_018_400 });
    expect(actor.getSnapshot().context.plan!.schedule).toHaveLength(24);
    expect(actor.getSnapshot().context.plan!.schedule[0]!.dueDate.toString()).toBe('2026-12-01');
    actor.send({ type: 'request.changed', instalments: 36, message: '  Llamar de tarde  ' });
    expect(actor.getSnapshot().context.plan!.schedule).toHaveLength(36);
    actor.send({ type: 'request.submit' });
    await waitFor(actor, (s) => s.matches('sent'));
    expect(submit).toHaveBeenCalledWith({
      subdivision_key: 'k3',
      lot_code: 'MZ B - LT 8',
      instalments: 36,
      down_payment_percent: 20,
      message: 'Llamar de tarde',
    });
    expect(actor.getSnapshot().context.sentMessage).toBe('Solicitud enviada');
  });

  it('keeps the dialog open with the server refusal; no simulation without a public price', async () => {
    const actor = createActor(
      reservationRequestMachine.provide({
        actors: {
          submit: fromPromise(async () => Promise.reject(new ApiError(409, 'Ya solicitó este lote: un asesor se comunicará con usted'))),
        },
      }),
    ).start();
    actor.send({ type: 'request.open', subdivisionKey: 'k3', lot: { ...lot, listPrice: null }, today: '2026-11-27' });
    expect(actor.getSnapshot().context.plan).toBeNull();
    actor.send({ type: 'request.submit' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Ya solicitó este lote: un asesor se comunicará con usted');
  });

  it('a cash purchase is the whole price down', () => {
    expect(simulateRequest({ lot, downPercent: 20, instalments: 0, today: '2026-11-27' })).toMatchObject({
      downPaymentCents: 6_273_000,
      schedule: [],
    });
  });
});
