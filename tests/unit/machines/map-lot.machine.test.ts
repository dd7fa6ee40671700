/**
 * The lot map machine (src/machines/mapas/lot-map.machine.ts) provided through provideLotMap with
 * a fake api: loading → ready | failure (404 → notFound), filters, hover, search → selection and
 * zoom target, a status change updating the lot (colour source) and the counts, the staff plan
 * object URL revoked when the map stops, and the pure helpers (search parsing, heat ramp).
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { ApiError } from '../../../src/api/client';
import { provideLotMap } from '../../../src/machines/mapas/maps.actors';
import { countByStatus, findLot, heatColor, parseLotQuery, passesFilters, metricRange } from '../../../src/machines/mapas/map-geometry';
import type { Lot, LotMap, PublicLotMap } from '../../../src/schemas/proyectos/projects';

const SUB = {
  key: 'k1',
  code: 'LV-01',
  name: 'Los Viñedos',
  currency: 'PEN' as const,
  coordinate_system: 'PLAN' as const,
  plan_url: null,
  plan_width: null,
  plan_height: null,
  bounds: [0, 0, 26, 40] as [number, number, number, number],
};
const STAFF: LotMap = {
  subdivision: SUB,
  lots: [
    {
      id: 1,
      code: 'MZ A - LT 1',
      block: 'A',
      number: '1',
      area_m2: 120,
      price_per_m2: 25000,
      list_price: 3000000,
      status: 'DISPONIBLE',
      polygon: [
        [0, 0],
        [8, 0],
        [8, 15],
        [0, 15],
      ],
    },
    {
      id: 2,
      code: 'MZ A - LT 12',
      block: 'A',
      number: '12',
      area_m2: 120,
      price_per_m2: 25000,
      list_price: 3000000,
      status: 'SEPARADO',
      polygon: [
        [8, 0],
        [16, 0],
        [16, 15],
        [8, 15],
      ],
    },
    {
      id: 3,
      code: 'MZ B - LT 1',
      block: 'B',
      number: '1',
      area_m2: 150,
      price_per_m2: 30000,
      list_price: 4500000,
      status: 'BLOQUEADO',
      polygon: [
        [0, 25],
        [10, 25],
        [10, 40],
        [0, 40],
      ],
    },
  ],
};
const LOT_2: Lot = {
  id: 2,
  subdivision_id: 1,
  block_id: 1,
  block: 'A',
  stage: null,
  number: '12',
  code: 'MZ A - LT 12',
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
  list_price: 3000000,
  list_price_reason: null,
  is_corner: false,
  facing_park: false,
  land_use: 'VIVIENDA',
  status: 'SEPARADO',
  has_polygon: true,
  registry_entry: null,
  notes: null,
  updated_at: '2026-11-20T15:00:00Z',
};

function start(
  overrides: Partial<{ staffMap: () => Promise<LotMap>; publicMap: () => Promise<PublicLotMap>; planBlob: () => Promise<Blob> }> = {},
  input: { source?: 'staff' | 'public'; details?: boolean; initialLot?: string | null } = {},
) {
  const api = {
    staffMap: vi.fn(overrides.staffMap ?? (() => Promise.resolve(STAFF))),
    publicMap: vi.fn(overrides.publicMap ?? (() => Promise.reject(new ApiError(404, 'No encontrado')))),
    planBlob: vi.fn(overrides.planBlob ?? (() => Promise.resolve(new Blob(['png'])))),
    lot: vi.fn(() => Promise.resolve(LOT_2)),
  };
  const urls = { create: vi.fn(() => 'blob:plan-1'), revoke: vi.fn() };
  const reportApiError = vi.fn();
  const actor = createActor(provideLotMap(api, { reportApiError, objectUrls: urls }), {
    input: { key: 'k1', source: input.source ?? 'staff', details: input.details ?? true, initialLot: input.initialLot },
  }).start();
  return { actor, api, urls, reportApiError };
}

describe('lot map machine', () => {
  it('loads the staff map, normalises the lots and focuses on their bounds', async () => {
    const { actor, api } = start();
    const s = await waitFor(actor, (x) => x.matches('ready'));
    expect(api.staffMap).toHaveBeenCalledWith('k1');
    expect(s.context.lots.map((l) => l.key)).toEqual(['1', '2', '3']);
    expect(s.context.focus).toMatchObject({ bounds: [0, 0, 16, 40], pad: 0 });
  });

  it('keeps a heat metric picked while the map is still loading', async () => {
    const { actor } = start();
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    actor.send({ type: 'map.metric', metric: 'SALE_DATE' });
    const s = await waitFor(actor, (x) => x.matches('ready'));
    expect(s.context.metric).toBe('SALE_DATE');
  });

  it('goes to failure with notFound on a 404 of the public map, without telling the session', async () => {
    const { actor, reportApiError } = start({}, { source: 'public' });
    const s = await waitFor(actor, (x) => x.matches('failure'));
    expect(s.context.notFound).toBe(true);
    expect(reportApiError).not.toHaveBeenCalled();
  });

  it('keeps filters and hover in context', async () => {
    const { actor } = start();
    await waitFor(actor, (x) => x.matches('ready'));
    actor.send({ type: 'map.filterBlocks', blocks: ['A'] });
    actor.send({ type: 'map.filterStatuses', statuses: ['SEPARADO'] });
    actor.send({ type: 'map.filterPrice', min: 2000000, max: null });
    actor.send({ type: 'map.hover', key: '2' });
    const { filters, hoveredKey, lots } = actor.getSnapshot().context;
    expect(hoveredKey).toBe('2');
    expect(lots.filter((l) => passesFilters(l, filters)).map((l) => l.code)).toEqual(['MZ A - LT 12']);
    actor.send({ type: 'map.filterPrice', min: null, max: 2000000 });
    expect(actor.getSnapshot().context.lots.filter((l) => passesFilters(l, actor.getSnapshot().context.filters))).toEqual([]);
    actor.send({ type: 'map.clearFilters' });
    expect(actor.getSnapshot().context.lots.filter((l) => passesFilters(l, actor.getSnapshot().context.filters))).toHaveLength(3);
  });

  it('reads the typed price range as soles → céntimos, keeping the bound while the text is not an amount', async () => {
    const { actor } = start();
    await waitFor(actor, (x) => x.matches('ready'));
    actor.send({ type: 'map.priceTyped', which: 'min', text: '35,000' });
    expect(actor.getSnapshot().context.filters.minPrice).toBe(3500000);
    actor.send({ type: 'map.priceTyped', which: 'min', text: '35,000.x' });
    expect(actor.getSnapshot().context.filters.minPrice).toBe(3500000);
    expect(actor.getSnapshot().context.priceText.min).toBe('35,000.x');
    const { lots, filters } = actor.getSnapshot().context;
    expect(lots.filter((l) => passesFilters(l, filters)).map((l) => l.code)).toEqual(['MZ B - LT 1']);
    actor.send({ type: 'map.clearFilters' });
    expect(actor.getSnapshot().context.priceText).toEqual({ min: '', max: '' });
    expect(actor.getSnapshot().context.filters.minPrice).toBeNull();
  });

  it('search "A-12" selects the lot, zooms to it and loads its details; unknown codes say "no encontrado"', async () => {
    const { actor, api } = start();
    await waitFor(actor, (x) => x.matches('ready'));
    const seq = actor.getSnapshot().context.focus!.seq;
    actor.send({ type: 'map.searchTyped', text: 'A-12' });
    actor.send({ type: 'map.search' });
    let s = actor.getSnapshot();
    expect(s.context.selectedKey).toBe('2');
    expect(s.context.focus).toEqual({ bounds: [8, 0, 16, 15], seq: seq + 1, pad: 2 });
    s = await waitFor(actor, (x) => x.matches({ ready: { panel: 'shown' } }));
    expect(api.lot).toHaveBeenCalledWith(2);
    expect(s.context.lotDetail?.id).toBe(2);
    actor.send({ type: 'map.searchTyped', text: 'MZ Z - LT 99' });
    actor.send({ type: 'map.search' });
    expect(actor.getSnapshot().context.searchMessage).toBe('Lote "MZ Z - LT 99" no encontrado');
    expect(actor.getSnapshot().context.selectedKey).toBe('2');
  });

  it('selects the lot given as initialLot once loaded: highlighted (selectedKey), zoomed to, its panel open (docs/decisions.md "Customer journey details (accessibility)")', async () => {
    const { actor, api } = start({}, { details: false, initialLot: 'MZ A - LT 12' });
    const s = await waitFor(actor, (x) => x.matches('ready'));
    expect(s.context.selectedKey).toBe('2');
    expect(s.context.focus).toMatchObject({ bounds: [8, 0, 16, 15], pad: 2 });
    expect(s.matches({ ready: { panel: 'shown' } })).toBe(true);
    expect(api.lot).not.toHaveBeenCalled();
    // Closing it works as for any selection.
    actor.send({ type: 'map.select', key: null });
    expect(actor.getSnapshot().matches({ ready: { panel: 'closed' } })).toBe(true);
  });

  it('an unknown or absent initialLot selects nothing and shows every lot', async () => {
    for (const initialLot of ['MZ Z - LT 99', null, '  ']) {
      const { actor } = start({}, { details: false, initialLot });
      const s = await waitFor(actor, (x) => x.matches('ready'));
      expect(s.context.selectedKey).toBeNull();
      expect(s.matches({ ready: { panel: 'closed' } })).toBe(true);
      expect(s.context.focus).toMatchObject({ bounds: [0, 0, 16, 40], pad: 0 });
    }
  });

  it('a status change updates the lot in place: its status (colour) and the counts follow', async () => {
    const { actor, api } = start();
    await waitFor(actor, (x) => x.matches('ready'));
    actor.send({ type: 'map.select', key: '2' });
    await waitFor(actor, (x) => x.matches({ ready: { panel: 'shown' } }));
    expect(countByStatus(actor.getSnapshot().context.lots)).toMatchObject({ SEPARADO: 1, VENDIDO: 0 });
    actor.send({ type: 'map.lotChanged', lot: { ...LOT_2, status: 'VENDIDO', updated_at: '2026-11-21T10:00:00Z' } });
    const s = actor.getSnapshot();
    expect(s.context.lots.find((l) => l.key === '2')?.status).toBe('VENDIDO');
    expect(countByStatus(s.context.lots)).toMatchObject({ SEPARADO: 0, VENDIDO: 1, DISPONIBLE: 1, BLOQUEADO: 1 });
    expect(s.context.lotDetail?.status).toBe('VENDIDO');
    expect(api.staffMap).toHaveBeenCalledTimes(1);
  });

  it('fetches the staff plan as a blob, shows it through an object URL and revokes it when stopped', async () => {
    const { actor, api, urls } = start({
      staffMap: () =>
        Promise.resolve({ ...STAFF, subdivision: { ...SUB, plan_url: '/api/subdivisions/k1/plan?v=1', plan_width: 100, plan_height: 80 } }),
    });
    const s = await waitFor(actor, (x) => x.matches({ ready: { plan: { active: 'shown' } } }));
    expect(api.planBlob).toHaveBeenCalledWith('/api/subdivisions/k1/plan?v=1');
    expect(s.context.planSrc).toBe('blob:plan-1');
    expect(urls.revoke).not.toHaveBeenCalled();
    actor.stop();
    expect(urls.revoke).toHaveBeenCalledWith('blob:plan-1');
  });

  it('is readable without the plan when the image fails', async () => {
    const { actor } = start({
      planBlob: () => Promise.reject(new ApiError(500, 'x')),
      staffMap: () => Promise.resolve({ ...STAFF, subdivision: { ...SUB, plan_url: '/api/p', plan_width: 1, plan_height: 1 } }),
    });
    const s = await waitFor(actor, (x) => x.matches({ ready: { plan: 'absent' } }));
    expect(s.context.planSrc).toBeNull();
    expect(s.context.lots).toHaveLength(3);
  });
});

describe('map helpers', () => {
  it('parses the ways people write a lot code', () => {
    expect(parseLotQuery('MZ A - LT 12')).toEqual({ block: 'A', number: '12' });
    expect(parseLotQuery('a-12')).toEqual({ block: 'A', number: '12' });
    expect(parseLotQuery('Mz. B Lt. 3')).toEqual({ block: 'B', number: '3' });
    expect(parseLotQuery('A12')).toEqual({ block: 'A', number: '12' });
    expect(parseLotQuery('')).toBeNull();
    const lots = STAFF.lots.map((l) => ({ ...l, key: String(l.id) }));
    expect(findLot(lots, 'mz a - lt 012')?.key).toBe('2');
    expect(findLot(lots, 'B 1')?.key).toBe('3');
    expect(findLot(lots, 'C-1')).toBeNull();
  });

  it('interpolates the heat ramp between its stops and finds the metric range', () => {
    expect(heatColor(0)).toBe('#ffffb2');
    expect(heatColor(1)).toBe('#bd0026');
    expect(heatColor(0.25)).toBe('#fecc5c');
    expect(heatColor(0.125)).toBe('#ffe687'); // halfway between #ffffb2 and #fecc5c
    const lots = STAFF.lots.map((l) => ({ ...l, key: String(l.id) }));
    expect(metricRange(lots, 'PRICE_PER_M2')).toEqual({ min: 25000, max: 30000 });
    expect(metricRange(lots, 'DAYS_LATE')).toBeNull();
  });
});
