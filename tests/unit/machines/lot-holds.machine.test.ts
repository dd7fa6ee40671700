import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { ApiError } from '../../../src/api/client';
import type { LotsApi } from '../../../src/api/proyectos/lots';
import { createLotHoldsMachine } from '../../../src/machines/proyectos/lot-holds.machine';
import { LOT_HOLD_MESSAGES, type LotHold } from '../../../src/schemas/proyectos/lot-holds';

/**
 * "Solicitudes de bloqueo" (docs/domain.md "Lot holds"): the machine loads the subdivision's
 * pending requests, approves or rejects one (with the rejection's optional reason), refreshes the
 * list after a decision and keeps the server's Spanish message when a decision is refused.
 */

const hold = (over: Partial<LotHold> = {}): LotHold => ({
  id: 5,
  lot: { id: 8, code: 'MZ B - LT 8', subdivision_id: 3 },
  status: 'BLOQUEADO',
  state: 'PENDIENTE',
  reason: 'Observación municipal',
  until: '2026-12-15',
  requested_by: { id: 2, name: 'Ana Asesora' },
  requested_at: '2026-11-28T15:00:00Z',
  decided_by: null,
  decided_at: null,
  decision_reason: null,
  ...over,
});

function start(opts: { canApprove?: boolean; decideHold?: LotsApi['decideHold'] } = {}) {
  const page = (data: LotHold[]) => ({ data, meta: { page: 1, per_page: 100, total: data.length } });
  const holds = vi.fn<LotsApi['holds']>(async () => page([hold()]));
  const decideHold = vi.fn<LotsApi['decideHold']>(
    opts.decideHold ?? (async (id, approve, reason) => hold({ id, state: approve ? 'APROBADA' : 'RECHAZADA', decision_reason: reason })),
  );
  const toaster = { show: vi.fn() };
  const reportApiError = vi.fn();
  const machine = createLotHoldsMachine({ lotsApi: { holds, decideHold }, reportApiError, toaster });
  const actor = createActor(machine, { input: { subdivisionId: 3, canApprove: opts.canApprove ?? true } }).start();
  return { actor, holds, decideHold, toaster, reportApiError, page };
}

describe('lotHolds machine', () => {
  it('loads the pending requests of the subdivision, and another state on request', async () => {
    const { actor, holds } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(holds).toHaveBeenCalledWith({ state: 'PENDIENTE', per_page: 100, subdivision_id: 3 });
    expect(actor.getSnapshot().context.holds.map((h) => h.lot.code)).toEqual(['MZ B - LT 8']);
    actor.send({ type: 'holds.stateChanged', state: 'RECHAZADA' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(holds).toHaveBeenLastCalledWith({ state: 'RECHAZADA', per_page: 100, subdivision_id: 3 });
    expect(actor.getSnapshot().context.state).toBe('RECHAZADA');
  });

  it('approves a request, toasts it and loads the list again', async () => {
    const { actor, holds, decideHold, toaster } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    holds.mockResolvedValueOnce({ data: [], meta: { page: 1, per_page: 100, total: 0 } });
    actor.send({ type: 'holds.approve', id: 5 });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(decideHold).toHaveBeenCalledWith(5, true, null);
    expect(holds).toHaveBeenCalledTimes(2);
    expect(actor.getSnapshot().context.holds).toEqual([]);
    expect(toaster.show).toHaveBeenCalledWith({ severity: 'success', summary: 'Solicitud aprobada', detail: 'MZ B - LT 8' });
  });

  it('rejects with the typed reason through its dialog; cancelling sends nothing', async () => {
    const { actor, decideHold, toaster } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'holds.reject', hold: hold() });
    expect(actor.getSnapshot().matches({ rejecting: 'editing' })).toBe(true);
    actor.send({ type: 'holds.cancel' });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(actor.getSnapshot().context.rejecting).toBeNull();

    actor.send({ type: 'holds.reject', hold: hold() });
    actor.send({ type: 'holds.reasonChanged', reason: '  Lote comprometido con otra venta  ' });
    actor.send({ type: 'holds.confirmReject' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(decideHold).toHaveBeenCalledTimes(1);
    expect(decideHold).toHaveBeenCalledWith(5, false, 'Lote comprometido con otra venta');
    expect(toaster.show).toHaveBeenCalledWith({ severity: 'success', summary: 'Solicitud rechazada', detail: 'MZ B - LT 8' });
    expect(actor.getSnapshot().context.rejecting).toBeNull();
  });

  it('a refused approval keeps the Spanish message and refreshes the list; a refused rejection stays in its dialog', async () => {
    const refusal = new ApiError(409, LOT_HOLD_MESSAGES.lotMoved);
    const { actor, holds, reportApiError } = start({ decideHold: async () => Promise.reject(refusal) });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'holds.approve', id: 5 });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.actionError).toBe(LOT_HOLD_MESSAGES.lotMoved);
    expect(holds).toHaveBeenCalledTimes(2);
    // A 409 is the screen's business, not the session's.
    expect(reportApiError).not.toHaveBeenCalled();

    actor.send({ type: 'holds.reject', hold: hold() });
    actor.send({ type: 'holds.confirmReject' });
    await waitFor(actor, (s) => s.matches({ rejecting: 'editing' }) && s.context.rejectError !== null);
    expect(actor.getSnapshot().context.rejectError).toBe(LOT_HOLD_MESSAGES.lotMoved);
  });

  it('without "Aprobar bloqueos de lotes" it only lists: approve and reject are ignored', async () => {
    const { actor, decideHold } = start({ canApprove: false });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'holds.approve', id: 5 });
    actor.send({ type: 'holds.reject', hold: hold() });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(decideHold).not.toHaveBeenCalled();
  });

  it('a failed load says why and retries', async () => {
    const { actor, holds } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    holds.mockRejectedValueOnce(new ApiError(0, 'No se pudo conectar con el servidor. Inténtelo nuevamente.'));
    actor.send({ type: 'holds.reload' });
    await waitFor(actor, (s) => s.matches('failure'));
    expect(actor.getSnapshot().context.error).toBe('No se pudo conectar con el servidor. Inténtelo nuevamente.');
    actor.send({ type: 'holds.retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(holds).toHaveBeenCalledTimes(3);
  });
});
