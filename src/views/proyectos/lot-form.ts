import { z } from 'zod';
import { centsToInput, formatMoney, parseMoneyInput, type CurrencyCode } from '../../lib/money';
import { computeListPrice, createLotRequestSchema, type Lot } from '../../schemas/proyectos/projects';
import { blankToNull } from '../shared/EditorFields';

/**
 * The lot editor's form (issue "Proyectos"): what is typed → the POST / PATCH body of
 * {@link createLotRequestSchema}. Prices are typed in soles / dollars ("250", "1,250.50") and
 * sent in céntimos ({@link parseMoneyInput}); a blank list price means "the computed one"
 * (area × price per m²) and is left out of the body; a typed list price that differs from the
 * computed one needs "Motivo" (the schema's rule, 422 on `list_price_reason`).
 */

export const LOT_FIELDS = [
  'block',
  'number',
  'area_m2',
  'perimeter_m',
  'front_m',
  'front_neighbour',
  'back_m',
  'back_neighbour',
  'right_m',
  'right_neighbour',
  'left_m',
  'left_neighbour',
  'price_per_m2',
  'list_price',
  'list_price_reason',
  'is_corner',
  'facing_park',
  'land_use',
  'registry_entry',
  'notes',
] as const;

export const EMPTY_LOT = {
  block: '',
  number: '',
  area_m2: null,
  perimeter_m: null,
  front_m: null,
  front_neighbour: '',
  back_m: null,
  back_neighbour: '',
  right_m: null,
  right_neighbour: '',
  left_m: null,
  left_neighbour: '',
  price_per_m2: '',
  list_price: '',
  list_price_reason: '',
  is_corner: false,
  facing_park: false,
  land_use: 'VIVIENDA',
  registry_entry: '',
  notes: '',
};

const TEXT_FIELDS = [
  'front_neighbour',
  'back_neighbour',
  'right_neighbour',
  'left_neighbour',
  'list_price_reason',
  'registry_entry',
  'notes',
] as const;

/** Form values → body; money that does not read adds a Spanish issue on its field. */
export const lotFormSchema = z.preprocess((values, ctx) => {
  if (typeof values !== 'object' || values === null) return values;
  const v = { ...(values as Record<string, unknown>) };
  for (const f of TEXT_FIELDS) v[f] = blankToNull(v[f]);
  const price = String(v.price_per_m2 ?? '');
  const pricePerM2 = parseMoneyInput(price);
  if (pricePerM2 === null) {
    ctx.addIssue({
      code: 'custom',
      path: ['price_per_m2'],
      message: price.trim() === '' ? 'Ingrese el precio por m²' : 'Precio por m² no válido (ej. 250.00)',
      input: price,
    });
  }
  v.price_per_m2 = pricePerM2 ?? undefined;
  const listText = String(v.list_price ?? '').trim();
  if (listText === '') {
    delete v.list_price;
    if (v.list_price_reason === null) delete v.list_price_reason;
  } else {
    const listPrice = parseMoneyInput(listText);
    if (listPrice === null)
      ctx.addIssue({ code: 'custom', path: ['list_price'], message: 'Precio de lista no válido (ej. 30,000.00)', input: listText });
    v.list_price = listPrice ?? undefined;
  }
  for (const f of ['area_m2', 'perimeter_m', 'front_m', 'back_m', 'right_m', 'left_m']) if (v[f] === '') v[f] = null;
  if (v.area_m2 === null) v.area_m2 = undefined;
  if (v.land_use === '') delete v.land_use;
  return v;
}, createLotRequestSchema);

/** A lot → the editor's values (prices as text in soles; list price blank when it is the computed one). */
export function lotToValues(lot: Lot) {
  const computed = computeListPrice(lot.area_m2, lot.price_per_m2);
  return {
    block: lot.block,
    number: lot.number,
    area_m2: lot.area_m2,
    perimeter_m: lot.perimeter_m,
    front_m: lot.front_m,
    front_neighbour: lot.front_neighbour ?? '',
    back_m: lot.back_m,
    back_neighbour: lot.back_neighbour ?? '',
    right_m: lot.right_m,
    right_neighbour: lot.right_neighbour ?? '',
    left_m: lot.left_m,
    left_neighbour: lot.left_neighbour ?? '',
    price_per_m2: centsToInput(lot.price_per_m2),
    list_price: lot.list_price === computed ? '' : centsToInput(lot.list_price),
    list_price_reason: lot.list_price_reason ?? '',
    is_corner: lot.is_corner,
    facing_park: lot.facing_park,
    land_use: lot.land_use,
    registry_entry: lot.registry_entry ?? '',
    notes: lot.notes ?? '',
  };
}

/**
 * The list price the form shows live: area × price per m² (céntimos), or null while either is
 * missing; `differs` when a typed list price is not the computed one (then a reason is required).
 */
export function liveListPrice(
  values: Record<string, unknown>,
  currency: CurrencyCode,
): { computed: number | null; text: string; differs: boolean } {
  const area = typeof values.area_m2 === 'number' ? values.area_m2 : null;
  const price = parseMoneyInput(String(values.price_per_m2 ?? ''));
  const computed = area !== null && price !== null ? computeListPrice(area, price) : null;
  const typed = String(values.list_price ?? '').trim() === '' ? null : parseMoneyInput(String(values.list_price));
  return {
    computed,
    text: computed === null ? '—' : formatMoney(computed, currency),
    differs: typed !== null && computed !== null && typed !== computed,
  };
}
