import { describe, expect, it } from 'vitest';
import { SALES_REPORT_MESSAGES } from '../../src/schemas/comercio/sales-report';
import { CALENDAR_DATE_MESSAGES } from '../../src/schemas/common';
import { INSTALMENT_MESSAGES } from '../../src/schemas/finanzas/instalments';
import { PAYMENT_MESSAGES } from '../../src/schemas/finanzas/payments';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { subdivisionResponseSchema } from '../../src/schemas/proyectos/projects';
import { createCustomer, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * Every date a request sends is a real calendar day between 1900 and 2100 (docs/domain.md
 * "Dates", docs/security.md 30.12): "2026-13-45", "2027-02-30" and "0000-00-00" were stored and
 * read back. Each request field and query parameter holding a date, on both dialects.
 */

type Bad = 'invalid' | 'outOfRange';

/** Dates of the right form that name no day, and real days outside the bounds. */
const BAD_DATES: Array<[string, Bad]> = [
  ['2026-13-45', 'invalid'],
  ['2027-02-30', 'invalid'],
  ['0000-00-00', 'invalid'],
  ['2026-04-31', 'invalid'],
  ['1899-12-31', 'outOfRange'],
  ['2101-01-01', 'outOfRange'],
];

/** The message of a bad date on a field whose own "invalid date" message is `invalid`. */
const messageFor = (kind: Bad, invalid: string = CALENDAR_DATE_MESSAGES.invalid) =>
  kind === 'outOfRange' ? CALENDAR_DATE_MESSAGES.outOfRange : invalid;

/** One request carrying a bad date in `field`. */
interface DateCase {
  method: 'GET' | 'POST';
  url: string;
  payload?: object;
  field: string;
  /** The field's own message for a date that is not one (default "Fecha inválida"). */
  invalid?: string;
  customer?: boolean;
}

describe.each(dialects)('calendar dates in requests (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  it('licence_date: impossible or out-of-range days are a 422 on the field, nothing stored; a real one (29 Feb 2024) is stored', async () => {
    const token = await createSession(db(), await createStaff(db(), { permissions: [MODULE.proyectos, SUBMODULE.lotizaciones] }));
    const { key, id } = await createSubdivision(db());
    const patch = (payload: object) =>
      ctx().app.inject({ method: 'PATCH', url: `/api/subdivisions/${key}`, headers: bearer(token), payload });
    for (const [date, kind] of BAD_DATES) {
      const res = await patch({ licence_date: date });
      expect(res.statusCode, `${date}: ${res.body}`).toBe(422);
      expect(res.json().errors, date).toEqual({ licence_date: [messageFor(kind)] });
    }
    const stored = await db().selectFrom('subdivisions').select('licence_date').where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.licence_date).toBeNull();
    const good = await patch({ licence_date: '2024-02-29' });
    expect(good.statusCode, good.body).toBe(200);
    expect(subdivisionResponseSchema.parse(good.json()).data.licence_date).toBe('2024-02-29');
  });

  it('every other request date — sale, schedule, terms, payments, filters, reports, history, birthdays — refuses them too', async () => {
    const permissions = [
      MODULE.comercial,
      SUBMODULE.ventas,
      SUBMODULE.reporteVentas,
      MODULE.finanzas,
      SUBMODULE.pagos,
      MODULE.crm,
      SUBMODULE.clientes,
      MODULE.historial,
    ];
    const token = await createSession(db(), await createStaff(db(), { permissions }));
    const customerToken = await createSession(db(), await createCustomer(db()));
    const terms = { holders: [{ customer_id: 1, role: 'TITULAR', share_percent: '100' }], instalments: 3, lot_id: 1 };
    const operation = PAYMENT_MESSAGES.operationDate;
    const cases = (date: string): DateCase[] => [
      { method: 'POST', url: '/api/sales', payload: { ...terms, sale_date: date }, field: 'sale_date' },
      { method: 'POST', url: '/api/sales', payload: { ...terms, first_due_date: date }, field: 'first_due_date' },
      {
        method: 'POST',
        url: '/api/sales',
        payload: { ...terms, schedule: [{ kind: 'CUOTA', number: 1, due_date: date, amount: 100 }] },
        field: 'schedule.0.due_date',
      },
      {
        method: 'POST',
        url: '/api/quotes',
        payload: { lot_id: 1, customer_id: 1, instalments: 3, first_due_date: date },
        field: 'first_due_date',
      },
      {
        method: 'POST',
        url: '/api/payments',
        payload: { sale_id: 1, amount: 100, method: 'EFECTIVO', operation_date: date },
        field: 'operation_date',
        invalid: operation,
      },
      { method: 'GET', url: `/api/payments?from=${date}`, field: 'from', invalid: operation },
      { method: 'GET', url: `/api/payments?to=${date}`, field: 'to', invalid: operation },
      { method: 'GET', url: `/api/instalments?due_from=${date}`, field: 'due_from', invalid: INSTALMENT_MESSAGES.date },
      { method: 'GET', url: `/api/instalments?due_to=${date}`, field: 'due_to', invalid: INSTALMENT_MESSAGES.date },
      { method: 'GET', url: `/api/sales/report?from=${date}&to=2026-01-31`, field: 'from', invalid: SALES_REPORT_MESSAGES.from },
      { method: 'GET', url: `/api/sales/report?from=2026-01-01&to=${date}`, field: 'to', invalid: SALES_REPORT_MESSAGES.to },
      { method: 'GET', url: `/api/change-history?from=${date}`, field: 'from' },
      { method: 'GET', url: `/api/change-history?to=${date}`, field: 'to' },
      {
        method: 'POST',
        url: '/api/customers',
        payload: { person_type: 'NATURAL', id_document_type: '1', document_number: '45678912', name: 'Ana', birthday_date: date },
        field: 'birthday_date',
      },
      {
        method: 'POST',
        url: '/api/customer/purchases/1/payments',
        payload: { wallet_id: 1, instalment_ids: [1], amount: 100, operation_number: 'OP1', operation_date: date },
        field: 'operation_date',
        invalid: operation,
        customer: true,
      },
    ];
    for (const [date, kind] of BAD_DATES) {
      for (const c of cases(date)) {
        const res = await ctx().app.inject({
          method: c.method,
          url: c.url,
          headers: bearer(c.customer ? customerToken : token),
          ...(c.payload ? { payload: c.payload } : {}),
        });
        const what = `${c.method} ${c.url} ${c.field}=${date}`;
        expect(res.statusCode, `${what}: ${res.body}`).toBe(422);
        expect(res.json().errors?.[c.field], what).toEqual([messageFor(kind, c.invalid)]);
      }
    }
  });

  it('the customer self-registration (the login bundle, without Temporal) refuses the same days', async () => {
    const body = (birthday: string) => ({
      id_document_type: '1',
      document_number: '47852136',
      name: 'Ana',
      surname: 'Quispe',
      birthday_date: birthday,
      email: 'ana.registro@parcela.test',
      phone: '987654321',
      password: 'Secreta#2026',
    });
    for (const [date, kind] of BAD_DATES) {
      const res = await ctx().app.inject({ method: 'POST', url: '/api/customer/register_user_customer', payload: body(date) });
      expect(res.statusCode, `${date}: ${res.body}`).toBe(422);
      // A day after today is "not of age" before it is out of range.
      const expected = date > '2100' ? 'Debe ser mayor de edad para registrarse' : messageFor(kind);
      expect(res.json().errors?.birthday_date, date).toEqual([expected]);
    }
  });
});
