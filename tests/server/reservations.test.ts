import { describe, expect, it } from 'vitest';
import { RESERVATION_MESSAGES, reservationResponseSchema, reservationsPageSchema } from '../../src/schemas/comercio/reservations';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { STALE_RECORD_MESSAGE } from '../../src/schemas/versions';
import { DAY_MS, HOUR_MS, createManualClock } from '../../server/clock';
import { ReservationExpiry } from '../../server/modules/comercio/reservation-expiry';
import { createCrmCustomer, createLot, createRole, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, getWithToken, recordingBroadcaster, useTestApp, useTestDatabase } from './harness';

/** Separaciones: /api/reservations, the 50-request race and the expiry job (issue "CRM and sales"). */

describe.each(dialects)('reservations (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const broadcaster = recordingBroadcaster();
  const ctx = useTestApp(db, {}, { broadcaster });
  let n = 0;

  /** A staff user holding Comercial + ventas, with a token. */
  async function seller() {
    const role = `Ventas ${dialect} ${++n}`;
    await createRole(db(), role, [MODULE.comercial, SUBMODULE.ventas]);
    const staff = await createStaff(db(), { roleNames: [role], clock: ctx().clock });
    return { staff, token: await createSession(db(), staff) };
  }

  /** A DISPONIBLE lot in a fresh USD subdivision, and a customer. */
  async function lotAndCustomer() {
    const subdivision = await createSubdivision(db(), { currency: 'USD' });
    const lotId = await createLot(db(), subdivision.id, { block: 'A', number: String(++n) });
    return { lotId, customerId: await createCrmCustomer(db()) };
  }

  const reserve = (token: string, body: Record<string, unknown>) =>
    ctx().app.inject({ method: 'POST', url: '/api/reservations', headers: bearer(token), payload: body });
  const lotStatus = async (id: number) =>
    (await db().selectFrom('lots').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  it('reserves a DISPONIBLE lot: SEPARADO in the same transaction, with its history', async () => {
    const { token, staff } = await seller();
    const { lotId, customerId } = await lotAndCustomer();
    const res = await reserve(token, { customer_id: customerId, lot_id: lotId, amount: 50_000, conditions_accepted: true });
    expect(res.statusCode).toBe(201);
    const { data } = reservationResponseSchema.parse(res.json());
    expect(data).toMatchObject({
      status: 'PENDIENTE_PAGO',
      amount: 50_000,
      currency: 'USD',
      hold_days: 7,
      agent: { id: staff.id },
      customer: { id: customerId },
      lot: { id: lotId },
    });
    expect(data.number).toBe(`SEP-${String(data.id).padStart(6, '0')}`);
    expect(Date.parse(data.expires_at) - ctx().clock.now().getTime()).toBe(7 * DAY_MS);
    expect(await lotStatus(lotId)).toBe('SEPARADO');
    const change = await db()
      .selectFrom('lot_status_changes')
      .selectAll()
      .where('lot_id', '=', lotId)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    expect(change).toMatchObject({ from_status: 'DISPONIBLE', to_status: 'SEPARADO', user_id: staff.id });
    const entities = await db()
      .selectFrom('change_history')
      .select('entity')
      .where((eb) => eb.or([eb('entity', '=', 'reservations'), eb.and([eb('entity', '=', 'lots'), eb('record_id', '=', String(lotId))])]))
      .where('action', '<>', 'CREATE')
      .execute();
    expect(entities.map((e) => e.entity)).toContain('lots');
    const list = reservationsPageSchema.parse((await getWithToken(ctx().app, `/api/reservations?lot_id=${lotId}`, token)).json());
    expect(list.data.map((r) => r.id)).toEqual([data.id]);
  });

  it('answers 422 on bad input and 409 on a lot that is not DISPONIBLE, storing nothing', async () => {
    const { token } = await seller();
    const { lotId, customerId } = await lotAndCustomer();
    const inactive = await createCrmCustomer(db(), { status: 'INACTIVO' });
    const cases: Array<[Record<string, unknown>, string, string | null]> = [
      [{ conditions_accepted: false }, 'conditions_accepted', RESERVATION_MESSAGES.conditionsRequired],
      [{ amount: 0 }, 'amount', 'El monto debe ser mayor que cero'],
      [{ hold_days: 31 }, 'hold_days', 'Entre 1 y 30 días'],
      [{ customer_id: 999_999 }, 'customer_id', RESERVATION_MESSAGES.unknownCustomer],
      [{ customer_id: inactive }, 'customer_id', RESERVATION_MESSAGES.inactiveCustomer],
      [{ lot_id: 999_999 }, 'lot_id', RESERVATION_MESSAGES.unknownLot],
      [{ price: 1 }, '', null],
    ];
    for (const [overrides, field, message] of cases) {
      const res = await reserve(token, { customer_id: customerId, lot_id: lotId, amount: 100, conditions_accepted: true, ...overrides });
      expect(res.statusCode, JSON.stringify(overrides)).toBe(422);
      if (message) expect(res.json().errors[field]).toEqual([message]);
    }
    expect(await lotStatus(lotId)).toBe('DISPONIBLE');
    const sold = await createLot(db(), (await createSubdivision(db())).id, { status: 'VENDIDO' });
    const refused = await reserve(token, { customer_id: customerId, lot_id: sold, amount: 100, conditions_accepted: true });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(RESERVATION_MESSAGES.lotUnavailable);
  });

  it('50 agents reserving one lot at the same moment: exactly one wins, 49 get 409', async () => {
    const { token } = await seller();
    const { lotId } = await lotAndCustomer();
    const customers = await Promise.all(Array.from({ length: 50 }, () => createCrmCustomer(db())));
    const answers = await Promise.all(
      customers.map((customerId) => reserve(token, { customer_id: customerId, lot_id: lotId, amount: 10_000, conditions_accepted: true })),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    for (const a of answers.filter((x) => x.statusCode === 409)) expect(a.json().message).toBe(RESERVATION_MESSAGES.lotUnavailable);
    const live = await db().selectFrom('reservations').select('id').where('lot_id', '=', lotId).execute();
    expect(live).toHaveLength(1);
    expect(await lotStatus(lotId)).toBe('SEPARADO');
    const changes = await db()
      .selectFrom('lot_status_changes')
      .select('id')
      .where('lot_id', '=', lotId)
      .where('to_status', '=', 'SEPARADO')
      .execute();
    expect(changes).toHaveLength(1);
  });

  it('annuls with a reason and frees the lot; again is 409, a stale version 409', async () => {
    const { token } = await seller();
    const { lotId, customerId } = await lotAndCustomer();
    const created = reservationResponseSchema.parse(
      (await reserve(token, { customer_id: customerId, lot_id: lotId, amount: 100, conditions_accepted: true })).json(),
    ).data;
    const cancel = (body: Record<string, unknown>) =>
      ctx().app.inject({ method: 'POST', url: `/api/reservations/${created.id}/cancel`, headers: bearer(token), payload: body });
    const stale = await cancel({ reason: 'El cliente desistió', version: 7 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(STALE_RECORD_MESSAGE);
    expect((await cancel({ reason: 'x' })).statusCode).toBe(422);
    // Not freed by a manual status change while the reservation holds it.
    const manual = await ctx().app.inject({
      method: 'POST',
      url: `/api/lots/${lotId}/status`,
      headers: bearer(await createSession(db(), await createStaff(db(), { permissions: [MODULE.proyectos, SUBMODULE.lotizaciones] }))),
      payload: { status: 'DISPONIBLE', reason: 'Liberar a mano' },
    });
    expect(manual.statusCode).toBe(409);
    const res = await cancel({ reason: 'El cliente desistió', version: 1 });
    expect(res.statusCode).toBe(200);
    expect(reservationResponseSchema.parse(res.json()).data).toMatchObject({ status: 'ANULADA', cancel_reason: 'El cliente desistió' });
    expect(await lotStatus(lotId)).toBe('DISPONIBLE');
    const again = await cancel({ reason: 'Otra vez' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(RESERVATION_MESSAGES.notLive);
    // The lot is free for the next customer.
    expect((await reserve(token, { customer_id: customerId, lot_id: lotId, amount: 100, conditions_accepted: true })).statusCode).toBe(201);
  });

  it('POST /dev/clock (NODE_ENV=test only) moves the clock and runs the expiry at once: the lot is free again', async () => {
    const { token } = await seller();
    const { lotId, customerId } = await lotAndCustomer();
    expect((await reserve(token, { customer_id: customerId, lot_id: lotId, amount: 50_000, conditions_accepted: true })).statusCode).toBe(
      201,
    );
    const before = ctx().clock.now().getTime();
    const bad = await ctx().app.inject({ method: 'POST', url: '/dev/clock', payload: { advance_ms: -1 } });
    expect(bad.statusCode).toBe(422);
    const moved = await ctx().app.inject({ method: 'POST', url: '/dev/clock', payload: { advance_ms: 8 * DAY_MS } });
    expect(moved.statusCode).toBe(200);
    expect(Date.parse(moved.json().now) - before).toBe(8 * DAY_MS);
    expect(await lotStatus(lotId)).toBe('DISPONIBLE');
    const reservation = await db().selectFrom('reservations').select('status').where('lot_id', '=', lotId).executeTakeFirstOrThrow();
    expect(reservation.status).toBe('VENCIDA');
  });

  it('the expiry job: reminds the agent the day before, expires at the due time once (two processes), frees the lot', async () => {
    const { token, staff } = await seller();
    const { lotId, customerId } = await lotAndCustomer();
    const start = ctx().clock.now();
    const created = reservationResponseSchema.parse(
      (await reserve(token, { customer_id: customerId, lot_id: lotId, amount: 100, hold_days: 2, conditions_accepted: true })).json(),
    ).data;
    // Two "server processes" over the same database, with their own clocks moved by hand.
    const clock = createManualClock(start);
    const jobs = [0, 1].map(() => new ReservationExpiry({ db: db(), clock, broadcaster, log: { error: () => undefined } }));
    const notificationsOf = async () =>
      db()
        .selectFrom('notifications')
        .select('title')
        .where('recipient_type', '=', 'COLLABORATOR')
        .where('recipient_id', '=', staff.id)
        .execute();

    expect(await jobs[0]!.runPass()).toEqual({ expired: 0, reminded: 0, holdsEnded: 0 });
    clock.advance(DAY_MS + HOUR_MS);
    await Promise.all(jobs.map((j) => j.runPass()));
    expect((await notificationsOf()).map((x) => x.title)).toEqual([RESERVATION_MESSAGES.expiringTitle]);
    expect(await lotStatus(lotId)).toBe('SEPARADO');

    clock.advance(DAY_MS);
    await Promise.all(jobs.map((j) => j.runPass()));
    const row = await db().selectFrom('reservations').select(['status', 'version']).where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'VENCIDA', version: 2 });
    expect(await lotStatus(lotId)).toBe('DISPONIBLE');
    expect((await notificationsOf()).map((x) => x.title).sort()).toEqual(
      [RESERVATION_MESSAGES.expiredTitle, RESERVATION_MESSAGES.expiringTitle].sort(),
    );
    const freed = await db()
      .selectFrom('lot_status_changes')
      .selectAll()
      .where('lot_id', '=', lotId)
      .where('to_status', '=', 'DISPONIBLE')
      .where('from_status', '=', 'SEPARADO')
      .execute();
    expect(freed).toHaveLength(1);
    expect(freed[0]?.user_id).toBeNull();
    expect(await jobs[1]!.runPass()).toEqual({ expired: 0, reminded: 0, holdsEnded: 0 });
  });

  it('refuses staff without Comercial + ventas and customers', async () => {
    const plain = await createSession(db(), await createStaff(db()));
    expect((await getWithToken(ctx().app, '/api/reservations', plain)).statusCode).toBe(403);
  });
});
