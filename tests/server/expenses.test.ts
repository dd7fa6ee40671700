import { beforeAll, describe, expect, it } from 'vitest';
import { expenseResponseSchema, expensesPageSchema, EXPENSE_MESSAGES } from '../../src/schemas/reportes/expenses';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { STALE_RECORD_MESSAGE } from '../../src/schemas/versions';
import { createCustomer, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useSharedTestApp, useTestDatabase } from './harness';

/**
 * The expenses register (src/schemas/reportes/expenses.ts; docs/reports.md "Ingresos vs egresos
 * and the expenses register"): CRUD with versions, Spanish 422s, access ('Acceso módulo reportes
 * económicos' for reading and writing; customers and other staff 403; no session 401) and the
 * change history of every create, edit and delete. The test clock's today in Lima is 2026-03-02.
 */
describe.each(dialects)('expenses register (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useSharedTestApp(db);
  let staffId = 0;
  let token = '';
  let other = '';
  let customer = '';
  let penSubdivision = 0;
  let usdSubdivision = 0;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, as = token) =>
    ctx().app.inject({ method, url, headers: bearer(as), ...(payload ? { payload } : {}) });
  const valid = () => ({
    subdivision_id: penSubdivision,
    expense_date: '2026-02-15',
    concept: 'Movimiento de tierras',
    amount: 150_000,
    currency: 'PEN',
    voucher: 'F001-000123',
  });
  const history = (id: number) =>
    db()
      .selectFrom('change_history')
      .select(['action', 'actor_id', 'before', 'after'])
      .where('entity', '=', 'expenses')
      .where('record_id', '=', String(id))
      .orderBy('id')
      .execute();

  beforeAll(async () => {
    const staff = await createStaff(db(), { permissions: [MODULE.reportesEconomicos], clock: ctx().clock });
    staffId = staff.id;
    token = await createSession(db(), staff);
    other = await createSession(db(), await createStaff(db(), { permissions: [MODULE.finanzas, SUBMODULE.pagos, MODULE.reportes] }));
    customer = await createSession(db(), await createCustomer(db()));
    penSubdivision = (await createSubdivision(db(), { name: 'Gastos Soles', currency: 'PEN' })).id;
    usdSubdivision = (await createSubdivision(db(), { name: 'Gastos Dólares', currency: 'USD' })).id;
  });

  it('creates, lists, edits, refuses a stale version (409), deletes; every change in the history', async () => {
    const created = await call('POST', '/api/expenses', valid());
    expect(created.statusCode, created.body).toBe(201);
    const expense = expenseResponseSchema.parse(created.json()).data;
    expect(expense).toMatchObject({
      subdivision: { id: penSubdivision, name: 'Gastos Soles' },
      expense_date: '2026-02-15',
      concept: 'Movimiento de tierras',
      amount: 150_000,
      currency: 'PEN',
      voucher: 'F001-000123',
      version: 1,
    });
    expect(expense.created_by).toContain('Prueba');

    const list = expensesPageSchema.parse(
      (await call('GET', `/api/expenses?subdivision_id=${penSubdivision}&from=2026-02-01&to=2026-02-28`)).json(),
    );
    expect(list.data.map((e) => e.id)).toContain(expense.id);
    expect(list.meta.total).toBe(list.data.length);
    const outside = expensesPageSchema.parse((await call('GET', `/api/expenses?from=2026-03-01&to=2026-03-31`)).json());
    expect(outside.data.map((e) => e.id)).not.toContain(expense.id);

    const edited = await call('PUT', `/api/expenses/${expense.id}`, { ...valid(), amount: 175_000, voucher: '', version: 1 });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(expenseResponseSchema.parse(edited.json()).data).toMatchObject({ amount: 175_000, voucher: null, version: 2 });

    const stale = await call('PUT', `/api/expenses/${expense.id}`, { ...valid(), version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ message: STALE_RECORD_MESSAGE, errors: { version: [STALE_RECORD_MESSAGE] } });
    expect((await call('DELETE', `/api/expenses/${expense.id}?version=1`)).statusCode).toBe(409);
    expect((await call('GET', `/api/expenses/${expense.id}`)).json()).toMatchObject({ data: { amount: 175_000 } });

    expect((await call('DELETE', `/api/expenses/${expense.id}?version=2`)).statusCode).toBe(204);
    expect((await call('GET', `/api/expenses/${expense.id}`)).statusCode).toBe(404);
    expect((await call('PUT', `/api/expenses/${expense.id}`, { ...valid(), version: 2 })).statusCode).toBe(404);

    const changes = await history(expense.id);
    expect(changes.map((c) => c.action)).toEqual(['CREATE', 'UPDATE', 'DELETE']);
    expect(changes.every((c) => c.actor_id === staffId)).toBe(true);
    expect(JSON.parse(changes[1]!.before ?? '{}')).toMatchObject({ amount: 150_000, voucher: 'F001-000123' });
    expect(JSON.parse(changes[1]!.after ?? '{}')).toMatchObject({ amount: 175_000, voucher: null });
    expect(JSON.parse(changes[2]!.before ?? '{}')).toMatchObject({ amount: 175_000, concept: 'Movimiento de tierras' });
  });

  it('keeps currencies apart: a USD subdivision takes USD only', async () => {
    const usd = await call('POST', '/api/expenses', { ...valid(), subdivision_id: usdSubdivision, currency: 'USD', amount: 9_900 });
    expect(usd.statusCode, usd.body).toBe(201);
    const list = expensesPageSchema.parse((await call('GET', `/api/expenses?subdivision_id=${usdSubdivision}`)).json());
    expect(list.data.map((e) => [e.currency, e.amount])).toEqual([['USD', 9_900]]);
    const pen = expensesPageSchema.parse((await call('GET', `/api/expenses?currency=PEN&subdivision_id=${usdSubdivision}`)).json());
    expect(pen.meta.total).toBe(0);
  });

  it('answers bad input with a Spanish 422 and writes nothing', async () => {
    const before = await db()
      .selectFrom('expenses')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const cases: Array<[object, string, string]> = [
      [{ expense_date: '2026-02-30' }, 'expense_date', EXPENSE_MESSAGES.date],
      [{ expense_date: '2026-13-01' }, 'expense_date', EXPENSE_MESSAGES.date],
      [{ expense_date: '1999-12-31' }, 'expense_date', EXPENSE_MESSAGES.dateTooOld],
      [{ expense_date: '2026-03-03' }, 'expense_date', EXPENSE_MESSAGES.futureDate],
      [{ amount: 0 }, 'amount', EXPENSE_MESSAGES.amount],
      [{ amount: -500 }, 'amount', EXPENSE_MESSAGES.amount],
      [{ amount: 10.5 }, 'amount', EXPENSE_MESSAGES.amount],
      [{ amount: 1e15 }, 'amount', EXPENSE_MESSAGES.amountTooLarge],
      [{ concept: '   ' }, 'concept', EXPENSE_MESSAGES.concept],
      [{ concept: 'x'.repeat(201) }, 'concept', EXPENSE_MESSAGES.conceptTooLong],
      [{ voucher: 'F'.repeat(61) }, 'voucher', EXPENSE_MESSAGES.voucherTooLong],
      [{ currency: 'EUR' }, 'currency', EXPENSE_MESSAGES.currency],
      [{ currency: 'USD' }, 'currency', EXPENSE_MESSAGES.currencyMismatch],
      [{ subdivision_id: 999_999 }, 'subdivision_id', EXPENSE_MESSAGES.unknownSubdivision],
      [{ subdivision_id: 2_147_483_648 }, 'subdivision_id', EXPENSE_MESSAGES.unknownSubdivision],
      [{ extra: 1 }, 'extra', 'Campo no permitido'],
    ];
    for (const [change, field, message] of cases) {
      const res = await call('POST', '/api/expenses', { ...valid(), ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(422);
      const body = res.json() as { errors: Record<string, string[]> };
      expect(body.errors[field], `${JSON.stringify(change)} → ${res.body}`).toContain(message);
    }
    const created = expenseResponseSchema.parse((await call('POST', '/api/expenses', valid())).json()).data;
    const noVersion = await call('PUT', `/api/expenses/${created.id}`, valid());
    expect(noVersion.statusCode).toBe(422);
    expect((noVersion.json() as { errors: Record<string, string[]> }).errors.version).toContain(EXPENSE_MESSAGES.version);
    const deleteNoVersion = await call('DELETE', `/api/expenses/${created.id}`);
    expect(deleteNoVersion.statusCode).toBe(422);
    for (const url of ['/api/expenses?per_page=101', '/api/expenses?from=2026-02-30', '/api/expenses?sort=concept', '/api/expenses?x=1'])
      expect((await call('GET', url)).statusCode, url).toBe(422);
    const after = await db()
      .selectFrom('expenses')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n) + 1);
  });

  it('refuses without a session (401), other staff and customers (403)', async () => {
    const created = expenseResponseSchema.parse((await call('POST', '/api/expenses', valid())).json()).data;
    const requests: Array<['GET' | 'POST' | 'PUT' | 'DELETE', string, object | undefined]> = [
      ['GET', '/api/expenses', undefined],
      ['GET', `/api/expenses/${created.id}`, undefined],
      ['POST', '/api/expenses', valid()],
      ['PUT', `/api/expenses/${created.id}`, { ...valid(), version: 1 }],
      ['DELETE', `/api/expenses/${created.id}?version=1`, undefined],
    ];
    for (const [method, url, payload] of requests) {
      const anonymous = await ctx().app.inject({ method, url, ...(payload ? { payload } : {}) });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      expect((await call(method, url, payload, other)).statusCode, `${method} ${url} other staff`).toBe(403);
      expect((await call(method, url, payload, customer)).statusCode, `${method} ${url} customer`).toBe(403);
    }
    expect((await history(created.id)).map((c) => c.action)).toEqual(['CREATE']);
  });
});
