import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../src/schemas/permissions';
import { createCrmCustomer, createLot, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * Bad input on the routes of the selling agent, the annulment settlement and the lot holds
 * (docs/security.md "Every bad input is a 4xx"): malformed, negative, fractional, huge and unknown
 * ids and filters, unknown body keys, wrong types and oversized reasons are a Spanish 4xx — never a
 * 500 — and nothing is written.
 */
describe.each(dialects)('bad input on proposed-agent, annulment and lot holds (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  async function admin() {
    const staff = await createStaff(db(), { permissions: ALL_PERMISSIONS, clock: ctx().clock });
    return createSession(db(), staff);
  }
  const send = (method: 'GET' | 'POST', url: string, token: string, payload?: unknown) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });

  /** Every answer is a 4xx with a Spanish message (or the JSON 404), never a 5xx. */
  function expectClientError(res: { statusCode: number; body: string }, label: string) {
    expect(res.statusCode, `${label}: ${res.body}`).toBeGreaterThanOrEqual(400);
    expect(res.statusCode, `${label}: ${res.body}`).toBeLessThan(500);
    const body = JSON.parse(res.body) as { message?: unknown };
    expect(typeof body.message, label).toBe('string');
    expect(body.message as string, label).not.toMatch(/^(Internal|Bad Request|Not Found|querystring|body|params)\b/);
  }

  const BAD_IDS = ['abc', '0', '-1', '1.5', '99999999999999999999', '%00', '1;drop'];

  it('GET /api/sales/proposed-agent: bad lot and customer lists are a 422, an unknown lot a 404', async () => {
    const token = await admin();
    for (const query of [
      '',
      'lot_id=',
      ...BAD_IDS.map((id) => `lot_id=${id}`),
      'lot_id=1&customer_ids=a,b',
      'lot_id=1&customer_ids=1,,2',
      'lot_id=1&customer_ids=1,2,3,4,5,6,7',
      'lot_id=1&customer_ids=99999999999',
      'lot_id=1&unknown=1',
      'lot_id=1&lot_id=2',
    ]) {
      expectClientError(await send('GET', `/api/sales/proposed-agent?${query}`, token), `proposed-agent?${query}`);
    }
    const unknownLot = await send('GET', '/api/sales/proposed-agent?lot_id=999999', token);
    expectClientError(unknownLot, 'unknown lot');
    const subdivision = await createSubdivision(db());
    const lotId = await createLot(db(), subdivision.id, { block: 'Z', number: '1' });
    const unknownCustomer = await send('GET', `/api/sales/proposed-agent?lot_id=${lotId}&customer_ids=9999999`, token);
    expect(unknownCustomer.statusCode, unknownCustomer.body).toBeLessThan(500);
    const customerId = await createCrmCustomer(db(), {});
    const ok = await send('GET', `/api/sales/proposed-agent?lot_id=${lotId}&customer_ids=${customerId}`, token);
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('GET /api/sales/{id}/annulment and POST /api/sales/{id}/annul: malformed or unknown ids are a 404, bad bodies a 422', async () => {
    const token = await admin();
    for (const id of [...BAD_IDS, '1e3', '999999']) {
      expectClientError(await send('GET', `/api/sales/${encodeURIComponent(id)}/annulment`, token), `annulment ${id}`);
      expectClientError(await send('POST', `/api/sales/${encodeURIComponent(id)}/annul`, token, { reason: 'Prueba' }), `annul ${id}`);
    }
    for (const payload of [
      {},
      { reason: 123 },
      { reason: 'x'.repeat(10_000) },
      { reason: 'Prueba', settlement: { kind: 'NADA' } },
      { reason: 'Prueba', settlement: { kind: 'REEMBOLSO', penalty: '-1' } },
      { reason: 'Prueba', settlement: { kind: 'REEMBOLSO', penalty: '1e400' } },
      { reason: 'Prueba', settlement: { kind: 'CREDITO', target_sale_id: 'abc' } },
      { reason: 'Prueba', unknown: true },
    ]) {
      expectClientError(
        await send('POST', '/api/sales/999999/annul', token, payload),
        `annul body ${JSON.stringify(payload).slice(0, 80)}`,
      );
    }
  });

  it('GET /api/lot-holds: unknown states, bad subdivisions and paging are a 422; POST approve/reject: bad ids 404, bad bodies 422, nothing written', async () => {
    const token = await admin();
    for (const query of [
      'state=FOO',
      'state=',
      ...BAD_IDS.map((id) => `subdivision_id=${encodeURIComponent(id)}`),
      'page=0',
      'page=abc',
      'per_page=100000',
      'sort=password',
      'unknown=1',
    ]) {
      expectClientError(await send('GET', `/api/lot-holds?${query}`, token), `lot-holds?${query}`);
    }
    for (const action of ['approve', 'reject']) {
      for (const id of [...BAD_IDS, '999999']) {
        expectClientError(await send('POST', `/api/lot-holds/${encodeURIComponent(id)}/${action}`, token, {}), `${action} ${id}`);
      }
      for (const payload of [{ reason: 5 }, { reason: 'x'.repeat(301) }, { unknown: 1 }, []]) {
        expectClientError(
          await send('POST', `/api/lot-holds/999999/${action}`, token, payload),
          `${action} body ${JSON.stringify(payload)}`,
        );
      }
    }
    const holds = await db()
      .selectFrom('lot_holds')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(holds.n)).toBe(0);
  });
});
