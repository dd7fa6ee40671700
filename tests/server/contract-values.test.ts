import { describe, expect, it } from 'vitest';
import { systemAuditContext } from '../../server/audit/audit';
import { createManualClock } from '../../server/clock';
import { createSale } from '../../server/modules/comercio/sales.service';
import { resolveContractValues, resolveReservationValues } from '../../server/modules/administracion/contract-values';
import { contractAmountInWords } from '../../src/lib/administracion/amount-in-words';
import {
  CONTRACT_VARIABLES,
  variableAllowedIn,
  type ContractKind,
  type VariableValue,
} from '../../src/schemas/administracion/contract-templates';
import { createCrmCustomer, createLot, createSubdivision, ensureCompany } from '../../server/testing/fixtures';
import { dialects, useTestDatabase } from './harness';

/**
 * The values of a contract's variables (server/modules/administracion/contract-values.ts;
 * docs/domain.md "Contract variables") on real sales made by the sales service: they match the
 * sale exactly, a missing address is null (never blank), a married buyer names the spouse and the
 * regime, boundaries come from the block's polygons.
 */
describe.each(dialects)('contract values (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const onSaleDate = createManualClock('2026-03-02T17:00:00.000Z');
  let documents = 41234567;
  const textOf = (value: VariableValue | null | undefined) => (value ? value.text : null);

  /** A block B of four 10 × 20 m lots (1, 2 face south; 3, 4 north) in a fresh subdivision; sells lot 1. */
  async function financedSale(options: { married?: boolean; address?: boolean } = {}) {
    await ensureCompany(db());
    await db()
      .updateTable('companies')
      .set({
        legal_representative: 'Ana Torres Díaz',
        legal_representative_dni: '40404040',
        legal_representative_power_entry: 'Partida 11223344, asiento C00002',
        contract_place: 'Lima',
      })
      .execute();
    const subdivision = await createSubdivision(db(), { registry_entry: '14556677' });
    const rect = (x: number, y: number) =>
      [
        [x, y],
        [x + 10, y],
        [x + 10, y + 20],
        [x, y + 20],
      ] as const;
    const lotId = await createLot(db(), subdivision.id, {
      block: 'B',
      number: '1',
      area_m2: 200,
      price_per_m2: 24000,
      polygon: rect(0, 0),
    });
    await createLot(db(), subdivision.id, { block: 'B', number: '2', polygon: rect(10, 0) });
    await createLot(db(), subdivision.id, { block: 'B', number: '3', polygon: rect(0, 20) });
    await createLot(db(), subdivision.id, { block: 'B', number: '4', polygon: rect(10, 20) });
    const spouse = options.married
      ? await createCrmCustomer(db(), { name: 'María', surname: 'Quispe Rojas', marital_status: 'CASADO' })
      : null;
    const buyer = await createCrmCustomer(db(), {
      name: 'Juan',
      surname: 'Pérez Ríos',
      document_number: String(documents++),
      marital_status: options.married ? 'CASADO' : 'SOLTERO',
      property_regime: options.married ? 'SOCIEDAD_GANANCIALES' : null,
      spouse_id: spouse,
      address: options.address === false ? null : 'Jr. Los Olivos 123',
      ubigeo: options.address === false ? null : '150106',
    });
    const created = await createSale({ db: db(), clock: onSaleDate }, systemAuditContext(onSaleDate), {
      lot_id: lotId,
      holders: [
        { customer_id: buyer, role: 'TITULAR', share_percent: spouse ? '50' : '100' },
        ...(spouse ? [{ customer_id: spouse, role: 'CONYUGE' as const, share_percent: '50' }] : []),
      ],
      sale_date: '2026-03-02',
      down_payment_percent: '20',
      down_payment_parts: 1,
      instalments: 12,
      monthly_rate_percent: '1.5',
      method: 'FRANCES',
      first_due_date: '2026-04-02',
    });
    return { saleId: created.id, subdivisionId: subdivision.id, lotId, buyer, spouse };
  }

  it('resolves every key of each sale kind, matching the sale: buyer, lot, price and words, schedule total = Σ instalments', async () => {
    documents = 41234567;
    const { saleId } = await financedSale();
    const sale = await db().selectFrom('sales').selectAll().where('id', '=', saleId).executeTakeFirstOrThrow();
    const quotas = await db()
      .selectFrom('sale_instalments')
      .selectAll()
      .where('sale_id', '=', saleId)
      .where('kind', '=', 'CUOTA')
      .orderBy('number')
      .execute();
    const values = await resolveContractValues(db(), saleId, 'COMPRAVENTA_PLAZOS', { today: '2026-03-10' });

    const allowed = CONTRACT_VARIABLES.filter((v) => variableAllowedIn(v.key, 'COMPRAVENTA_PLAZOS')).map((v) => v.key);
    expect(Object.keys(values).sort()).toEqual([...allowed].sort());
    for (const variable of CONTRACT_VARIABLES) {
      const value = values[variable.key];
      if (value) expect(value.type).toBe(variable.type);
    }

    expect(textOf(values['comprador.nombre'])).toBe('Juan Pérez Ríos');
    expect(textOf(values['comprador.documento'])).toBe('DNI N.º 41234567');
    expect(textOf(values['comprador.estado_civil'])).toBe('soltero(a)');
    expect(textOf(values['comprador.regimen_patrimonial'])).toBe('no aplica');
    expect(textOf(values['comprador.conyuge_nombre'])).toBe('no aplica');
    expect(textOf(values['comprador.domicilio'])).toBe('Jr. Los Olivos 123');
    expect(textOf(values['comprador.distrito'])).toBe('Carabayllo');
    expect(values['compradores.lista']).toMatchObject({
      type: 'LIST',
      items: [expect.stringContaining('JUAN PÉREZ RÍOS, identificado(a) con DNI N.º 41234567')],
    });

    expect(textOf(values['empresa.razon_social'])).toBe('Empresa de Prueba S.A.C.');
    expect(textOf(values['empresa.representante_dni'])).toBe('40404040');
    expect(textOf(values['empresa.poder_partida'])).toBe('Partida 11223344, asiento C00002');
    expect(textOf(values['contrato.lugar'])).toBe('Lima');
    expect(values['contrato.numero']).toBeNull();
    expect(values['contrato.fecha_firma']).toEqual({ type: 'DATE', date: '2026-03-10', text: '10/03/2026' });
    expect(textOf(values['contrato.fecha_firma_letras'])).toBe('diez de marzo de dos mil veintiséis');

    expect(textOf(values['lote.manzana'])).toBe('B');
    expect(textOf(values['lote.numero'])).toBe('1');
    expect(textOf(values['lote.etapa'])).toBe('Única');
    expect(values['lote.area_m2']).toEqual({ type: 'NUMBER', value: 200, text: '200.00' });
    expect(textOf(values['lote.perimetro_m'])).toBe('60.00');
    expect(textOf(values['lote.lindero_frente'])).toBe('Calle / vía pública');
    expect(textOf(values['lote.medida_frente'])).toBe('10.00');
    expect(textOf(values['lote.lindero_derecha'])).toBe('Lote 2 de la Mz. B');
    expect(textOf(values['lote.lindero_fondo'])).toBe('Lote 3 de la Mz. B');
    expect(textOf(values['lote.medida_izquierda'])).toBe('20.00');
    expect(textOf(values['lotizacion.partida_matriz'])).toBe('14556677');

    expect(values['venta.precio']).toEqual({ type: 'MONEY', cents: sale.final_price, currency: 'PEN', text: 'S/ 48,000.00' });
    expect(textOf(values['venta.precio_letras'])).toBe('CUARENTA Y OCHO MIL Y 00/100 SOLES');
    expect(textOf(values['venta.cuota_inicial_letras'])).toBe(contractAmountInWords(Number(sale.down_payment), 'PEN'));
    expect(values['venta.monto_financiado']).toMatchObject({ cents: Number(sale.financed) });
    expect(values['venta.tasa_mensual']).toEqual({ type: 'NUMBER', value: 1.5, text: '1.50' });
    expect(textOf(values['venta.tea'])).toBe('19.56');
    expect(textOf(values['venta.numero_cuotas'])).toBe('12');
    const total = quotas.reduce((sum, q) => sum + Number(q.amount), 0);
    expect(values['venta.cronograma_total']).toMatchObject({ type: 'MONEY', cents: total });
    const table = values['venta.cronograma'];
    expect(table?.type).toBe('TABLE');
    if (table?.type === 'TABLE') {
      expect(table.head).toEqual(['N.º', 'Vencimiento', 'Capital', 'Interés', 'Cuota']);
      expect(table.rows).toHaveLength(12);
      expect(table.rows[0]![1]).toBe('02/04/2026');
      expect(table.foot?.[4]).toBe(values['venta.cronograma_total']!.text);
    }
    expect(textOf(values['venta.politica_mora'])).toBe(
      'Vencidos 3 días calendario de gracia desde la fecha de vencimiento de una cuota sin que esta haya sido pagada, se aplicará una penalidad por mora de S/ 5.00 por cada día de atraso, hasta la fecha de su pago.',
    );
    expect(textOf(values['venta.cuotas_resolucion'])).toBe('3');
    expect(textOf(values['venta.penalidad_porcentaje'])).toBe('10.00');
  });

  it('a missing address and district are null, never blank', async () => {
    const { saleId } = await financedSale({ address: false });
    const values = await resolveContractValues(db(), saleId, 'COMPRAVENTA_CONTADO', { today: '2026-03-10' });
    expect(values['comprador.domicilio']).toBeNull();
    expect(values['comprador.distrito']).toBeNull();
    expect(values['separacion.monto']).toBeUndefined();
  });

  it('a married buyer names the spouse (customers.spouse_id) and the property regime; the list names the couple once', async () => {
    const { saleId } = await financedSale({ married: true });
    const values = await resolveContractValues(db(), saleId, 'COMPRAVENTA_PLAZOS', { today: '2026-03-10' });
    expect(textOf(values['comprador.estado_civil'])).toBe('casado(a)');
    expect(textOf(values['comprador.regimen_patrimonial'])).toBe('sociedad de gananciales');
    expect(textOf(values['comprador.conyuge_nombre'])).toBe('María Quispe Rojas');
    expect(textOf(values['comprador.conyuge_documento'])).toMatch(/^DNI N\.º 7\d{7}$/);
    const list = values['compradores.lista'];
    expect(list?.type === 'LIST' && list.items).toEqual([
      expect.stringContaining('de estado civil casado(a) bajo el régimen de sociedad de gananciales con MARÍA QUISPE ROJAS'),
    ]);
  });

  it('the kinds: SEPARACION without a reservation leaves its keys missing; ADENDA keys missing; CARTA_RESOLUCION counts overdue instalments', async () => {
    const { saleId } = await financedSale();
    const kinds: ContractKind[] = ['SEPARACION', 'ADENDA', 'CARTA_RESOLUCION'];
    const [separation, addendum, letter] = await Promise.all(
      kinds.map((kind) => resolveContractValues(db(), saleId, kind, { today: '2026-07-10' })),
    );
    expect(separation!['separacion.monto']).toBeNull();
    expect(separation!['venta.precio']).toBeUndefined();
    expect(addendum!['adenda.cronograma_nuevo']).toBeNull();
    expect(textOf(addendum!['venta.precio_letras'])).toBe('CUARENTA Y OCHO MIL Y 00/100 SOLES');
    // The instalments due 02/04 … 02/07/2026 are before 10/07/2026 and nothing was paid: 4 CUOTA rows (the down payment is not one).
    expect(textOf(letter!['resolucion.cuotas_vencidas'])).toBe('4');
    expect(letter!['resolucion.monto_pagado']).toMatchObject({ cents: 0 });
    expect(textOf(letter!['resolucion.plazo_dias'])).toBe('15');
  });

  it('a separation document from a reservation: its amount in words, dates in Lima, the lot list price', async () => {
    const { lotId, buyer } = await financedSale();
    const other = await db()
      .selectFrom('lots')
      .select(['id', 'list_price'])
      .where('number', '=', '2')
      .where(
        'subdivision_id',
        '=',
        (await db().selectFrom('lots').select('subdivision_id').where('id', '=', lotId).executeTakeFirstOrThrow()).subdivision_id,
      )
      .executeTakeFirstOrThrow();
    const { id } = await db()
      .insertInto('reservations')
      .values({
        customer_id: buyer,
        lot_id: other.id,
        agent_id: null,
        amount: 150_050,
        currency: 'PEN',
        hold_days: 7,
        expires_at: '2026-03-10T04:59:59.000Z',
        status: 'VIGENTE',
        conditions_accepted_at: '2026-03-03T02:00:00.000Z',
        created_by: null,
        created_at: '2026-03-03T02:00:00.000Z',
        updated_at: '2026-03-03T02:00:00.000Z',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const values = await resolveReservationValues(db(), id, { today: '2026-03-03' });
    expect(textOf(values['separacion.monto_letras'])).toBe('MIL QUINIENTOS Y 50/100 SOLES');
    expect(values['separacion.fecha']).toEqual({ type: 'DATE', date: '2026-03-02', text: '02/03/2026' });
    expect(values['separacion.vence']).toMatchObject({ date: '2026-03-09' });
    expect(values['separacion.precio_pactado']).toMatchObject({ cents: Number(other.list_price) });
    expect(textOf(values['lote.numero'])).toBe('2');
    expect(textOf(values['lote.lindero_izquierda'])).toBe('Lote 1 de la Mz. B');
    expect(textOf(values['comprador.nombre'])).toBe('Juan Pérez Ríos');
  });

  it('an unknown sale or reservation is a 404', async () => {
    await expect(resolveContractValues(db(), 999_999, 'COMPRAVENTA_CONTADO')).rejects.toMatchObject({ statusCode: 404 });
    await expect(resolveReservationValues(db(), 999_999)).rejects.toMatchObject({ statusCode: 404 });
  });
});
