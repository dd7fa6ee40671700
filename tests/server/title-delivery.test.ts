import type { SaleStatus } from '../../src/schemas/comercio/sales';
import { describe, expect, it } from 'vitest';
import {
  DELIVERY_RECORD_MAX_BYTES,
  TITLE_MESSAGES,
  titleProcessResponseSchema,
  titleSaleOptionsResponseSchema,
} from '../../src/schemas/administracion/titles';
import { MODULE, SUBMODULE, type Permission } from '../../src/schemas/permissions';
import { createCrmCustomer, createLot, createSession, createStaff, createSubdivision, insertCashSale } from '../../server/testing/fixtures';
import { bearer, dialects, multipartBody, useTestApp, useTestDatabase } from './harness';
import { png } from './images';

/**
 * The title screen's server additions (docs/domain.md "Titles at SUNARP", "The screen"): the acta de
 * entrega uploaded as a PDF or an image (sniffed, ≤ 10 MB, only INSCRITO or ENTREGADO, nothing
 * written on a bad file), its permission-checked download, ENTREGADO with the file instead of the
 * text reference, and the sales "Nuevo trámite" may pick. The test clock's today (Lima) is 2026-03-02.
 */

const TITLES: readonly Permission[] = [MODULE.administracion, SUBMODULE.partidasTitulos];
const TODAY = '2026-03-02';
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n', 'latin1'), Buffer.alloc(200, 0x20), Buffer.from('\n%%EOF\n', 'latin1')]);

describe.each(dialects)('title delivery record and sale options (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  const session = async (permissions: readonly Permission[]) =>
    createSession(db(), await createStaff(db(), { permissions, clock: ctx().clock }));
  const send = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const upload = (token: string, id: number, content: Buffer, field = 'file', filename = 'acta.pdf') => {
    const body = multipartBody({ field, filename, contentType: 'application/pdf', content });
    return ctx().app.inject({
      method: 'POST',
      url: `/api/title-processes/${id}/delivery-record`,
      headers: { ...bearer(token), ...body.headers },
      payload: body.payload,
    });
  };

  /** A sale of a fresh lot with its titular, as the sales service leaves it. */
  const freshSale = async (status: SaleStatus = 'CANCELADA', titular = 'Rosa') => {
    const subdivision_id = (await createSubdivision(db())).id;
    const lotId = await createLot(db(), subdivision_id);
    const customer = await createCrmCustomer(db(), { name: titular, surname: 'Quispe Mamani' });
    const id = await insertCashSale(db(), { lotId, subdivisionId: subdivision_id, status, titularId: customer });
    return id;
  };

  /** A process of a fresh paid-off sale moved up to INSCRITO. */
  const inscribed = async (token: string) => {
    const sale = await freshSale();
    const created = await send('POST', '/api/title-processes', token, { sale_id: sale });
    let p = titleProcessResponseSchema.parse(created.json()).data;
    const steps: object[] = [
      { to: 'MINUTA_FIRMADA' },
      { to: 'ESCRITURA', notary: 'Notaría Paino', escritura_number: '1234' },
      { to: 'PRESENTADO', titulo_number: '2026-00123456' },
      { to: 'INSCRITO', partida: '11223344', asiento: 'C00002' },
    ];
    for (const step of steps) {
      const res = await send('POST', `/api/title-processes/${p.id}/transition`, token, { ...step, version: p.version, date: TODAY });
      expect(res.statusCode, res.body).toBe(200);
      p = titleProcessResponseSchema.parse(res.json()).data;
    }
    return p;
  };
  const records = async (processIds: number[]) =>
    Number(
      (
        await db()
          .selectFrom('title_delivery_records')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('process_id', 'in', processIds)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('stores a PDF acta for an INSCRITO title, moves it to ENTREGADO without a text reference, and serves it back', async () => {
    const token = await session(TITLES);
    const p = await inscribed(token);
    const res = await upload(token, p.id, PDF);
    expect(res.statusCode, res.body).toBe(200);
    const withRecord = titleProcessResponseSchema.parse(res.json()).data;
    expect(withRecord.delivery_record).toMatchObject({ content_type: 'application/pdf', size: PDF.length });
    const moved = await send('POST', `/api/title-processes/${p.id}/transition`, token, {
      to: 'ENTREGADO',
      version: withRecord.version,
      date: TODAY,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(titleProcessResponseSchema.parse(moved.json()).data).toMatchObject({
      state: 'ENTREGADO',
      delivered_on: TODAY,
      delivery_reference: null,
    });
    const download = await send('GET', `/api/title-processes/${p.id}/delivery-record`, token);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="acta-entrega-V-\d{6}\.pdf"$/);
    expect(download.rawPayload.equals(PDF)).toBe(true);
    // The history keeps the record's type and size, never its bytes.
    const stored = await db().selectFrom('title_delivery_records').select('id').where('process_id', '=', p.id).executeTakeFirstOrThrow();
    const history = await db()
      .selectFrom('change_history')
      .select(['after'])
      .where('entity', '=', 'title_delivery_records')
      .where('record_id', '=', String(stored.id))
      .execute();
    expect(history).toHaveLength(1);
    expect(JSON.stringify(history[0])).not.toContain('data');
  });

  it('replaces the acta with an image after delivery; the list and board never carry the bytes', async () => {
    const token = await session(TITLES);
    const p = await inscribed(token);
    expect((await upload(token, p.id, PDF)).statusCode).toBe(200);
    const replaced = await upload(token, p.id, png(800, 600), 'file', 'acta.png');
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(titleProcessResponseSchema.parse(replaced.json()).data.delivery_record?.content_type).toBe('image/png');
    expect(await records([p.id])).toBe(1);
    const list = await send('GET', '/api/title-processes?state=INSCRITO', token);
    expect(list.json().data[0].delivery_record).toMatchObject({ content_type: 'image/png' });
  });

  it('refuses a file that is neither a PDF nor an image, a missing part, a file over 10 MB and a title not yet inscribed: Spanish 4xx, nothing written', async () => {
    const token = await session(TITLES);
    const p = await inscribed(token);
    const text = await upload(token, p.id, Buffer.from('esto no es un PDF, aunque se llame acta.pdf'));
    expect(text.statusCode).toBe(422);
    expect(text.json().errors.file).toEqual([TITLE_MESSAGES.deliveryRecordType]);
    const wrongField = await upload(token, p.id, PDF, 'voucher');
    expect(wrongField.statusCode).toBe(422);
    expect(wrongField.json().errors.file).toEqual([TITLE_MESSAGES.deliveryRecordMissing]);
    const big = await upload(token, p.id, Buffer.concat([PDF, Buffer.alloc(DELIVERY_RECORD_MAX_BYTES)]));
    expect(big.statusCode).toBe(422);
    expect(big.json().errors.file).toEqual([TITLE_MESSAGES.deliveryRecordTooLarge]);
    const huge = await upload(token, p.id, png(60_000, 60_000), 'file', 'acta.png');
    expect(huge.statusCode).toBe(422);
    const sale = await freshSale();
    const pending = titleProcessResponseSchema.parse((await send('POST', '/api/title-processes', token, { sale_id: sale })).json()).data;
    const early = await upload(token, pending.id, PDF);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(TITLE_MESSAGES.deliveryRecordState);
    expect(await records([p.id, pending.id])).toBe(0);
    // Without the file, ENTREGADO needs the text reference.
    const bare = await send('POST', `/api/title-processes/${p.id}/transition`, token, { to: 'ENTREGADO', version: p.version, date: TODAY });
    expect(bare.statusCode).toBe(422);
    expect(bare.json().errors.delivery_reference).toEqual([TITLE_MESSAGES.deliveryRequired]);
    const none = await send('GET', `/api/title-processes/${p.id}/delivery-record`, token);
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe(TITLE_MESSAGES.deliveryRecordNone);
    expect((await send('GET', '/api/title-processes/999999/delivery-record', token)).statusCode).toBe(404);
  });

  it('without the titles permission neither the upload nor the download is served', async () => {
    const token = await session(TITLES);
    const p = await inscribed(token);
    expect((await upload(token, p.id, PDF)).statusCode).toBe(200);
    const other = await session([MODULE.comercial, SUBMODULE.ventas]);
    expect((await send('GET', `/api/title-processes/${p.id}/delivery-record`, other)).statusCode).toBe(403);
    expect((await upload(other, p.id, PDF)).statusCode).toBe(403);
    expect((await send('GET', '/api/title-processes/sale-options', other)).statusCode).toBe(403);
  });

  it('sale options: sales not annulled and without a process, paid-off first, found by number or titular', async () => {
    const token = await session(TITLES);
    const financed = await freshSale('EN_CUOTAS', 'Marleny');
    const paid = await freshSale('CANCELADA', 'Marleny');
    await freshSale('ANULADA', 'Marleny');
    const taken = await freshSale('CANCELADA', 'Marleny');
    await send('POST', '/api/title-processes', token, { sale_id: taken });
    const res = await send('GET', '/api/title-processes/sale-options?q=marleny', token);
    expect(res.statusCode, res.body).toBe(200);
    const options = titleSaleOptionsResponseSchema.parse(res.json()).data;
    expect(options.map((o) => o.id)).toEqual([paid, financed]);
    expect(options[0]).toMatchObject({ status: 'CANCELADA', titular: 'Marleny Quispe Mamani' });
    const byNumber = titleSaleOptionsResponseSchema.parse(
      (await send('GET', `/api/title-processes/sale-options?q=V-${String(financed).padStart(6, '0')}`, token)).json(),
    ).data;
    expect(byNumber.map((o) => o.id)).toEqual([financed]);
    expect((await send('GET', `/api/title-processes/sale-options?q=${'x'.repeat(101)}`, token)).statusCode).toBe(422);
  });
});
