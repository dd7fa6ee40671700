import type { SaleStatus, SaleType } from '../../src/schemas/comercio/sales';
import { describe, expect, it } from 'vitest';
import {
  TITLE_MESSAGES,
  TITLE_STATES,
  publicHolidayResponseSchema,
  publicHolidaysPageSchema,
  titleBoardResponseSchema,
  titleProcessResponseSchema,
  titleProcessesPageSchema,
} from '../../src/schemas/administracion/titles';
import { MODULE, SUBMODULE, type Permission } from '../../src/schemas/permissions';
import { STALE_RECORD_MESSAGE } from '../../src/schemas/versions';
import { DAY_MS } from '../../server/clock';
import { TitleDeadlineJob } from '../../server/modules/administracion/title-deadline-job';
import { createCrmCustomer, createLot, createSession, createStaff, createSubdivision, insertCashSale } from '../../server/testing/fixtures';
import { bearer, dialects, recordingBroadcaster, useTestApp, useTestDatabase } from './harness';

/**
 * Titles at SUNARP (docs/domain.md "Titles at SUNARP"): one process per sale, moves only along the
 * transitions table, ESCRITURA only for a paid-off sale (or a financed one with its
 * retention-of-title pact), the asiento de presentación's 35 working days with Peru's public
 * holidays, and the holidays' CRUD. The test clock's today (Lima) is Monday 2026-03-02.
 */

const TITLES: readonly Permission[] = [MODULE.administracion, SUBMODULE.partidasTitulos];
const ADMIN: readonly Permission[] = [...TITLES, MODULE.configuracion, SUBMODULE.empresas];

describe.each(dialects)('titles at SUNARP (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  const session = async (permissions: readonly Permission[]) => {
    const staff = await createStaff(db(), { permissions, clock: ctx().clock });
    return createSession(db(), staff);
  };
  const staffWith = async (permissions: readonly Permission[]) => {
    const staff = await createStaff(db(), { permissions, clock: ctx().clock });
    return { id: staff.id, token: await createSession(db(), staff) };
  };
  const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

  /** A sale of a fresh lot, inserted as the sales service leaves it, with `status` and `type`. */
  const freshSale = async (status: SaleStatus = 'CANCELADA', type: SaleType = 'CONTADO', subdivisionId?: number) => {
    const subdivision_id = subdivisionId ?? (await createSubdivision(db())).id;
    const lotId = await createLot(db(), subdivision_id);
    await db().updateTable('lots').set({ status: 'VENDIDO' }).where('id', '=', lotId).execute();
    const customer = await createCrmCustomer(db(), { name: 'Rosa', surname: 'Quispe Mamani' });
    const id = await insertCashSale(db(), { lotId, subdivisionId: subdivision_id, type, status, titularId: customer });
    return id;
  };

  const create = async (token: string, saleId: number, extra: object = {}) => {
    const res = await send('POST', '/api/title-processes', token, { sale_id: saleId, ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return titleProcessResponseSchema.parse(res.json()).data;
  };
  const move = (token: string, id: number, body: object) => send('POST', `/api/title-processes/${id}/transition`, token, body);
  const moved = async (token: string, id: number, body: object) => {
    const res = await move(token, id, body);
    expect(res.statusCode, res.body).toBe(200);
    return titleProcessResponseSchema.parse(res.json()).data;
  };
  const TODAY = '2026-03-02';

  it('a paid-off sale goes PENDIENTE → … → ENTREGADO with each state’s fields, its events and change history', async () => {
    const token = await session(TITLES);
    const sale = await freshSale();
    let p = await create(token, sale);
    expect(p).toMatchObject({ state: 'PENDIENTE', state_since: TODAY, days_in_state: 0, next_states: ['MINUTA_FIRMADA'] });
    expect(p.sale).toMatchObject({ id: sale, status: 'CANCELADA', titular: 'Rosa Quispe Mamani' });
    p = await moved(token, p.id, { to: 'MINUTA_FIRMADA', version: p.version, date: TODAY });
    p = await moved(token, p.id, { to: 'ESCRITURA', version: p.version, date: TODAY, notary: 'Notaría Paino', escritura_number: '1234' });
    expect(p).toMatchObject({ notary: 'Notaría Paino', escritura_number: '1234', escritura_date: TODAY });
    p = await moved(token, p.id, { to: 'PRESENTADO', version: p.version, date: TODAY, titulo_number: '2026-00123456' });
    // 35 working days after Monday 2026-03-02, skipping Holy Thursday and Good Friday (2–3 April): 22 April; the warning 5 working days before.
    expect(p.presentation).toEqual({ deadline: '2026-04-22', notice_on: '2026-04-15', notice_due: false });
    p = await moved(token, p.id, { to: 'OBSERVADO', version: p.version, date: TODAY, observation: 'Falta plano visado' });
    expect(p.presentation?.deadline).toBe('2026-04-22');
    ctx().clock.advance(3 * DAY_MS);
    p = titleProcessResponseSchema.parse((await send('GET', `/api/title-processes/${p.id}`, token)).json()).data;
    expect(p.days_in_state).toBe(3);
    p = await moved(token, p.id, { to: 'PRESENTADO', version: p.version, date: '2026-03-05' });
    expect(p).toMatchObject({ reentry_on: '2026-03-05', titulo_number: '2026-00123456', presented_on: TODAY });
    p = await moved(token, p.id, { to: 'LIQUIDADO', version: p.version, date: '2026-03-05', amount: 4_500, currency: 'PEN' });
    expect(p.mayor_derecho).toEqual({ amount: 4_500, currency: 'PEN', paid_on: null });
    p = await moved(token, p.id, { to: 'PRESENTADO', version: p.version, date: '2026-03-05' });
    expect(p.mayor_derecho).toEqual({ amount: 4_500, currency: 'PEN', paid_on: '2026-03-05' });
    p = await moved(token, p.id, { to: 'INSCRITO', version: p.version, date: '2026-03-05', partida: '11223344', asiento: 'C00002' });
    expect(p.presentation).toBeNull();
    p = await moved(token, p.id, {
      to: 'ENTREGADO',
      version: p.version,
      date: '2026-03-05',
      delivery_reference: 'Acta 12, entregado a la titular',
    });
    expect(p.next_states).toEqual([]);
    expect(p.events?.map((e) => e.to_state)).toEqual([
      'PENDIENTE',
      'MINUTA_FIRMADA',
      'ESCRITURA',
      'PRESENTADO',
      'OBSERVADO',
      'PRESENTADO',
      'LIQUIDADO',
      'PRESENTADO',
      'INSCRITO',
      'ENTREGADO',
    ]);
    expect(p.events?.[4]?.details).toEqual({ observation: 'Falta plano visado' });
    const history = await db()
      .selectFrom('change_history')
      .select('action')
      .where('entity', '=', 'title_processes')
      .where('record_id', '=', String(p.id))
      .execute();
    expect(history).toHaveLength(10);
  });

  it('a TACHADO título starts again at PRESENTADO with a new título number (the previous round cleared)', async () => {
    const token = await session(TITLES);
    let p = await create(token, await freshSale());
    for (const body of [
      { to: 'MINUTA_FIRMADA' },
      { to: 'ESCRITURA', notary: 'Notaría X', escritura_number: '9' },
      { to: 'PRESENTADO', titulo_number: '2026-1' },
      { to: 'OBSERVADO', observation: 'Observación' },
      { to: 'TACHADO' },
    ])
      p = await moved(token, p.id, { ...body, version: p.version, date: TODAY });
    const again = await move(token, p.id, { to: 'PRESENTADO', version: p.version, date: TODAY });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.titulo_number).toEqual([TITLE_MESSAGES.tituloRequired]);
    p = await moved(token, p.id, { to: 'PRESENTADO', version: p.version, date: TODAY, titulo_number: '2026-2' });
    expect(p).toMatchObject({ state: 'PRESENTADO', titulo_number: '2026-2', observation: null });
  });

  it('a move not in the transitions table is a Spanish 409 and writes nothing; a stale version is a 409', async () => {
    const token = await session(TITLES);
    const p = await create(token, await freshSale());
    const jump = await move(token, p.id, { to: 'INSCRITO', version: p.version, date: TODAY, partida: '11223344', asiento: 'C1' });
    expect(jump.statusCode).toBe(409);
    expect(jump.json().message).toBe(TITLE_MESSAGES.transitionNotAllowed);
    const stale = await move(token, p.id, { to: 'MINUTA_FIRMADA', version: p.version! + 1, date: TODAY });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(STALE_RECORD_MESSAGE);
    const after = titleProcessResponseSchema.parse((await send('GET', `/api/title-processes/${p.id}`, token)).json()).data;
    expect(after).toMatchObject({ state: 'PENDIENTE', version: p.version });
    expect(after.events).toHaveLength(1);
  });

  it('only a CANCELADA sale reaches ESCRITURA; a FINANCIADO one needs its retention-of-title pact with a note', async () => {
    const token = await session(TITLES);
    const toEscritura = { to: 'ESCRITURA', date: TODAY, notary: 'Notaría X', escritura_number: '1' };
    for (const type of ['CONTADO', 'FINANCIADO'] as const) {
      const p = await create(token, await freshSale('EN_CUOTAS', type));
      const signed = await moved(token, p.id, { to: 'MINUTA_FIRMADA', version: p.version, date: TODAY });
      const refused = await move(token, p.id, { ...toEscritura, version: signed.version });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(TITLE_MESSAGES.notPaidOff);
    }
    const financed = await create(token, await freshSale('EN_CUOTAS', 'FINANCIADO'));
    const noNote = await send('PATCH', `/api/title-processes/${financed.id}`, token, {
      version: financed.version,
      retention_pact_stated: true,
    });
    expect(noNote.statusCode).toBe(422);
    expect(noNote.json().errors.retention_pact_note).toEqual([TITLE_MESSAGES.pactNoteRequired]);
    const stated = titleProcessResponseSchema.parse(
      (
        await send('PATCH', `/api/title-processes/${financed.id}`, token, {
          version: financed.version,
          retention_pact_stated: true,
          retention_pact_note: 'Cláusula décima de la minuta',
        })
      ).json(),
    ).data;
    expect(stated.retention_pact_stated).toBe(true);
    const signed = await moved(token, stated.id, { to: 'MINUTA_FIRMADA', version: stated.version, date: TODAY });
    expect((await moved(token, signed.id, { ...toEscritura, version: signed.version })).state).toBe('ESCRITURA');
    // A cash sale's pact changes nothing.
    const cash = await create(token, await freshSale('EN_CUOTAS', 'CONTADO'), { retention_pact_stated: true, retention_pact_note: 'x' });
    const cashSigned = await moved(token, cash.id, { to: 'MINUTA_FIRMADA', version: cash.version, date: TODAY });
    expect((await move(token, cash.id, { ...toEscritura, version: cashSigned.version })).statusCode).toBe(409);
  });

  it('one process per sale (409), none for an annulled or unknown sale', async () => {
    const token = await session(TITLES);
    const sale = await freshSale();
    await create(token, sale);
    const twice = await send('POST', '/api/title-processes', token, { sale_id: sale });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(TITLE_MESSAGES.duplicate);
    const annulled = await send('POST', '/api/title-processes', token, { sale_id: await freshSale('ANULADA') });
    expect(annulled.statusCode).toBe(409);
    expect(annulled.json().message).toBe(TITLE_MESSAGES.saleAnnulled);
    const unknown = await send('POST', '/api/title-processes', token, { sale_id: 999_999 });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.sale_id).toEqual([TITLE_MESSAGES.saleNotFound]);
  });

  it('bad input is a Spanish 4xx: malformed ids, unknown states, impossible or future dates, unknown fields', async () => {
    const token = await session(TITLES);
    const p = await create(token, await freshSale());
    for (const url of ['/api/title-processes/abc', '/api/title-processes/0', '/api/title-processes/1e3', '/api/title-processes/999999'])
      expect((await send('GET', url, token)).statusCode, url).toBe(404);
    expect((await move(token, 999_999, { to: 'MINUTA_FIRMADA', version: 1, date: TODAY })).statusCode).toBe(404);
    const cases: [object, string][] = [
      [{ to: 'VENDIDO', version: p.version, date: TODAY }, 'to'],
      [{ to: 'MINUTA_FIRMADA', version: p.version, date: '2026-02-30' }, 'date'],
      [{ to: 'MINUTA_FIRMADA', version: p.version, date: '2026-13-01' }, 'date'],
      [{ to: 'MINUTA_FIRMADA', version: p.version, date: '02/03/2026' }, 'date'],
      [{ to: 'MINUTA_FIRMADA', version: p.version, date: '2026-03-03' }, 'date'],
      [{ to: 'MINUTA_FIRMADA', version: p.version, date: '2026-03-01' }, 'date'],
      [{ to: 'MINUTA_FIRMADA', version: p.version, date: TODAY, extra: 1 }, 'extra'],
      [{ to: 'MINUTA_FIRMADA', date: TODAY }, 'version'],
    ];
    for (const [body, field] of cases) {
      const res = await move(token, p.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().errors[field], JSON.stringify(body)).toBeDefined();
      expect(res.json().message).toMatch(/[a-záéíóú]/i);
    }
    expect((await move(token, p.id, { to: 'MINUTA_FIRMADA', version: p.version, date: '2026-03-03' })).json().errors.date).toEqual([
      TITLE_MESSAGES.dateInFuture,
    ]);
    for (const query of ['state=VENDIDO', 'subdivision_id=abc', 'per_page=1000', 'sort=precio'])
      expect((await send('GET', `/api/title-processes?${query}`, token)).statusCode, query).toBe(422);
    expect((await send('POST', '/api/title-processes', token, { sale_id: 'x' })).statusCode).toBe(422);
    expect((await send('GET', '/api/public-holidays?year=20x6', token)).statusCode).toBe(422);
  });

  it('lists by state, subdivision and text, with days in state and deadline; the board counts every state', async () => {
    const token = await session(TITLES);
    const subdivision = await createSubdivision(db());
    const a = await create(token, await freshSale('CANCELADA', 'CONTADO', subdivision.id));
    await create(token, await freshSale('CANCELADA', 'CONTADO', subdivision.id));
    let p = await moved(token, a.id, { to: 'MINUTA_FIRMADA', version: a.version, date: TODAY });
    p = await moved(token, p.id, { to: 'ESCRITURA', version: p.version, date: TODAY, notary: 'N', escritura_number: '1' });
    p = await moved(token, p.id, { to: 'PRESENTADO', version: p.version, date: TODAY, titulo_number: '2026-777' });
    const list = async (query: string) => {
      const res = await send('GET', `/api/title-processes?${query}`, token);
      expect(res.statusCode, res.body).toBe(200);
      return titleProcessesPageSchema.parse(res.json());
    };
    const here = `subdivision_id=${subdivision.id}`;
    expect((await list(`state=PRESENTADO&${here}`)).data.map((r) => r.id)).toEqual([a.id]);
    expect((await list(here)).meta.total).toBe(2);
    expect((await list('q=2026-777')).data.map((r) => r.id)).toEqual([a.id]);
    expect((await list(`q=V-${String(p.sale.id).padStart(6, '0')}`)).data.map((r) => r.id)).toEqual([a.id]);
    expect((await list(`q=quispe&${here}`)).meta.total).toBe(2);
    expect((await list(`q=nadie&${here}`)).meta.total).toBe(0);
    expect((await list(`sort=deadline&${here}`)).data.map((r) => r.id)[0]).toBe(a.id);
    expect((await list(`sort=-deadline&${here}`)).data.map((r) => r.id)[0]).toBe(a.id);
    const row = (await list(`state=PRESENTADO&${here}`)).data[0]!;
    expect(row.presentation?.deadline).toBe('2026-04-22');
    // On the warning day the notice is due.
    ctx().clock.set('2026-04-15T15:00:00.000Z');
    const board = titleBoardResponseSchema.parse((await send('GET', `/api/title-processes/board?${here}`, token)).json()).data;
    expect(board.counts.map((c) => c.state)).toEqual([...TITLE_STATES]);
    expect(board.counts.find((c) => c.state === 'PRESENTADO')?.count).toBe(1);
    expect(board.counts.find((c) => c.state === 'PENDIENTE')?.count).toBe(1);
    expect(board).toMatchObject({ total: 2, notice_due: 1 });
    expect((await list(`state=PRESENTADO&${here}`)).data[0]).toMatchObject({ days_in_state: 44, presentation: { notice_due: true } });
  });

  it('public holidays: seeded for 2026–2027, edited by the administrator only, and the deadline follows them', async () => {
    const titles = await session(TITLES);
    const admin = await session(ADMIN);
    const y2026 = publicHolidaysPageSchema.parse((await send('GET', '/api/public-holidays?year=2026&per_page=100', titles)).json());
    expect(y2026.meta.total).toBe(16);
    expect(y2026.data.map((h) => h.date)).toContain('2026-04-03');
    expect(
      publicHolidaysPageSchema.parse((await send('GET', '/api/public-holidays?year=2027', titles)).json()).data.map((h) => h.date),
    ).toContain('2027-03-25');
    expect((await send('POST', '/api/public-holidays', titles, { date: '2026-03-10', name: 'Día no laborable' })).statusCode).toBe(403);
    const created = await send('POST', '/api/public-holidays', admin, { date: '2026-03-10', name: 'Día no laborable' });
    expect(created.statusCode, created.body).toBe(201);
    const holiday = publicHolidayResponseSchema.parse(created.json()).data;
    const dup = await send('POST', '/api/public-holidays', admin, { date: '2026-03-10', name: 'Otra vez' });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors.date).toEqual([TITLE_MESSAGES.holidayDuplicate]);
    expect((await send('POST', '/api/public-holidays', admin, { date: '2026-02-29', name: 'x' })).statusCode).toBe(422);
    // A process presented today now runs one working day longer.
    let p = await create(titles, await freshSale());
    p = await moved(titles, p.id, { to: 'MINUTA_FIRMADA', version: p.version, date: TODAY });
    p = await moved(titles, p.id, { to: 'ESCRITURA', version: p.version, date: TODAY, notary: 'N', escritura_number: '1' });
    p = await moved(titles, p.id, { to: 'PRESENTADO', version: p.version, date: TODAY, titulo_number: '2026-5' });
    expect(p.presentation?.deadline).toBe('2026-04-23');
    const renamed = await send('PATCH', `/api/public-holidays/${holiday.id}`, admin, {
      version: holiday.version,
      name: 'Feriado regional',
    });
    expect(publicHolidayResponseSchema.parse(renamed.json()).data.name).toBe('Feriado regional');
    expect((await send('PATCH', `/api/public-holidays/${holiday.id}`, admin, { version: holiday.version, name: 'x' })).statusCode).toBe(
      409,
    );
    expect((await send('DELETE', `/api/public-holidays/${holiday.id}`, admin)).statusCode).toBe(204);
    expect((await send('DELETE', `/api/public-holidays/${holiday.id}`, admin)).statusCode).toBe(404);
    const entries = await db()
      .selectFrom('change_history')
      .select('action')
      .where('entity', '=', 'public_holidays')
      .orderBy('id')
      .execute();
    expect(entries.map((e) => e.action)).toEqual(['CREATE', 'UPDATE', 'DELETE']);
    // The change history names them by their business labels (docs/decisions.md "Historial de cambios: records by their business labels").
    const auditor = await session([MODULE.historial]);
    const labels = async (entity: string) => {
      const res = await send('GET', `/api/change-history?entity=${entity}&per_page=100`, auditor);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { data: Array<{ record_label: string | null }> }).data.map((e) => e.record_label);
    };
    expect(await labels('public_holidays')).toContain('Feriado regional (2026-03-10)');
    expect(await labels('title_processes')).toContain(`Título de V-${String(p.sale.id).padStart(6, '0')}`);
  });
  it('the deadline job warns the titles staff once per asiento, from 5 working days before the deadline', async () => {
    const { id: staffId, token } = await staffWith(TITLES);
    let p = await create(token, await freshSale());
    for (const body of [
      { to: 'MINUTA_FIRMADA' },
      { to: 'ESCRITURA', notary: 'N', escritura_number: '1' },
      { to: 'PRESENTADO', titulo_number: '2026-4242' },
    ])
      p = await moved(token, p.id, { ...body, version: p.version, date: TODAY });
    const broadcaster = recordingBroadcaster();
    const job = new TitleDeadlineJob({ db: db(), clock: ctx().clock, broadcaster, log: { error: () => undefined } });
    const mine = () =>
      db()
        .selectFrom('notifications')
        .select(['title', 'detail'])
        .where('recipient_type', '=', 'COLLABORATOR')
        .where('recipient_id', '=', staffId)
        .where('detail', 'like', '%2026-4242%')
        .execute();
    ctx().clock.set('2026-04-14T15:00:00.000Z');
    await job.runPass();
    expect(await mine()).toHaveLength(0);
    ctx().clock.set('2026-04-15T15:00:00.000Z');
    await job.runPass();
    await job.runPass();
    const sent = await mine();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.title).toBe('Asiento de presentación por vencer');
    expect(sent[0]?.detail).toContain('22/04/2026');
    expect(broadcaster.events.length).toBeGreaterThan(0);
    await job.stop();
  });
});
