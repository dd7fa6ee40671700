import { describe, expect, it } from 'vitest';
import { ACTION, MODULE, SUBMODULE, type Permission } from '../../src/schemas/permissions';
import { LOT_HOLD_MESSAGES, lotHoldResponseSchema, lotHoldsPageSchema } from '../../src/schemas/proyectos/lot-holds';
import { lotStatusHistoryPageSchema, lotStatusPendingResponseSchema } from '../../src/schemas/proyectos/projects';
import { createManualClock } from '../../server/clock';
import { ReservationExpiry } from '../../server/modules/comercio/reservation-expiry';
import { createLot, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, recordingBroadcaster, useTestApp, useTestDatabase } from './harness';

/**
 * Lot holds (docs/domain.md "Lot holds"; docs/security.md 31.11): a hand-made hold (SEPARADO without
 * reservation, BLOQUEADO, RESERVA_COMERCIAL) needs an end date within 90 days and a supervisor's
 * approval; the expiry job frees the lot after the end date. The test clock's today (Lima) is 2026-03-02.
 */

const AGENT: readonly Permission[] = [MODULE.proyectos, SUBMODULE.lotizaciones];
const SUPERVISOR: readonly Permission[] = [...AGENT, ACTION.aprobarBloqueos];

describe.each(dialects)('lot holds (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  const session = async (permissions: readonly Permission[]) => {
    const staff = await createStaff(db(), { permissions, clock: ctx().clock });
    return { id: staff.id, token: await createSession(db(), staff) };
  };
  const send = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const lotStatus = async (id: number) =>
    (await db().selectFrom('lots').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
  const freshLot = async () => createLot(db(), (await createSubdivision(db())).id);

  it('an end date is required, not before today and at most 90 days ahead (Spanish 422 on until)', async () => {
    const agent = await session(AGENT);
    const lot = await freshLot();
    const cases: [object, string][] = [
      [{ status: 'RESERVA_COMERCIAL', reason: 'Cliente VIP' }, LOT_HOLD_MESSAGES.untilRequired],
      [{ status: 'RESERVA_COMERCIAL', reason: 'Cliente VIP', until: '2026-03-01' }, LOT_HOLD_MESSAGES.untilPast],
      [{ status: 'RESERVA_COMERCIAL', reason: 'Cliente VIP', until: '2026-06-01' }, LOT_HOLD_MESSAGES.untilTooFar],
      [{ status: 'SEPARADO' }, LOT_HOLD_MESSAGES.untilRequired],
    ];
    for (const [body, message] of cases) {
      const res = await send('POST', `/api/lots/${lot}/status`, agent.token, body);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors.until).toEqual([message]);
    }
    // 90 days after 2026-03-02 is 2026-05-31: accepted.
    expect(
      (await send('POST', `/api/lots/${lot}/status`, agent.token, { status: 'BLOQUEADO', reason: 'x', until: '2026-05-31' })).statusCode,
    ).toBe(202);
  });

  it('an agent’s hold waits for a supervisor (202, lot unchanged); the supervisor sees it and approves it; the agent cannot approve', async () => {
    const agent = await session(AGENT);
    const boss = await session(SUPERVISOR);
    const lot = await freshLot();
    const asked = await send('POST', `/api/lots/${lot}/status`, agent.token, {
      status: 'RESERVA_COMERCIAL',
      reason: 'Cliente VIP',
      until: '2026-03-20',
    });
    expect(asked.statusCode, asked.body).toBe(202);
    const answer = lotStatusPendingResponseSchema.parse(asked.json());
    expect(answer.message).toBe(LOT_HOLD_MESSAGES.pending);
    expect(answer.data.status).toBe('DISPONIBLE');
    expect(answer.hold).toMatchObject({
      state: 'PENDIENTE',
      status: 'RESERVA_COMERCIAL',
      until: '2026-03-20',
      requested_by: { id: agent.id },
    });
    expect(await lotStatus(lot)).toBe('DISPONIBLE');
    const again = await send('POST', `/api/lots/${lot}/status`, agent.token, { status: 'BLOQUEADO', reason: 'x', until: '2026-03-20' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(LOT_HOLD_MESSAGES.alreadyPending);

    const theirs = lotHoldsPageSchema.parse((await send('GET', '/api/lot-holds', agent.token)).json());
    expect(theirs.data.map((h) => h.id)).toEqual([answer.hold.id]);
    const pending = lotHoldsPageSchema.parse((await send('GET', '/api/lot-holds?state=PENDIENTE', boss.token)).json());
    expect(pending.data.map((h) => h.id)).toContain(answer.hold.id);

    expect((await send('POST', `/api/lot-holds/${answer.hold.id}/approve`, agent.token, {})).statusCode).toBe(403);
    const approved = await send('POST', `/api/lot-holds/${answer.hold.id}/approve`, boss.token, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(lotHoldResponseSchema.parse(approved.json()).data).toMatchObject({ state: 'APROBADA', decided_by: { id: boss.id } });
    expect(await lotStatus(lot)).toBe('RESERVA_COMERCIAL');
    const history = lotStatusHistoryPageSchema.parse((await send('GET', `/api/lots/${lot}/status-history`, boss.token)).json());
    expect(history.data[0]).toMatchObject({ from_status: 'DISPONIBLE', to_status: 'RESERVA_COMERCIAL', reason: 'Cliente VIP' });
    const twice = await send('POST', `/api/lot-holds/${answer.hold.id}/reject`, boss.token, {});
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(LOT_HOLD_MESSAGES.notPending);
  });

  it('a rejected request leaves the lot; a supervisor’s own hold applies at once', async () => {
    const agent = await session(AGENT);
    const boss = await session(SUPERVISOR);
    const lot = await freshLot();
    const asked = lotStatusPendingResponseSchema.parse(
      (await send('POST', `/api/lots/${lot}/status`, agent.token, { status: 'BLOQUEADO', reason: 'Revisión', until: '2026-03-10' })).json(),
    );
    const rejected = await send('POST', `/api/lot-holds/${asked.hold.id}/reject`, boss.token, { reason: 'Sin sustento' });
    expect(lotHoldResponseSchema.parse(rejected.json()).data).toMatchObject({ state: 'RECHAZADA', decision_reason: 'Sin sustento' });
    expect(await lotStatus(lot)).toBe('DISPONIBLE');

    const own = await send('POST', `/api/lots/${lot}/status`, boss.token, { status: 'BLOQUEADO', reason: 'Revisión', until: '2026-03-10' });
    expect(own.statusCode, own.body).toBe(200);
    expect(await lotStatus(lot)).toBe('BLOQUEADO');
    const approved = lotHoldsPageSchema.parse((await send('GET', '/api/lot-holds?state=APROBADA', boss.token)).json());
    expect(approved.data.find((h) => h.lot.id === lot)).toMatchObject({ state: 'APROBADA', requested_by: { id: boss.id } });
  });

  it('the expiry job frees a lot the day after its hold’s end date, once; a hold released by hand before is left alone', async () => {
    const boss = await session(SUPERVISOR);
    const held = await freshLot();
    const released = await freshLot();
    for (const lot of [held, released])
      expect(
        (await send('POST', `/api/lots/${lot}/status`, boss.token, { status: 'RESERVA_COMERCIAL', reason: 'Campaña', until: '2026-03-05' }))
          .statusCode,
      ).toBe(200);
    // Freed by hand, then held again by a later hold: the first hold's end must not free it.
    expect((await send('POST', `/api/lots/${released}/status`, boss.token, { status: 'DISPONIBLE' })).statusCode).toBe(200);
    expect(
      (await send('POST', `/api/lots/${released}/status`, boss.token, { status: 'BLOQUEADO', reason: 'x', until: '2026-04-30' }))
        .statusCode,
    ).toBe(200);

    const job = (at: string) =>
      new ReservationExpiry({
        db: db(),
        clock: createManualClock(at),
        broadcaster: recordingBroadcaster(),
        log: { error: () => undefined },
      });
    // The last day of the hold (Lima): nothing ends.
    expect((await job('2026-03-05T20:00:00.000Z').runPass()).holdsEnded).toBe(0);
    const pass = await job('2026-03-06T15:00:00.000Z').runPass();
    expect(pass.holdsEnded).toBe(1);
    expect(await lotStatus(held)).toBe('DISPONIBLE');
    expect(await lotStatus(released)).toBe('BLOQUEADO');
    const history = lotStatusHistoryPageSchema.parse((await send('GET', `/api/lots/${held}/status-history`, boss.token)).json());
    expect(history.data[0]).toMatchObject({
      from_status: 'RESERVA_COMERCIAL',
      to_status: 'DISPONIBLE',
      reason: 'Venció el plazo del bloqueo (hasta 2026-03-05)',
    });
    const states = await db()
      .selectFrom('lot_holds')
      .select(['lot_id', 'state'])
      .where('lot_id', 'in', [held, released])
      .orderBy('id')
      .execute();
    expect(states).toEqual([
      { lot_id: held, state: 'VENCIDA' },
      { lot_id: released, state: 'LIBERADA' },
      { lot_id: released, state: 'APROBADA' },
    ]);
    expect((await job('2026-03-07T15:00:00.000Z').runPass()).holdsEnded).toBe(0);
  });
});
