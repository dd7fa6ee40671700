/**
 * The Proyectos rules the web screens rely on (src/schemas/proyectos/projects.ts; docs/domain.md state chart):
 * allowed transitions, reasons for Bloqueado / Reserva comercial / Canje, the list price reason,
 * the bulk price body, and the lot editor's form → body (prices typed in soles → céntimos).
 */
import { describe, expect, it } from 'vitest';
import {
  bulkPriceRequestSchema,
  changeLotStatusRequestSchema,
  computeListPrice,
  createLotRequestSchema,
  createSubdivisionRequestSchema,
  isLotTransitionAllowed,
  LOT_STATUS_TRANSITIONS,
} from '../../../src/schemas/proyectos/projects';
import { lotFormSchema, liveListPrice, lotToValues, EMPTY_LOT } from '../../../src/views/proyectos/lot-form';
import { subdivisionFormSchema } from '../../../src/views/proyectos/SubdivisionsPage';

const lot = { block: 'a', number: '12', area_m2: 120, price_per_m2: 25000 };

describe('lot status transitions', () => {
  it('follows the state chart', () => {
    expect(isLotTransitionAllowed('DISPONIBLE', 'SEPARADO')).toBe(true);
    expect(isLotTransitionAllowed('SEPARADO', 'VENDIDO')).toBe(true);
    expect(isLotTransitionAllowed('DISPONIBLE', 'VENDIDO')).toBe(false);
    expect(isLotTransitionAllowed('BLOQUEADO', 'SEPARADO')).toBe(false);
    expect(LOT_STATUS_TRANSITIONS.CANJE).toEqual([]);
  });

  it('requires a reason for BLOQUEADO, RESERVA_COMERCIAL and CANJE only', () => {
    for (const status of ['BLOQUEADO', 'RESERVA_COMERCIAL', 'CANJE'] as const) {
      const r = changeLotStatusRequestSchema.safeParse({ status });
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.path).toEqual(['reason']);
      // A hold (BLOQUEADO, RESERVA_COMERCIAL) also needs its end date (docs/domain.md "Lot holds").
      const until = status === 'CANJE' ? {} : { until: '2026-12-15' };
      expect(changeLotStatusRequestSchema.safeParse({ status, reason: '   ', ...until }).success).toBe(false);
      expect(changeLotStatusRequestSchema.safeParse({ status, reason: 'Observación municipal', ...until }).success).toBe(true);
    }
    // A manual SEPARADO needs no reason, but it is a hold: its end date only.
    expect(changeLotStatusRequestSchema.safeParse({ status: 'SEPARADO', until: '2026-12-15' }).success).toBe(true);
    expect(changeLotStatusRequestSchema.safeParse({ status: 'SEPARADO' }).error?.issues[0]?.path).toEqual(['until']);
  });
});

describe('list price', () => {
  it('is area × price per m² rounded to céntimos', () => {
    expect(computeListPrice(120, 25000)).toBe(3_000_000);
    expect(computeListPrice(120.55, 33333)).toBe(Math.round(120.55 * 33333));
  });

  it('needs a reason when it differs from the computed one', () => {
    expect(createLotRequestSchema.safeParse({ ...lot, list_price: 3_000_000 }).success).toBe(true);
    const r = createLotRequestSchema.safeParse({ ...lot, list_price: 2_900_000 });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['list_price_reason']);
    expect(createLotRequestSchema.safeParse({ ...lot, list_price: 2_900_000, list_price_reason: 'Descuento por esquina' }).success).toBe(
      true,
    );
  });
});

describe('lot editor form', () => {
  const values = { ...EMPTY_LOT, block: 'a', number: '12', area_m2: 120, price_per_m2: '250.00' };

  it('sends prices in céntimos, leaves a blank list price out and blank texts as null', () => {
    const r = lotFormSchema.safeParse(values);
    expect(r.success).toBe(true);
    expect(r.data).toMatchObject({ block: 'A', number: '12', area_m2: 120, price_per_m2: 25000, front_neighbour: null, notes: null });
    expect(r.data).not.toHaveProperty('list_price');
  });

  it('refuses a price that does not read, in Spanish, on its field', () => {
    const r = lotFormSchema.safeParse({ ...values, price_per_m2: 'doscientos' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({ path: ['price_per_m2'], message: 'Precio por m² no válido (ej. 250.00)' });
  });

  it('asks for the reason when the typed list price differs', () => {
    const r = lotFormSchema.safeParse({ ...values, list_price: '29,000.00' });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join('.'))).toContain('list_price_reason');
    expect(lotFormSchema.safeParse({ ...values, list_price: '29,000.00', list_price_reason: 'Promoción' }).data).toMatchObject({
      list_price: 2_900_000,
    });
  });

  it('shows the computed list price live and flags a different one', () => {
    expect(liveListPrice(values, 'PEN')).toEqual({ computed: 3_000_000, text: 'S/ 30,000.00', differs: false });
    expect(liveListPrice({ ...values, list_price: '29000' }, 'PEN').differs).toBe(true);
    expect(liveListPrice({ ...values, area_m2: null }, 'PEN').computed).toBeNull();
  });

  it('edits a lot with its prices in soles and a blank list price when it is the computed one', () => {
    const v = lotToValues({ ...lot, block: 'A', list_price: 3_000_000, list_price_reason: null, front_neighbour: null } as never);
    expect(v.price_per_m2).toBe('250.00');
    expect(v.list_price).toBe('');
  });
});

describe('subdivision form and bulk price body', () => {
  it('turns blank optional fields into null and uppercases the code', () => {
    const r = subdivisionFormSchema.safeParse({
      code: 'lv-02',
      name: 'Los Álamos',
      department: 'Lima',
      province: 'Lima',
      district: 'Lurín',
      ubigeo: '',
      address: '',
      currency: 'USD',
      total_area_m2: 1000,
      registry_entry: '',
      licence_number: '',
      licence_date: '',
      status: 'EN_VENTA',
      published: true,
      public_prices: false,
    });
    expect(r.success).toBe(true);
    expect(r.data).toMatchObject({ code: 'LV-02', ubigeo: null, licence_date: null, currency: 'USD' });
    expect(
      createSubdivisionRequestSchema.safeParse({ code: 'X', name: 'n', department: 'd', province: 'p', district: 'x', total_area_m2: 0 })
        .success,
    ).toBe(false);
  });

  it('needs a selection and a reason for a bulk price change', () => {
    const change = { kind: 'PERCENT', percent: 10 };
    expect(bulkPriceRequestSchema.safeParse({ selection: {}, change, reason: 'Ajuste' }).success).toBe(false);
    expect(bulkPriceRequestSchema.safeParse({ selection: { blocks: ['A'] }, change, reason: '' }).success).toBe(false);
    expect(bulkPriceRequestSchema.safeParse({ selection: { blocks: ['A'] }, change, reason: 'Ajuste' }).success).toBe(true);
  });
});
