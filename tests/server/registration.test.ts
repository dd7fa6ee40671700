import { describe, expect, it } from 'vitest';
import { REGISTRATION_MESSAGES } from '../../server/auth/customers.service';
import { MESSAGES } from '../../server/errors';
import { createCustomer } from '../../server/testing/fixtures';
import { dialects, postLogin, useTestApp, useTestDatabase } from './harness';

/** docs/product.md §7 row 1: POST /api/customer/register_user_customer. */

const URL = '/api/customer/register_user_customer';
let counter = 0;

/** A valid registration body with a unique DNI and e-mail. */
function validBody(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    id_document_type: '1',
    document_number: `5${String(counter).padStart(7, '0')}`,
    name: 'Ana',
    surname: 'Torres',
    birthday_date: '1995-07-20',
    email: `ana${counter}@parcela.test`,
    phone: '912345678',
    password: 'Segura#2026',
    ...overrides,
  };
}

describe.each(dialects)('registration (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  const countCustomers = async () =>
    Number(
      (
        await db()
          .selectFrom('customers')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('registers a customer who can then log in with the document number', async () => {
    const body = validBody();
    const res = await ctx().app.inject({ method: 'POST', url: URL, payload: body });
    expect(res.statusCode).toBe(201);
    const json = res.json();
    expect(json).toEqual({ message: REGISTRATION_MESSAGES.success, data: { id: expect.any(Number) } });

    const login = await postLogin(ctx().app, body.document_number, body.password, 'CUSTOMER');
    expect(login.statusCode).toBe(200);
    expect(login.json().data.user).toMatchObject({ id: json.data.id, dni: body.document_number, roles: ['Cliente'] });
  });

  it('accepts a valid RUC and stores the e-mail in lower case', async () => {
    const body = validBody({ id_document_type: '6', document_number: '20605123458', email: 'Empresa.RUC@Parcela.Test' });
    const res = await ctx().app.inject({ method: 'POST', url: URL, payload: body });
    expect(res.statusCode).toBe(201);
    const row = await db().selectFrom('customers').select('email').where('document_number', '=', '20605123458').executeTakeFirstOrThrow();
    expect(row.email).toBe('empresa.ruc@parcela.test');
  });

  const invalid: [string, Record<string, unknown>, string, string][] = [
    ['an unknown document type', { id_document_type: '9' }, 'id_document_type', 'Seleccione un tipo de documento válido'],
    ['a DNI without 8 digits', { document_number: '1234567' }, 'document_number', 'El DNI debe tener 8 dígitos'],
    [
      'a RUC with a wrong check digit',
      { id_document_type: '6', document_number: '20605123457' },
      'document_number',
      'El RUC no es válido (11 dígitos con dígito verificador)',
    ],
    ['a phone not starting with 9', { phone: '812345678' }, 'phone', 'El celular debe tener 9 dígitos y empezar con 9'],
    ['a minor', { birthday_date: '2010-01-01' }, 'birthday_date', 'Debe ser mayor de edad para registrarse'],
    ['an impossible date', { birthday_date: '1990-02-30' }, 'birthday_date', 'Fecha inválida'],
    ['a short password', { password: 'corta' }, 'password', 'La contraseña debe tener al menos 8 caracteres'],
    ['an invalid e-mail', { email: 'no-es-correo' }, 'email', 'Ingrese un correo electrónico válido'],
    ['an unknown key', { is_admin: true }, 'is_admin', MESSAGES.unknownField],
    ['a missing name', { name: undefined }, 'name', 'Este campo es obligatorio'],
  ];

  it.each(invalid)('rejects %s with 422 on its field and stores nothing', async (_label, override, field, message) => {
    const before = await countCustomers();
    const res = await ctx().app.inject({ method: 'POST', url: URL, payload: validBody(override) });
    expect(res.statusCode).toBe(422);
    const json = res.json();
    expect(json.message).toBe(MESSAGES.validation);
    expect(json.errors[field]).toEqual([message]);
    expect(await countCustomers()).toBe(before);
  });

  it('uses today in America/Lima for the age rule', async () => {
    const { app, clock } = ctx();
    // 2026-03-02T03:00Z is still 2026-03-01 in Lima: someone born 2008-03-02 is not 18 yet there.
    clock.set('2026-03-02T03:00:00.000Z');
    const minor = await app.inject({ method: 'POST', url: URL, payload: validBody({ birthday_date: '2008-03-02' }) });
    expect(minor.statusCode).toBe(422);
    clock.set('2026-03-02T05:00:00.000Z');
    const adult = await app.inject({ method: 'POST', url: URL, payload: validBody({ birthday_date: '2008-03-02' }) });
    expect(adult.statusCode).toBe(201);
  });

  it('rejects an already registered document number and e-mail (case-insensitive)', async () => {
    const existing = await createCustomer(db());
    const before = await countCustomers();
    const res = await ctx().app.inject({
      method: 'POST',
      url: URL,
      payload: validBody({ document_number: existing.documentNumber, email: existing.email.toUpperCase() }),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: MESSAGES.validation,
      errors: {
        document_number: [REGISTRATION_MESSAGES.duplicateDocument],
        email: [REGISTRATION_MESSAGES.duplicateEmail],
      },
    });
    expect(await countCustomers()).toBe(before);
  });

  it('answers malformed JSON with a 400 JSON body', async () => {
    const res = await ctx().app.inject({
      method: 'POST',
      url: URL,
      payload: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: MESSAGES.invalidJson });
  });

  it('answers a body that is not an object with 422', async () => {
    const res = await ctx().app.inject({ method: 'POST', url: URL, payload: '[]', headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.body).toBeDefined();
  });
});
