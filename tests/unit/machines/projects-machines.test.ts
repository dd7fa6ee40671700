/**
 * Proyectos machines with fake actors: lot status change (only allowed targets, reason required,
 * 409 / 422 keep the dialog open), bulk price (preview before apply; any edit drops the preview),
 * and the "Ver todos" window (pages of 100 on demand).
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, setup, waitFor } from 'xstate';
import { ApiError } from '../../../src/api/client';
import { createLotStatusMachines, lotStatusMachine, validateStatusChange } from '../../../src/machines/proyectos/lot-status.machine';
import { provideQuoteForm } from '../../../src/machines/comercio/quote-form.machine';
import { provideReservationForm } from '../../../src/machines/comercio/reservation-form.machine';
import { createProjectMapPageMachine } from '../../../src/machines/mapas/project-map-page.machine';
import type { LotMapMachine } from '../../../src/machines/mapas/lot-map.machine';
import { bulkPriceBody, bulkPriceMachine } from '../../../src/machines/proyectos/bulk-price.machine';
import { lotsWindowMachine, missingPage, rowAt } from '../../../src/machines/proyectos/lots-window.machine';
import type { PricePreview } from '../../../src/api/proyectos/lots';
import { OVERSCAN, ROW_HEIGHT, visibleRange } from '../../../src/views/proyectos/LotsVirtualTable';
import type { Lot } from '../../../src/schemas/proyectos/projects';

const lot: Lot = {
  id: 7,
  subdivision_id: 1,
  block_id: 1,
  block: 'A',
  stage: null,
  number: '1',
  code: 'MZ A - LT 1',
  area_m2: 120,
  perimeter_m: 46,
  front_m: 8,
  front_neighbour: 'Calle 1',
  back_m: 8,
  back_neighbour: null,
  right_m: 15,
  right_neighbour: null,
  left_m: 15,
  left_neighbour: null,
  currency: 'PEN',
  price_per_m2: 25000,
  list_price: 3_000_000,
  list_price_reason: null,
  is_corner: false,
  facing_park: false,
  land_use: 'VIVIENDA',
  status: 'DISPONIBLE',
  has_polygon: true,
  registry_entry: null,
  notes: null,
  updated_at: '2026-11-20T15:00:00Z',
};

function statusActor(changeStatus: (input: { id: number; body: unknown }) => Promise<Lot>) {
  const changed = vi.fn();
  const reportApiError = vi.fn();
  const machine = lotStatusMachine.provide({
    actors: { changeStatus: fromPromise(async ({ input }) => ({ lot: await changeStatus(input), pending: null })) },
    actions: { changed: (_, r) => changed(r.lot), reportApiError: (_, e) => reportApiError(e) },
  });
  const actor = createActor(machine).start();
  return { actor, changed, reportApiError };
}

describe('lotStatus machine', () => {
  it('accepts only the targets of the state chart', () => {
    expect(validateStatusChange(lot, 'VENDIDO', '')).toMatchObject({ ok: false, targetError: 'Elija el nuevo estado' });
    expect(validateStatusChange(lot, 'CANJE', 'Permuta')).toEqual({ ok: true, body: { status: 'CANJE', reason: 'Permuta' } });
  });

  it('a hold (Separado, Bloqueado, Reserva comercial) asks for its end date (docs/domain.md "Lot holds")', () => {
    expect(validateStatusChange(lot, 'SEPARADO', '')).toMatchObject({
      ok: false,
      untilError: 'Indique hasta qué fecha se mantiene el lote',
    });
    expect(validateStatusChange(lot, 'SEPARADO', '', '2026-03-20')).toEqual({
      ok: true,
      body: { status: 'SEPARADO', reason: null, until: '2026-03-20' },
    });
  });

  it('requires a reason for Bloqueado and sends it trimmed', async () => {
    const call = vi.fn(async () => ({ ...lot, status: 'BLOQUEADO' as const }));
    const { actor, changed } = statusActor(call);
    actor.send({ type: 'status.open', lot });
    actor.send({ type: 'status.targetChanged', status: 'BLOQUEADO' });
    actor.send({ type: 'status.submit' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.reasonError).toBe('Indique el motivo del cambio de estado');
    expect(call).not.toHaveBeenCalled();
    actor.send({ type: 'status.reasonChanged', reason: '  Observación municipal ' });
    actor.send({ type: 'status.untilChanged', until: '2026-03-20' });
    actor.send({ type: 'status.submit' });
    await waitFor(actor, (s) => s.matches('closed'));
    expect(call).toHaveBeenCalledWith({ id: 7, body: { status: 'BLOQUEADO', reason: 'Observación municipal', until: '2026-03-20' } });
    expect(changed).toHaveBeenCalledWith(expect.objectContaining({ status: 'BLOQUEADO' }));
  });

  it('keeps the dialog open with a 409 as the form message and a 422 on the reason', async () => {
    const call = vi
      .fn<(input: { id: number; body: unknown }) => Promise<Lot>>()
      .mockRejectedValueOnce(new ApiError(409, 'El lote ya no está Disponible'))
      .mockRejectedValueOnce(new ApiError(422, 'Datos no válidos', { reason: ['Motivo demasiado corto'] }));
    const { actor, changed } = statusActor(call);
    actor.send({ type: 'status.open', lot });
    actor.send({ type: 'status.targetChanged', status: 'SEPARADO' });
    actor.send({ type: 'status.untilChanged', until: '2026-03-20' });
    actor.send({ type: 'status.submit' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.formError !== null);
    expect(actor.getSnapshot().context.formError).toBe('El lote ya no está Disponible');
    actor.send({ type: 'status.submit' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.reasonError !== null);
    expect(actor.getSnapshot().context).toMatchObject({ reasonError: 'Motivo demasiado corto', formError: null });
    expect(changed).not.toHaveBeenCalled();
  });

  it('preselects the only target (Separado → … has two; Vendido → Disponible has one)', () => {
    const { actor } = statusActor(async () => lot);
    actor.send({ type: 'status.open', lot: { ...lot, status: 'VENDIDO' } });
    expect(actor.getSnapshot().context.target).toBe('DISPONIBLE');
  });

  it('a change emits `changed` with the lot and keeps the provided toast; only session errors are reported', async () => {
    const toaster = { show: vi.fn() };
    const reportApiError = vi.fn();
    const lotsApi = {
      changeStatus: vi
        .fn()
        .mockRejectedValueOnce(new ApiError(409, 'No permitido'))
        .mockResolvedValueOnce({ lot: { ...lot, status: 'SEPARADO' }, pending: null })
        .mockResolvedValueOnce({
          lot,
          pending: 'Solicitud enviada: el cambio de estado queda pendiente de la aprobación de un supervisor',
        }),
      statusHistory: vi.fn(),
    };
    const { status } = createLotStatusMachines({ lotsApi, reportApiError, toaster });
    const onChanged = vi.fn();
    const actor = createActor(status).start();
    actor.on('changed', ({ lot: changed }) => onChanged(changed));
    actor.send({ type: 'status.open', lot });
    actor.send({ type: 'status.targetChanged', status: 'SEPARADO' });
    actor.send({ type: 'status.untilChanged', until: '2026-03-20' });
    actor.send({ type: 'status.submit' });
    await waitFor(actor, (s) => s.context.formError !== null);
    expect(reportApiError).not.toHaveBeenCalled();
    actor.send({ type: 'status.submit' });
    await waitFor(actor, (s) => s.matches('closed'));
    expect(onChanged).toHaveBeenCalledWith(expect.objectContaining({ status: 'SEPARADO' }));
    expect(toaster.show).toHaveBeenCalledWith(expect.objectContaining({ summary: 'Estado actualizado' }));
    // A hold waiting for a supervisor (202): the toast says so, the lot is as it was.
    actor.send({ type: 'status.open', lot });
    actor.send({ type: 'status.targetChanged', status: 'SEPARADO' });
    actor.send({ type: 'status.untilChanged', until: '2026-03-20' });
    actor.send({ type: 'status.submit' });
    await waitFor(actor, (s) => s.matches('closed'));
    expect(toaster.show).toHaveBeenLastCalledWith(expect.objectContaining({ summary: 'Solicitud enviada' }));
    expect(onChanged).toHaveBeenLastCalledWith(expect.objectContaining({ status: lot.status }));
  });
});

describe('projectMapPage machine (Mapa del proyecto)', () => {
  it('spawns the map with its input and tells it of a lot whose status the dialog changed', async () => {
    const mapEvents: unknown[] = [];
    const mapInputs: unknown[] = [];
    // A stand-in for the map: records its input and the events it receives.
    const map = setup({}).createMachine({
      context: ({ input }) => {
        mapInputs.push(input);
        return {};
      },
      on: { '*': { actions: ({ event }) => mapEvents.push(event) } },
    }) as unknown as LotMapMachine;
    const lotsApi = {
      changeStatus: vi.fn(async () => ({ lot: { ...lot, status: 'SEPARADO' as const }, pending: null })),
      statusHistory: vi.fn(),
    };
    const { status } = createLotStatusMachines({ lotsApi, reportApiError: vi.fn() });
    const reservation = provideReservationForm({
      searchCustomers: vi.fn(async () => []),
      reserve: vi.fn(),
      lot: vi.fn(),
      reportApiError: vi.fn(),
      toast: vi.fn(),
    });
    const quote = provideQuoteForm({
      searchCustomers: vi.fn(async () => []),
      searchLots: vi.fn(async () => []),
      create: vi.fn(),
      changeStatus: vi.fn(),
      downloadPdf: vi.fn(),
      reportApiError: vi.fn(),
      toast: vi.fn(),
    });
    const page = createActor(createProjectMapPageMachine({ map, status, reservation, quote }), {
      input: { key: 'k1', source: 'staff', details: true },
    }).start();
    expect(mapInputs).toEqual([{ key: 'k1', source: 'staff', details: true }]);
    const dialog = page.getSnapshot().context.status;
    dialog.send({ type: 'status.open', lot });
    dialog.send({ type: 'status.targetChanged', status: 'SEPARADO' });
    dialog.send({ type: 'status.untilChanged', until: '2026-03-20' });
    dialog.send({ type: 'status.submit' });
    await waitFor(dialog, (s) => s.matches('closed'));
    expect(mapEvents).toEqual([{ type: 'map.lotChanged', lot: expect.objectContaining({ id: 7, status: 'SEPARADO' }) }]);
  });
});

const preview: PricePreview = { count: 2, currency: 'PEN', total_before: 6_000_000, total_after: 6_600_000, rows: [] };

function bulkActor() {
  const previewCall = vi.fn(async (_input: unknown) => preview);
  const applyCall = vi.fn(async (_input: unknown) => ({ updated: 2 }));
  const applied = vi.fn();
  const machine = bulkPriceMachine.provide({
    actors: { preview: fromPromise(({ input }) => previewCall(input)), apply: fromPromise(({ input }) => applyCall(input)) },
    actions: { applied: (_, n) => applied(n) },
  });
  const actor = createActor(machine, { input: { subdivisionKey: 'k1' } }).start();
  return { actor, previewCall, applyCall, applied };
}

describe('bulkPrice machine', () => {
  it('builds the body in céntimos and refuses an empty selection or reason', () => {
    const form = { blocks: ['A'], statuses: [], lotIds: [], kind: 'SET_PRICE_PER_M2' as const, value: '275.50', reason: 'Nueva lista' };
    expect(bulkPriceBody(form)).toEqual({
      ok: true,
      body: { selection: { blocks: ['A'] }, change: { kind: 'SET_PRICE_PER_M2', price_per_m2: 27550 }, reason: 'Nueva lista' },
    });
    expect(bulkPriceBody({ ...form, kind: 'AMOUNT_PER_M2', value: '-10' })).toMatchObject({
      ok: true,
      body: { change: { amount_per_m2: -1000 } },
    });
    expect(bulkPriceBody({ ...form, blocks: [], reason: '' })).toMatchObject({
      ok: false,
      errors: { selection: 'Elija manzanas, estados o lotes', reason: expect.any(String) },
    });
  });

  it('cannot apply before a preview; any edit drops the preview', async () => {
    const { actor, previewCall, applyCall, applied } = bulkActor();
    actor.send({ type: 'bulk.open' });
    actor.send({ type: 'bulk.apply' });
    expect(applyCall).not.toHaveBeenCalled();
    actor.send({ type: 'bulk.statusesChanged', statuses: ['DISPONIBLE'] });
    actor.send({ type: 'bulk.kindChanged', kind: 'PERCENT' });
    actor.send({ type: 'bulk.valueChanged', value: '10' });
    actor.send({ type: 'bulk.reasonChanged', reason: 'Alza anual' });
    actor.send({ type: 'bulk.preview' });
    await waitFor(actor, (s) => s.matches({ open: 'previewed' }));
    expect(actor.getSnapshot().context.preview).toEqual(preview);
    actor.send({ type: 'bulk.valueChanged', value: '12' });
    expect(actor.getSnapshot().matches({ open: 'editing' })).toBe(true);
    expect(actor.getSnapshot().context.preview).toBeNull();
    actor.send({ type: 'bulk.apply' });
    expect(applyCall).not.toHaveBeenCalled();
    actor.send({ type: 'bulk.preview' });
    await waitFor(actor, (s) => s.matches({ open: 'previewed' }));
    actor.send({ type: 'bulk.apply' });
    await waitFor(actor, (s) => s.matches('closed'));
    expect(previewCall).toHaveBeenCalledTimes(2);
    expect(applyCall).toHaveBeenCalledWith({
      key: 'k1',
      body: { selection: { statuses: ['DISPONIBLE'] }, change: { kind: 'PERCENT', percent: 12 }, reason: 'Alza anual' },
    });
    expect(applied).toHaveBeenCalledWith(2);
  });
});

describe('lotsWindow machine', () => {
  const page = (n: number, size = 100) => Array.from({ length: size }, (_, i) => ({ ...lot, id: (n - 1) * 100 + i + 1 }));

  it('loads the first page, then only the pages of the rows shown', async () => {
    const fetchPage = vi.fn(async ({ query }: { query: { page: number } }) => ({ data: page(query.page), meta: { total: 5000 } }));
    const machine = lotsWindowMachine.provide({ actors: { fetchPage: fromPromise(({ input }) => fetchPage(input)) } });
    const query = { page: 1, per_page: 50, filters: { status: 'DISPONIBLE' } };
    const actor = createActor(machine, { input: { key: 'k', query } }).start();
    expect(actor.getSnapshot().value).toBe('dormant');
    expect(fetchPage).not.toHaveBeenCalled();
    actor.send({ type: 'window.reset', query });
    await waitFor(actor, (s) => s.matches('idle') && s.context.total !== null);
    expect(fetchPage).toHaveBeenCalledTimes(1);
    expect(fetchPage.mock.calls[0]![0]).toMatchObject({ key: 'k', query: { page: 1, per_page: 100, filters: { status: 'DISPONIBLE' } } });
    actor.send({ type: 'window.need', from: 2450, to: 2480 });
    await waitFor(actor, (s) => s.matches('idle') && Boolean(s.context.pages[25]));
    expect(fetchPage.mock.calls.map((c) => c[0].query.page)).toEqual([1, 25]);
    expect(rowAt(actor.getSnapshot().context.pages, 2450)?.id).toBe(2451);
    expect(rowAt(actor.getSnapshot().context.pages, 300)).toBeUndefined();
    expect(missingPage({ pages: {}, total: 120, wanted: { from: 0, to: 400 } })).toBe(1);
    expect(missingPage({ pages: { 1: [], 2: [] }, total: 120, wanted: { from: 0, to: 400 } })).toBeNull();
  });
});

describe('visibleRange (Ver todos)', () => {
  it('renders the rows in view plus the overscan, clamped to the list', () => {
    expect(visibleRange(0, 640, 5000)).toEqual({ from: 0, to: 640 / ROW_HEIGHT + OVERSCAN });
    expect(visibleRange(2450 * ROW_HEIGHT, 640, 5000)).toEqual({ from: 2450 - OVERSCAN, to: 2450 + 640 / ROW_HEIGHT + OVERSCAN });
    expect(visibleRange(4995 * ROW_HEIGHT, 640, 5000).to).toBe(4999);
    expect(visibleRange(0, 640, 0)).toEqual({ from: 0, to: 0 });
  });
});
