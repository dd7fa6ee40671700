import { describe, expect, it } from 'vitest';
import { CONTROL_CHARACTERS_MESSAGE } from '../../src/schemas/common';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * Issue 11 item 14: NUL, bidi overrides (U+202E) and other control characters are refused in every
 * text field — one shared refinement applied to every route's body, querystring and params.
 */

describe.each(dialects)('control characters (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  async function token(): Promise<string> {
    return createSession(db(), await createStaff(db(), { permissions: [MODULE.proyectos, SUBMODULE.lotizaciones] }));
  }
  const call = (method: 'GET' | 'POST', url: string, auth: string, payload?: object) =>
    ctx().app.inject({ method, url, headers: bearer(auth), ...(payload ? { payload } : {}) });

  it('refuses NUL, U+202E, ESC and C1 controls in a body field, at the field, and stores nothing', async () => {
    const auth = await token();
    for (const bad of ['Lotización\u0000', 'Los Viñedos \u202Eodoñiv', 'Nombre\u001b[31m', 'Texto\u0085']) {
      const res = await call('POST', '/api/subdivisions', auth, {
        code: `cc-${Math.random().toString(36).slice(2, 8)}`,
        name: bad,
        department: 'Lima',
        province: 'Lima',
        district: 'Carabayllo',
        total_area_m2: 1000,
      });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors).toEqual({ name: [CONTROL_CHARACTERS_MESSAGE] });
    }
    expect(
      await db().selectFrom('subdivisions').select('id').where('department', '=', 'Lima').where('district', '=', 'Carabayllo').execute(),
    ).toHaveLength(0);
  });

  it('refuses them in nested fields and in the querystring; line breaks and tabs in multi-line text stay allowed', async () => {
    const auth = await token();
    const s = await createSubdivision(db());
    const nested = await call('POST', `/api/subdivisions/${s.key}/lots/price-preview`, auth, {
      selection: { blocks: ['A'] },
      change: { kind: 'PERCENT', percent: 5 },
      reason: 'Ajuste\u2066',
    });
    expect(nested.statusCode).toBe(422);
    expect(nested.json().errors).toEqual({ reason: [CONTROL_CHARACTERS_MESSAGE] });
    const query = await call('GET', `/api/subdivisions/${s.key}/lots?q=${encodeURIComponent('A\u0000')}`, auth);
    expect(query.statusCode).toBe(422);
    expect(query.json().errors).toEqual({ q: [CONTROL_CHARACTERS_MESSAGE] });
    const ok = await call('POST', `/api/subdivisions/${s.key}/lots`, auth, {
      block: 'A',
      number: '1',
      area_m2: 100,
      price_per_m2: 100,
      notes: 'Primera línea\nSegunda\tcon tabulación\r\n',
    });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('passwords are exempt (hashed, never shown): a login with one is only a wrong password', async () => {
    const res = await ctx().app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { user: 'nadie@parcela.test', password: 'x\u0000y\u202Ez12', user_type: 'COLLABORATOR' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.password).toBeUndefined();
  });

  it('applies to routes whose schemas use zod/mini too (login, notifications)', async () => {
    const login = await ctx().app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { user: 'nadie\u202E@parcela.test', password: 'x', user_type: 'COLLABORATOR' },
    });
    expect(login.statusCode).toBe(422);
    expect(login.json().errors).toEqual({ user: [CONTROL_CHARACTERS_MESSAGE] });
  });
});
