import { describe, expect, it } from 'vitest';
import { companyResponseSchema, COMPANY_CONTRACT_MESSAGES } from '../../src/schemas/configuracion/company';
import { CUSTOMER_MESSAGES, customerResponseSchema } from '../../src/schemas/crm/customers';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { RESCISSION_MESSAGES, subdivisionResponseSchema } from '../../src/schemas/proyectos/projects';
import { createCrmCustomer, createSession, createStaff, createSubdivision, ensureCompany } from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * The settings the contracts read (docs/domain.md "Contract variables"; migration 0041), through
 * their existing routes: the company's representative DNI and power, place of signing and days to
 * receive the signed copy (PATCH /api/company); a married customer's property regime
 * (/api/customers); a subdivision's rescission policy (PATCH /api/subdivisions/{key}). Stored,
 * answered, in the change history, and a Spanish 422 per bad value.
 */
describe.each(dialects)('contract settings (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);
  const send = (method: 'POST' | 'PATCH' | 'GET', url: string, token: string, payload?: unknown) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const tokenWith = async (permissions: string[]) => createSession(db(), await createStaff(db(), { permissions: permissions as never }));
  const lastChange = (entity: string) =>
    db()
      .selectFrom('change_history')
      .select(['changed_fields'])
      .where('entity', '=', entity)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();

  it('the company: defaults, a PATCH of the four fields, the history, and a Spanish 422 per bad value', async () => {
    await ensureCompany(db());
    const token = await tokenWith([MODULE.configuracion, SUBMODULE.empresas]);
    const read = companyResponseSchema.parse((await send('GET', '/api/company', token)).json()).data;
    expect(read).toMatchObject({ contract_signature_days: 15 });
    const fields = {
      legal_representative_dni: '40404040',
      legal_representative_power_entry: 'Partida 11223344, asiento C00002',
      contract_place: 'Lima',
      contract_signature_days: 30,
    };
    const res = await send('PATCH', '/api/company', token, fields);
    expect(res.statusCode, res.body).toBe(200);
    expect(companyResponseSchema.parse(res.json()).data).toMatchObject(fields);
    expect(JSON.parse((await lastChange('companies')).changed_fields)).toEqual(expect.arrayContaining(Object.keys(fields)));
    const cleared = await send('PATCH', '/api/company', token, { legal_representative_dni: null, contract_place: null });
    expect(companyResponseSchema.parse(cleared.json()).data).toMatchObject({ legal_representative_dni: null, contract_place: null });

    const bad = await send('PATCH', '/api/company', token, { legal_representative_dni: '1234567', contract_signature_days: 0 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({
      legal_representative_dni: [COMPANY_CONTRACT_MESSAGES.representativeDni],
      contract_signature_days: [COMPANY_CONTRACT_MESSAGES.signatureDays],
    });
    for (const days of [366, 1.5, '15']) {
      const res = await send('PATCH', '/api/company', token, { contract_signature_days: days });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.contract_signature_days).toEqual([COMPANY_CONTRACT_MESSAGES.signatureDays]);
    }
  });

  it('a customer: the property regime only when married, cleared when no longer married, answered and in the history', async () => {
    const token = await tokenWith([MODULE.crm, SUBMODULE.clientes]);
    const body = (document: string, extra: object) => ({
      person_type: 'NATURAL',
      id_document_type: '1',
      document_number: document,
      name: 'Rosa',
      surname: 'Quispe',
      phone: '987654321',
      ...extra,
    });
    const created = await send(
      'POST',
      '/api/customers',
      token,
      body('43000001', { marital_status: 'CASADO', property_regime: 'SEPARACION_PATRIMONIOS' }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const { data } = customerResponseSchema.parse(created.json());
    expect(data.property_regime).toBe('SEPARACION_PATRIMONIOS');

    const single = await send(
      'POST',
      '/api/customers',
      token,
      body('43000002', { marital_status: 'SOLTERO', property_regime: 'SOCIEDAD_GANANCIALES' }),
    );
    expect(single.statusCode).toBe(422);
    expect(single.json().errors).toEqual({ property_regime: [CUSTOMER_MESSAGES.regimeOnlyWhenMarried] });
    const unknown = await send(
      'POST',
      '/api/customers',
      token,
      body('43000003', { marital_status: 'CASADO', property_regime: 'COMUNIDAD' }),
    );
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.property_regime).toEqual(['Seleccione el régimen patrimonial']);

    const changed = await send('PATCH', `/api/customers/${data.id}`, token, {
      property_regime: 'SOCIEDAD_GANANCIALES',
      version: data.version,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const after = customerResponseSchema.parse(changed.json()).data;
    expect(after.property_regime).toBe('SOCIEDAD_GANANCIALES');
    expect(JSON.parse((await lastChange('customers')).changed_fields)).toContain('property_regime');
    const widowed = await send('PATCH', `/api/customers/${data.id}`, token, { marital_status: 'VIUDO', version: after.version });
    expect(widowed.statusCode, widowed.body).toBe(200);
    expect(customerResponseSchema.parse(widowed.json()).data.property_regime).toBeNull();
    const other = await createCrmCustomer(db(), { marital_status: 'SOLTERO' });
    const refused = await send('PATCH', `/api/customers/${other}`, token, { property_regime: 'SOCIEDAD_GANANCIALES' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ property_regime: [CUSTOMER_MESSAGES.regimeOnlyWhenMarried] });
  });

  it('a subdivision: the rescission policy defaults (3, no limit, 10 %), a PATCH, and a Spanish 422 per bad value', async () => {
    const token = await tokenWith([MODULE.proyectos, SUBMODULE.lotizaciones]);
    const { key } = await createSubdivision(db());
    const read = subdivisionResponseSchema.parse((await send('GET', `/api/subdivisions/${key}`, token)).json()).data;
    expect(read).toMatchObject({ rescission_overdue_instalments: 3, rescission_paid_share_limit_pct: null, rescission_penalty_pct: 10 });
    const policy = { rescission_overdue_instalments: 4, rescission_paid_share_limit_pct: 50, rescission_penalty_pct: 0 };
    const res = await send('PATCH', `/api/subdivisions/${key}`, token, { ...policy, version: read.version });
    expect(res.statusCode, res.body).toBe(200);
    expect(subdivisionResponseSchema.parse(res.json()).data).toMatchObject(policy);
    expect(JSON.parse((await lastChange('subdivisions')).changed_fields)).toEqual(expect.arrayContaining(Object.keys(policy)));
    const cleared = await send('PATCH', `/api/subdivisions/${key}`, token, { rescission_paid_share_limit_pct: null });
    expect(subdivisionResponseSchema.parse(cleared.json()).data.rescission_paid_share_limit_pct).toBeNull();

    const bad = await send('PATCH', `/api/subdivisions/${key}`, token, {
      rescission_overdue_instalments: 25,
      rescission_paid_share_limit_pct: 0,
      rescission_penalty_pct: 101,
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({
      rescission_overdue_instalments: [RESCISSION_MESSAGES.overdueInstalments],
      rescission_paid_share_limit_pct: [RESCISSION_MESSAGES.paidShareLimit],
      rescission_penalty_pct: [RESCISSION_MESSAGES.penalty],
    });
    const fractional = await send('PATCH', `/api/subdivisions/${key}`, token, {
      rescission_overdue_instalments: 0,
      rescission_penalty_pct: 2.5,
    });
    expect(fractional.json().errors).toEqual({
      rescission_overdue_instalments: [RESCISSION_MESSAGES.overdueInstalments],
      rescission_penalty_pct: [RESCISSION_MESSAGES.penalty],
    });
  });
});
