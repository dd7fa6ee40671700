import { describe, expect, it } from 'vitest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ACTION, MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { isHoldStatus } from '../../src/schemas/proyectos/lot-holds';
import {
  LOT_STATUSES,
  LOT_STATUS_TRANSITIONS,
  PLAN_MAX_BYTES,
  REASON_REQUIRED_STATUSES,
  blocksResponseSchema,
  lotMapResponseSchema,
  lotResponseSchema,
  lotsPageSchema,
  lotStatusHistoryPageSchema,
  priceChangePreviewResponseSchema,
  publicLotMapResponseSchema,
  stagesResponseSchema,
  subdivisionResponseSchema,
  subdivisionsPageSchema,
  type LotStatus,
} from '../../src/schemas/proyectos/projects';
import { MESSAGES } from '../../server/errors';
import { createOpaqueIds } from '../../server/ids';
import { LOT_MESSAGES } from '../../server/modules/proyectos/lots.service';
import { PLAN_MESSAGES } from '../../server/modules/proyectos/plan-image';
import { SUBDIVISION_MESSAGES } from '../../server/modules/proyectos/subdivisions.service';
import { createBlock, createLot, createSession, createStaff, createStage, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase, multipartBody } from './harness';
import { png } from './images';

/** Proyectos (issue "Proyectos"): subdivisions, plan, stages, blocks, lots, status, bulk prices, maps. */

const PROJECTS = [MODULE.proyectos, SUBMODULE.lotizaciones] as const;
/** A hold's end date within the test clock's 90 days (docs/domain.md "Lot holds"). */
const HOLD_UNTIL = '2026-03-20';
const SALES = [MODULE.comercial, SUBMODULE.ventas] as const;
const ids = createOpaqueIds();

/** A JPEG header (SOI, APP0 JFIF, SOF0) of `width` × `height` pixels. */
function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const sof = Buffer.alloc(19);
  sof.writeUInt16BE(0xffc0, 0);
  sof.writeUInt16BE(17, 2);
  sof[4] = 8;
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

/** A multipart/form-data body with one file part. */
function multipart(field: string, filename: string, contentType: string, content: Buffer) {
  return multipartBody({ field, filename, contentType, content });
}

let n = 0;
/** A valid POST /api/subdivisions body with a unique code. */
function subdivisionBody(overrides: Record<string, unknown> = {}) {
  n += 1;
  return {
    code: `lv-${n}`,
    name: `Los Viñedos ${n}`,
    department: 'Lima',
    province: 'Lima',
    district: 'Carabayllo',
    total_area_m2: 52000,
    ...overrides,
  };
}

const square = (x: number, y: number, size = 10): [number, number][] => [
  [x, y],
  [x + size, y],
  [x + size, y + size],
  [x, y + size],
];

describe.each(dialects)('proyectos (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  /** A staff user with `permissions` and a token; name "Prueba Colaborador <n>". */
  async function staffWith(permissions: readonly string[] = [...PROJECTS, ACTION.aprobarBloqueos]) {
    const staff = await createStaff(db(), { permissions: permissions as never });
    const row = await db().selectFrom('users').select(['name', 'surname']).where('id', '=', staff.id).executeTakeFirstOrThrow();
    return { staff, token: await createSession(db(), staff), fullName: `${row.name} ${row.surname}` };
  }

  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string | null, payload?: unknown) =>
    ctx().app.inject({
      method,
      url,
      headers: token ? bearer(token) : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  const history = (entity: string, recordId: number) =>
    db()
      .selectFrom('change_history')
      .selectAll()
      .where('entity', '=', entity)
      .where('record_id', '=', String(recordId))
      .orderBy('id')
      .execute();

  const lotRow = (id: number) => db().selectFrom('lots').selectAll().where('id', '=', id).executeTakeFirst();

  // -------------------------------------------------------------------------------------------
  describe('subdivisions', () => {
    it('keeps a late-fee policy per subdivision: DOMAIN.md defaults, a PATCH of it, and a Spanish 422 per field', async () => {
      const { token } = await staffWith();
      const created = await call('POST', '/api/subdivisions', token, subdivisionBody());
      expect(created.statusCode, created.body).toBe(201);
      const { data } = subdivisionResponseSchema.parse(created.json());
      expect(data).toMatchObject({
        late_fee_grace_days: 3,
        late_fee_kind: 'MONTO_DIARIO',
        late_fee_daily_amount: 500,
        late_fee_monthly_percent: '0',
        late_fee_cap: null,
      });
      const policy = { late_fee_grace_days: 5, late_fee_kind: 'PORCENTAJE_MENSUAL', late_fee_monthly_percent: '1.5', late_fee_cap: 20_000 };
      const patched = await call('PATCH', `/api/subdivisions/${data.key}`, token, { ...policy, version: data.version });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(subdivisionResponseSchema.parse(patched.json()).data).toMatchObject({ ...policy, late_fee_daily_amount: 500 });
      const read = subdivisionResponseSchema.parse((await call('GET', `/api/subdivisions/${data.key}`, token)).json()).data;
      expect(read).toMatchObject(policy);
      const bad = await call('PATCH', `/api/subdivisions/${data.key}`, token, {
        late_fee_grace_days: 61,
        late_fee_kind: 'SEMANAL',
        late_fee_daily_amount: 10.5,
        late_fee_monthly_percent: '5.5',
        late_fee_cap: -1,
      });
      expect(bad.statusCode, bad.body).toBe(422);
      const errors = bad.json().errors as Record<string, string[]>;
      expect(errors.late_fee_grace_days).toEqual(['Se admiten hasta 60 días de gracia']);
      expect(errors.late_fee_kind).toEqual(['Elija el tipo de mora']);
      expect(errors.late_fee_daily_amount).toEqual(['El monto diario va en céntimos']);
      expect(errors.late_fee_monthly_percent).toEqual(['El porcentaje admitido es de hasta 5 % mensual']);
      expect(errors.late_fee_cap).toEqual(['El tope no puede ser negativo']);
    });

    it('creates with defaults, zero counts and the opaque key, and records the CREATE', async () => {
      const { token } = await staffWith();
      const body = subdivisionBody({ ubigeo: '150106' });
      const res = await call('POST', '/api/subdivisions', token, body);
      expect(res.statusCode, res.body).toBe(201);
      const { data } = subdivisionResponseSchema.parse(res.json());
      expect(data).toMatchObject({
        code: body.code.toUpperCase(),
        currency: 'PEN',
        status: 'EN_PREVENTA',
        published: false,
        public_prices: false,
        plan_url: null,
        lots_total: 0,
        sold_area_m2: 0,
      });
      expect(data.key).toBe(ids.encode(data.id));
      expect(data.lot_counts).toEqual({
        DISPONIBLE: 0,
        SEPARADO: 0,
        VENDIDO: 0,
        BLOQUEADO: 0,
        RESERVA_COMERCIAL: 0,
        CANJE: 0,
        NO_VENDIBLE: 0,
      });
      const rows = await history('subdivisions', data.id);
      expect(rows.map((r) => r.action)).toEqual(['CREATE']);
      expect(rows[0]!.after).not.toContain('plan_data');
    });

    it('answers 422 on a duplicate code or invalid fields and stores nothing', async () => {
      const { token } = await staffWith();
      const body = subdivisionBody();
      expect((await call('POST', '/api/subdivisions', token, body)).statusCode).toBe(201);
      const before = (await db().selectFrom('subdivisions').select('id').execute()).length;
      const dup = await call('POST', '/api/subdivisions', token, { ...subdivisionBody(), code: body.code.toLowerCase() });
      expect(dup.statusCode).toBe(422);
      expect(dup.json().errors.code).toEqual([SUBDIVISION_MESSAGES.duplicateCode]);
      const bad = await call('POST', '/api/subdivisions', token, subdivisionBody({ total_area_m2: -1, ubigeo: '12', extra: 1 }));
      expect(bad.statusCode).toBe(422);
      expect(Object.keys(bad.json().errors).sort()).toEqual(['extra', 'total_area_m2', 'ubigeo']);
      expect((await db().selectFrom('subdivisions').select('id').execute()).length).toBe(before);
    });

    it('lists with q, filters, sort and per-status counts and sold area (VENDIDO + CANJE)', async () => {
      const { token } = await staffWith();
      const tag = `q${dialect}${++n}`;
      const a = await createSubdivision(db(), { code: `${tag}-A`, name: 'Alfa', district: 'Lurín', currency: 'USD' });
      const b = await createSubdivision(db(), { code: `${tag}-B`, name: 'Beta', district: 'Lurín' });
      await createLot(db(), a.id, { block: 'A', number: '1', area_m2: 100, status: 'VENDIDO' });
      await createLot(db(), a.id, { block: 'A', number: '2', area_m2: 150.5, status: 'CANJE' });
      await createLot(db(), a.id, { block: 'A', number: '3', area_m2: 90, status: 'SEPARADO' });
      await createLot(db(), a.id, { block: 'B', number: '1', area_m2: 80 });
      await createLot(db(), b.id, { block: 'A', number: '1', area_m2: 200, status: 'BLOQUEADO' });

      const res = await call('GET', `/api/subdivisions?q=${tag}&sort=-code`, token);
      const page = subdivisionsPageSchema.parse(res.json());
      expect(page.meta.total).toBe(2);
      expect(page.data.map((s) => s.code)).toEqual([`${tag}-B`.toUpperCase(), `${tag}-A`.toUpperCase()]);
      const alfa = page.data[1]!;
      expect(alfa.lot_counts).toEqual({
        DISPONIBLE: 1,
        SEPARADO: 1,
        VENDIDO: 1,
        BLOQUEADO: 0,
        RESERVA_COMERCIAL: 0,
        CANJE: 1,
        NO_VENDIBLE: 0,
      });
      expect(alfa.lots_total).toBe(4);
      expect(alfa.sold_area_m2).toBe(250.5);
      expect(page.data[0]!.sold_area_m2).toBe(0);
      const usd = subdivisionsPageSchema.parse((await call('GET', `/api/subdivisions?q=${tag}&currency=USD`, token)).json());
      expect(usd.data.map((s) => s.id)).toEqual([a.id]);
      const byStatus = subdivisionsPageSchema.parse((await call('GET', `/api/subdivisions?q=${tag}&status=EN_PREVENTA`, token)).json());
      expect(byStatus.meta.total).toBe(0);
      expect((await call('GET', '/api/subdivisions?sort=district', token)).statusCode).toBe(422);
    });

    it('gets, updates and answers 404 "Lotización no encontrada" for bad or unknown keys', async () => {
      const { token } = await staffWith();
      const s = await createSubdivision(db());
      const got = subdivisionResponseSchema.parse((await call('GET', `/api/subdivisions/${s.key}`, token)).json());
      expect(got.data.id).toBe(s.id);
      const upd = await call('PATCH', `/api/subdivisions/${s.key}`, token, { status: 'EN_VENTA', published: true, name: 'Nuevo nombre' });
      expect(upd.statusCode, upd.body).toBe(200);
      expect(upd.json().data).toMatchObject({ status: 'EN_VENTA', published: true, name: 'Nuevo nombre' });
      expect((await history('subdivisions', s.id)).at(-1)!.action).toBe('UPDATE');
      expect((await call('PATCH', `/api/subdivisions/${s.key}`, token, {})).statusCode).toBe(422);
      const other = await createSubdivision(db());
      const taken = (await db().selectFrom('subdivisions').select('code').where('id', '=', other.id).executeTakeFirstOrThrow()).code;
      const dup = await call('PATCH', `/api/subdivisions/${s.key}`, token, { code: taken.toLowerCase() });
      expect(dup.statusCode).toBe(422);
      expect(dup.json().errors.code).toEqual([SUBDIVISION_MESSAGES.duplicateCode]);
      for (const key of ['nope!', `${s.key}x`, ids.encode(999_999)]) {
        const res = await call('GET', `/api/subdivisions/${key}`, token);
        expect(res.statusCode, key).toBe(404);
        expect(res.json().message).toBe(SUBDIVISION_MESSAGES.notFound);
      }
    });

    it('deletes with its stages, blocks, lots and history (audited), but not with committed lots', async () => {
      const { token } = await staffWith();
      const s = await createSubdivision(db());
      const stage = await createStage(db(), s.id, 'Etapa 1');
      await createBlock(db(), s.id, 'Z', { stageId: stage });
      const lot = await createLot(db(), s.id, { block: 'Z', number: '1', status: 'BLOQUEADO' });
      const res = await call('DELETE', `/api/subdivisions/${s.key}`, token);
      expect(res.statusCode, res.body).toBe(204);
      expect(await lotRow(lot)).toBeUndefined();
      expect(await db().selectFrom('lot_status_changes').select('id').where('lot_id', '=', lot).execute()).toEqual([]);
      expect(await db().selectFrom('blocks').select('id').where('subdivision_id', '=', s.id).execute()).toEqual([]);
      expect(await db().selectFrom('stages').select('id').where('subdivision_id', '=', s.id).execute()).toEqual([]);
      const last = (await history('subdivisions', s.id)).at(-1)!;
      expect(last.action).toBe('DELETE');
      expect(JSON.parse(last.before!)).toMatchObject({ lots_deleted: 1 });

      for (const status of ['SEPARADO', 'VENDIDO', 'CANJE'] as const) {
        const other = await createSubdivision(db());
        await createLot(db(), other.id, { status });
        const refused = await call('DELETE', `/api/subdivisions/${other.key}`, token);
        expect(refused.statusCode, status).toBe(409);
        expect(refused.json().message).toBe(SUBDIVISION_MESSAGES.hasCommittedLots);
        expect(await db().selectFrom('subdivisions').select('id').where('id', '=', other.id).executeTakeFirst()).toBeDefined();
      }
    });

    it('answers 403 to a staff user without the projects permission and to customers, 401 without token', async () => {
      const s = await createSubdivision(db());
      const { token } = await staffWith([MODULE.crm]);
      for (const [method, url] of [
        ['GET', '/api/subdivisions'],
        ['GET', `/api/subdivisions/${s.key}`],
        ['GET', `/api/subdivisions/${s.key}/lots`],
        ['GET', `/api/subdivisions/${s.key}/map`],
      ] as const) {
        expect((await call(method, url, token)).statusCode, url).toBe(403);
        expect((await call(method, url, null)).statusCode, url).toBe(401);
      }
      expect((await call('POST', '/api/subdivisions', token, subdivisionBody())).json()).toEqual({ message: MESSAGES.forbidden });
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('plan image', () => {
    const upload = (key: string, token: string, body: ReturnType<typeof multipart>) =>
      ctx().app.inject({
        method: 'POST',
        url: `/api/subdivisions/${key}/plan`,
        payload: body.payload,
        headers: { ...body.headers, ...bearer(token) },
      });

    it('stores a PNG with its pixel size, serves it to staff and publicly only when published', async () => {
      const { token } = await staffWith();
      const s = await createSubdivision(db());
      const image = png(1600, 900, 2048);
      const res = await upload(s.key, token, multipart('file', 'plano.bin', 'application/octet-stream', image));
      expect(res.statusCode, res.body).toBe(200);
      const { data } = subdivisionResponseSchema.parse(res.json());
      expect(data.plan_url).toMatch(new RegExp(`^/api/subdivisions/${s.key}/plan\\?v=\\d+$`));
      const row = await db()
        .selectFrom('subdivisions')
        .select(['plan_width', 'plan_height', 'plan_content_type'])
        .where('id', '=', s.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ plan_width: 1600, plan_height: 900, plan_content_type: 'image/png' });

      const staffGet = await call('GET', data.plan_url!, token);
      expect(staffGet.statusCode).toBe(200);
      expect(staffGet.headers['content-type']).toBe('image/png');
      expect(staffGet.headers['cache-control']).toMatch(/max-age/);
      expect(staffGet.rawPayload.equals(image)).toBe(true);

      expect((await call('GET', `/public/subdivisions/${s.key}/plan`, null)).statusCode).toBe(404);
      await call('PATCH', `/api/subdivisions/${s.key}`, token, { published: true });
      const pub = await call('GET', `/public/subdivisions/${s.key}/plan`, null);
      expect(pub.statusCode).toBe(200);
      expect(pub.rawPayload.equals(image)).toBe(true);
      expect((await history('subdivisions', s.id)).filter((r) => r.action === 'UPDATE').length).toBe(2);
    });

    it('sniffs the type from the bytes: a JPEG named .png is a JPEG; text named .png is refused', async () => {
      const { token } = await staffWith();
      const s = await createSubdivision(db());
      const ok = await upload(s.key, token, multipart('file', 'plano.png', 'image/png', jpeg(640, 480)));
      expect(ok.statusCode, ok.body).toBe(200);
      const row = await db()
        .selectFrom('subdivisions')
        .select(['plan_width', 'plan_height', 'plan_content_type'])
        .where('id', '=', s.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ plan_width: 640, plan_height: 480, plan_content_type: 'image/jpeg' });

      const other = await createSubdivision(db());
      for (const content of [Buffer.from('no soy una imagen'), Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), png(0, 10)]) {
        const bad = await upload(other.key, token, multipart('file', 'plano.png', 'image/png', content));
        expect(bad.statusCode).toBe(422);
        expect(bad.json().errors.file).toEqual([PLAN_MESSAGES.notImage]);
      }
      const missing = await upload(other.key, token, multipart('imagen', 'plano.png', 'image/png', png(10, 10)));
      expect(missing.json().errors.file).toEqual([PLAN_MESSAGES.missing]);
      const stored = await db().selectFrom('subdivisions').select('plan_data').where('id', '=', other.id).executeTakeFirstOrThrow();
      expect(stored.plan_data).toBeNull();
    });

    it('accepts up to PLAN_MAX_BYTES (above the global 1 MB) and refuses more with 422 on file', async () => {
      const { token } = await staffWith();
      const s = await createSubdivision(db());
      expect((await upload(s.key, token, multipart('file', 'p.png', 'image/png', png(100, 100, 2 * 1024 * 1024)))).statusCode).toBe(200);
      const big = await upload(s.key, token, multipart('file', 'p.png', 'image/png', png(100, 100, PLAN_MAX_BYTES + 1)));
      expect(big.statusCode).toBe(422);
      expect(big.json().errors.file).toEqual([PLAN_MESSAGES.tooLarge]);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('stages and blocks', () => {
    it('creates, lists, renames and deletes stages; names unique per subdivision', async () => {
      const { token } = await staffWith();
      const s = await createSubdivision(db());
      const first = await call('POST', `/api/subdivisions/${s.key}/stages`, token, { name: 'Etapa 1' });
      expect(first.statusCode, first.body).toBe(201);
      expect(first.json().data).toMatchObject({ name: 'Etapa 1', position: 0 });
      expect((await call('POST', `/api/subdivisions/${s.key}/stages`, token, { name: 'Etapa 2' })).json().data.position).toBe(1);
      const dup = await call('POST', `/api/subdivisions/${s.key}/stages`, token, { name: 'Etapa 1' });
      expect(dup.statusCode).toBe(422);
      expect(dup.json().errors.name).toEqual([LOT_MESSAGES.duplicateStage]);
      const other = await createSubdivision(db());
      expect((await call('POST', `/api/subdivisions/${other.key}/stages`, token, { name: 'Etapa 1' })).statusCode).toBe(201);

      const id = first.json().data.id as number;
      expect((await call('PATCH', `/api/stages/${id}`, token, { name: 'Etapa Norte', position: 5 })).json().data).toEqual({
        id,
        name: 'Etapa Norte',
        position: 5,
        version: 2,
      });
      const list = stagesResponseSchema.parse((await call('GET', `/api/subdivisions/${s.key}/stages`, token)).json());
      expect(list.data.map((st) => st.name)).toEqual(['Etapa 2', 'Etapa Norte']);
      const block = await createBlock(db(), s.id, 'C', { stageId: id });
      expect((await call('DELETE', `/api/stages/${id}`, token)).statusCode).toBe(204);
      expect((await db().selectFrom('blocks').select('stage_id').where('id', '=', block).executeTakeFirstOrThrow()).stage_id).toBeNull();
      expect((await history('stages', id)).map((r) => r.action)).toEqual(['CREATE', 'UPDATE', 'DELETE']);
      expect((await call('DELETE', `/api/stages/${id}`, token)).statusCode).toBe(404);
    });

    it('creates blocks (upper-cased, unique), lists with lot counts, renames (recomputing codes) and deletes only empty ones', async () => {
      const { token } = await staffWith();
      const s = await createSubdivision(db());
      const created = await call('POST', `/api/subdivisions/${s.key}/blocks`, token, { name: 'b' });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().data).toMatchObject({ name: 'B', stage_id: null, lots_count: 0 });
      const dup = await call('POST', `/api/subdivisions/${s.key}/blocks`, token, { name: 'B' });
      expect(dup.statusCode).toBe(422);
      expect(dup.json().errors.name).toEqual(['Ya existe la manzana B']);
      const foreignStage = await createStage(db(), (await createSubdivision(db())).id, 'Ajena');
      const wrongStage = await call('POST', `/api/subdivisions/${s.key}/blocks`, token, { name: 'C', stage_id: foreignStage });
      expect(wrongStage.statusCode).toBe(422);
      expect(wrongStage.json().errors.stage_id).toEqual([LOT_MESSAGES.stageOfOtherSubdivision]);

      const blockId = created.json().data.id as number;
      const lot = await createLot(db(), s.id, { block: 'B', number: '7' });
      await createLot(db(), s.id, { block: 'AA', number: '1' });
      const list = blocksResponseSchema.parse((await call('GET', `/api/subdivisions/${s.key}/blocks`, token)).json());
      expect(list.data.map((b) => [b.name, b.lots_count])).toEqual([
        ['B', 1],
        ['AA', 1],
      ]);
      const renamed = await call('PATCH', `/api/blocks/${blockId}`, token, { name: 'D' });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect((await lotRow(lot))!.code).toBe('MZ D - LT 7');
      const ownStage = await createStage(db(), s.id, 'Etapa Sur');
      const moved = await call('PATCH', `/api/blocks/${blockId}`, token, { stage_id: ownStage });
      expect(moved.json().data).toMatchObject({ name: 'D', stage_id: ownStage, lots_count: 1 });
      expect((await call('PATCH', `/api/blocks/${blockId}`, token, {})).statusCode).toBe(422);
      const refused = await call('DELETE', `/api/blocks/${blockId}`, token);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(LOT_MESSAGES.blockHasLots);
      const empty = (await call('POST', `/api/subdivisions/${s.key}/blocks`, token, { name: 'E' })).json().data.id as number;
      expect((await call('DELETE', `/api/blocks/${empty}`, token)).statusCode).toBe(204);
      expect((await history('blocks', empty)).map((r) => r.action)).toEqual(['CREATE', 'DELETE']);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('lots', () => {
    it('creates a lot: block created when missing, code, computed list price, currency, first history row with the user', async () => {
      const { token, fullName } = await staffWith();
      const s = await createSubdivision(db(), { currency: 'USD' });
      const res = await call('POST', `/api/subdivisions/${s.key}/lots`, token, {
        block: 'a',
        number: '12',
        area_m2: 120.5,
        price_per_m2: 25000,
        front_m: 8,
        front_neighbour: 'Calle Los Pinos',
        is_corner: true,
      });
      expect(res.statusCode, res.body).toBe(201);
      const { data } = lotResponseSchema.parse(res.json());
      expect(data).toMatchObject({
        block: 'A',
        number: '12',
        code: 'MZ A - LT 12',
        list_price: 3012500,
        list_price_reason: null,
        currency: 'USD',
        status: 'DISPONIBLE',
        has_polygon: false,
        is_corner: true,
        facing_park: false,
        stage: null,
      });
      expect((await db().selectFrom('blocks').select('name').where('subdivision_id', '=', s.id).execute()).map((b) => b.name)).toEqual([
        'A',
      ]);
      const hist = lotStatusHistoryPageSchema.parse((await call('GET', `/api/lots/${data.id}/status-history`, token)).json());
      expect(hist.data).toEqual([expect.objectContaining({ from_status: null, to_status: 'DISPONIBLE', user_name: fullName })]);
      expect((await history('lots', data.id)).map((r) => r.action)).toEqual(['CREATE']);
      expect((await db().selectFrom('change_history').select('entity').where('entity', '=', 'blocks').execute()).length).toBeGreaterThan(0);
    });

    it('answers 422 on a duplicate code, a differing list price without reason, or bad fields; nothing stored', async () => {
      const { token } = await staffWith();
      const s = await createSubdivision(db());
      await createLot(db(), s.id, { block: 'A', number: '12' });
      const count = async () => (await db().selectFrom('lots').select('id').where('subdivision_id', '=', s.id).execute()).length;
      const dup = await call('POST', `/api/subdivisions/${s.key}/lots`, token, {
        block: 'A',
        number: '12',
        area_m2: 100,
        price_per_m2: 100,
      });
      expect(dup.statusCode).toBe(422);
      expect(dup.json().errors.number).toEqual(['Ya existe el lote MZ A - LT 12']);
      const noReason = await call('POST', `/api/subdivisions/${s.key}/lots`, token, {
        block: 'A',
        number: '13',
        area_m2: 100,
        price_per_m2: 100,
        list_price: 9999,
      });
      expect(noReason.statusCode).toBe(422);
      expect(Object.keys(noReason.json().errors)).toEqual(['list_price_reason']);
      const bad = await call('POST', `/api/subdivisions/${s.key}/lots`, token, {
        block: 'A B',
        number: '',
        area_m2: 1.234,
        price_per_m2: -1,
      });
      expect(bad.statusCode).toBe(422);
      expect(Object.keys(bad.json().errors).sort()).toEqual(['area_m2', 'block', 'number', 'price_per_m2']);
      expect(await count()).toBe(1);
      const withReason = await call('POST', `/api/subdivisions/${s.key}/lots`, token, {
        block: 'A',
        number: '13',
        area_m2: 100,
        price_per_m2: 100,
        list_price: 9999,
        list_price_reason: 'Esquina',
      });
      expect(withReason.statusCode).toBe(201);
      expect(withReason.json().data).toMatchObject({ list_price: 9999, list_price_reason: 'Esquina' });
    });

    it('updates: recomputes list price on area/price change, reason rule on the merged record, block move and code', async () => {
      const { token } = await staffWith();
      const s = await createSubdivision(db());
      const id = await createLot(db(), s.id, { block: 'A', number: '1', area_m2: 100, price_per_m2: 20000 });
      await createLot(db(), s.id, { block: 'B', number: '1' });
      let res = await call('PATCH', `/api/lots/${id}`, token, { area_m2: 110 });
      expect(res.json().data).toMatchObject({ list_price: 2200000, list_price_reason: null });
      res = await call('PATCH', `/api/lots/${id}`, token, { list_price: 2000000 });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.list_price_reason).toEqual([LOT_MESSAGES.reasonRequired]);
      res = await call('PATCH', `/api/lots/${id}`, token, { list_price: 2000000, list_price_reason: 'Descuento por pendiente' });
      expect(res.json().data).toMatchObject({ list_price: 2000000, list_price_reason: 'Descuento por pendiente' });
      res = await call('PATCH', `/api/lots/${id}`, token, { notes: 'Frente a parque' });
      expect(res.json().data).toMatchObject({
        list_price: 2000000,
        list_price_reason: 'Descuento por pendiente',
        notes: 'Frente a parque',
      });
      res = await call('PATCH', `/api/lots/${id}`, token, { list_price_reason: null });
      expect(res.statusCode).toBe(422);
      res = await call('PATCH', `/api/lots/${id}`, token, { price_per_m2: 30000 });
      expect(res.json().data).toMatchObject({ list_price: 3300000, list_price_reason: null });
      res = await call('PATCH', `/api/lots/${id}`, token, { block: 'B' });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.number).toEqual(['Ya existe el lote MZ B - LT 1']);
      res = await call('PATCH', `/api/lots/${id}`, token, { block: 'c', number: '5a' });
      expect(res.json().data).toMatchObject({ block: 'C', number: '5A', code: 'MZ C - LT 5A' });
      expect((await history('lots', id)).filter((r) => r.action === 'UPDATE').length).toBe(5);
      expect((await call('PATCH', `/api/lots/999999`, token, { notes: 'x' })).statusCode).toBe(404);
    });

    it('lists with filters, q and natural block/number order', async () => {
      const { token } = await staffWith();
      const s = await createSubdivision(db());
      const stage = await createStage(db(), s.id, 'Etapa 1');
      await createBlock(db(), s.id, 'B', { stageId: stage });
      for (const [block, number] of [
        ['B', '10'],
        ['A', '2'],
        ['B', '9'],
        ['AA', '1'],
        ['A', '10'],
      ] as const)
        await createLot(db(), s.id, { block, number, notes: number === '9' ? 'Frente al parque' : null });
      await createLot(db(), s.id, { block: 'C', number: '1', status: 'VENDIDO' });
      const all = lotsPageSchema.parse((await call('GET', `/api/subdivisions/${s.key}/lots?sort=block`, token)).json());
      expect(all.data.map((l) => l.code)).toEqual([
        'MZ A - LT 2',
        'MZ A - LT 10',
        'MZ B - LT 9',
        'MZ B - LT 10',
        'MZ C - LT 1',
        'MZ AA - LT 1',
      ]);
      const desc = lotsPageSchema.parse((await call('GET', `/api/subdivisions/${s.key}/lots?sort=-block&per_page=2`, token)).json());
      expect(desc.data.map((l) => l.code)).toEqual(['MZ AA - LT 1', 'MZ C - LT 1']);
      expect(desc.meta.total).toBe(6);
      const byBlock = lotsPageSchema.parse((await call('GET', `/api/subdivisions/${s.key}/lots?block=b`, token)).json());
      expect(byBlock.data.map((l) => [l.number, l.stage])).toEqual([
        ['9', 'Etapa 1'],
        ['10', 'Etapa 1'],
      ]);
      expect(lotsPageSchema.parse((await call('GET', `/api/subdivisions/${s.key}/lots?stage_id=${stage}`, token)).json()).meta.total).toBe(
        2,
      );
      expect(
        lotsPageSchema.parse((await call('GET', `/api/subdivisions/${s.key}/lots?status=VENDIDO`, token)).json()).data.map((l) => l.code),
      ).toEqual(['MZ C - LT 1']);
      expect(
        lotsPageSchema.parse((await call('GET', `/api/subdivisions/${s.key}/lots?q=parque`, token)).json()).data.map((l) => l.code),
      ).toEqual(['MZ B - LT 9']);
      expect(lotsPageSchema.parse((await call('GET', `/api/subdivisions/${s.key}/lots?q=lt 10`, token)).json()).meta.total).toBe(2);
    });

    it('keeps lot pages and the subdivisions list per revision: any write, by any path, shows in the next answer', async () => {
      const { token } = await staffWith();
      const s = await createSubdivision(db());
      const stage = await createStage(db(), s.id, 'Etapa 1');
      await createBlock(db(), s.id, 'A', { stageId: stage });
      const lot = await createLot(db(), s.id, { block: 'A', number: '1' });
      const lotsUrl = `/api/subdivisions/${s.key}/lots?per_page=50&sort=code`;
      const page = async () => lotsPageSchema.parse((await call('GET', lotsUrl, token)).json());
      const listed = async () =>
        subdivisionsPageSchema
          .parse((await call('GET', '/api/subdivisions?per_page=100', token)).json())
          .data.find((row) => row.id === s.id);
      const first = await page();
      expect(await page()).toEqual(first); // kept
      expect((await listed())?.lot_counts.DISPONIBLE).toBe(1);
      // Written straight to the database (triggers of migrations 0013 and 0014 see every path).
      await db().updateTable('stages').set({ name: 'Etapa Norte' }).where('id', '=', stage).execute();
      expect((await page()).data[0]!.stage).toBe('Etapa Norte');
      await db().updateTable('lots').set({ list_price: 4242 }).where('id', '=', lot).execute();
      expect((await page()).data[0]!.list_price).toBe(4242);
      await db().updateTable('lots').set({ status: 'VENDIDO' }).where('id', '=', lot).execute();
      expect((await listed())?.lot_counts).toMatchObject({ DISPONIBLE: 0, VENDIDO: 1 });
      await db().updateTable('subdivisions').set({ name: 'Renombrada' }).where('id', '=', s.id).execute();
      expect((await listed())?.name).toBe('Renombrada');
      expect((await page()).data[0]!.stage).toBe('Etapa Norte');
      await db().deleteFrom('stages').where('id', '=', stage).execute();
      expect((await page()).data[0]!.stage).toBeNull();
      // Other queries are kept apart; a new and a deleted subdivision show in the list.
      expect((await call('GET', `/api/subdivisions/${s.key}/lots?status=DISPONIBLE`, token)).json().meta.total).toBe(0);
      const other = await createSubdivision(db());
      expect(
        subdivisionsPageSchema.parse((await call('GET', '/api/subdivisions?per_page=100', token)).json()).data.map((r) => r.id),
      ).toContain(other.id);
      await db().deleteFrom('subdivisions').where('id', '=', other.id).execute();
      expect(
        subdivisionsPageSchema.parse((await call('GET', '/api/subdivisions?per_page=100', token)).json()).data.map((r) => r.id),
      ).not.toContain(other.id);
      // An ETag: 304 while current, never to someone without the permission; 404 for an unknown key.
      const current = await call('GET', lotsUrl, token);
      const etag = current.headers.etag as string;
      expect(
        (await ctx().app.inject({ method: 'GET', url: lotsUrl, headers: { ...bearer(token), 'if-none-match': etag } })).statusCode,
      ).toBe(304);
      const sales = await staffWith(SALES);
      expect(
        (await ctx().app.inject({ method: 'GET', url: lotsUrl, headers: { ...bearer(sales.token), 'if-none-match': etag } })).statusCode,
      ).toBe(403);
      expect((await call('GET', `/api/subdivisions/${ids.encode(987654)}/lots`, token)).statusCode).toBe(404);
    });

    it('deletes only DISPONIBLE lots', async () => {
      const { token } = await staffWith();
      const s = await createSubdivision(db());
      const free = await createLot(db(), s.id);
      const sold = await createLot(db(), s.id, { status: 'VENDIDO' });
      const refused = await call('DELETE', `/api/lots/${sold}`, token);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(LOT_MESSAGES.onlyAvailableDeletable);
      expect(await lotRow(sold)).toBeDefined();
      expect((await call('DELETE', `/api/lots/${free}`, token)).statusCode).toBe(204);
      expect(await lotRow(free)).toBeUndefined();
      expect((await history('lots', free)).map((r) => r.action)).toEqual(['CREATE', 'DELETE']);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('land use (issue 13 item 4)', () => {
    const statusesOf = async (id: number) =>
      (
        await db().selectFrom('lot_status_changes').select(['from_status', 'to_status']).where('lot_id', '=', id).orderBy('id').execute()
      ).map((r) => `${r.from_status ?? '—'}→${r.to_status}`);

    it('creates a lot of a use not for sale as NO_VENDIBLE, VIVIENDA by default', async () => {
      const { token } = await staffWith();
      const s = await createSubdivision(db());
      const club = await call('POST', `/api/subdivisions/${s.key}/lots`, token, {
        block: 'A',
        number: '1',
        area_m2: 900,
        price_per_m2: 0,
        land_use: 'CLUB_HOUSE',
      });
      expect(club.statusCode, club.body).toBe(201);
      expect(lotResponseSchema.parse(club.json()).data).toMatchObject({ land_use: 'CLUB_HOUSE', status: 'NO_VENDIBLE' });
      expect(await statusesOf(club.json().data.id)).toEqual(['—→NO_VENDIBLE']);
      const home = await call('POST', `/api/subdivisions/${s.key}/lots`, token, {
        block: 'A',
        number: '2',
        area_m2: 120,
        price_per_m2: 25000,
      });
      expect(lotResponseSchema.parse(home.json()).data).toMatchObject({ land_use: 'VIVIENDA', status: 'DISPONIBLE' });
      const bad = await call('POST', `/api/subdivisions/${s.key}/lots`, token, {
        block: 'A',
        number: '3',
        area_m2: 1,
        price_per_m2: 1,
        land_use: 'PARQUE',
      });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors.land_use).toEqual(['Elija un uso válido']);
    });

    it('moves a DISPONIBLE lot to NO_VENDIBLE and back by its use, with history; refuses it for a sold lot (409, nothing stored)', async () => {
      const { token } = await staffWith();
      const s = await createSubdivision(db());
      const id = await createLot(db(), s.id);
      const park = await call('PATCH', `/api/lots/${id}`, token, { land_use: 'RECREACION' });
      expect(park.statusCode, park.body).toBe(200);
      expect(park.json().data).toMatchObject({ land_use: 'RECREACION', status: 'NO_VENDIBLE' });
      const trade = await call('PATCH', `/api/lots/${id}`, token, { land_use: 'COMERCIO' });
      expect(trade.json().data).toMatchObject({ land_use: 'COMERCIO', status: 'DISPONIBLE' });
      expect(await statusesOf(id)).toEqual(['—→DISPONIBLE', 'DISPONIBLE→NO_VENDIBLE', 'NO_VENDIBLE→DISPONIBLE']);
      // Between sellable uses the status stays.
      expect((await call('PATCH', `/api/lots/${id}`, token, { land_use: 'MULTIFAMILIAR' })).json().data.status).toBe('DISPONIBLE');

      const sold = await createLot(db(), s.id, { status: 'VENDIDO' });
      const refused = await call('PATCH', `/api/lots/${sold}`, token, { land_use: 'EQUIPAMIENTO', notes: 'colegio' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe('Un lote vendido no puede pasar a un uso que no se vende');
      expect(await lotRow(sold)).toMatchObject({ status: 'VENDIDO', land_use: 'VIVIENDA', notes: null });
      // The status endpoint never leads into or out of NO_VENDIBLE.
      const into = await call('POST', `/api/lots/${id}/status`, token, { status: 'NO_VENDIBLE' });
      expect(into.statusCode).toBe(409);
      expect(into.json().message).toBe('No se puede cambiar el lote de Disponible a No vendible');
    });

    it('deletes NO_VENDIBLE lots, keeps them out of bulk prices, and shows them on the public map without price', async () => {
      const { token } = await staffWith();
      const s = await createSubdivision(db(), { published: true, public_prices: true });
      const home = await createLot(db(), s.id, { block: 'A', number: '1', polygon: square(0, 0) });
      const park = await createLot(db(), s.id, { block: 'A', number: '2', status: 'NO_VENDIBLE', polygon: square(10, 0) });
      const preview = await call('POST', `/api/subdivisions/${s.key}/lots/price-preview`, token, {
        selection: { blocks: ['A'] },
        change: { kind: 'AMOUNT_PER_M2', amount_per_m2: 1000 },
        reason: 'Ajuste',
      });
      expect(preview.statusCode, preview.body).toBe(200);
      expect(priceChangePreviewResponseSchema.parse(preview.json()).data.rows.map((r) => r.id)).toEqual([home]);

      const map = publicLotMapResponseSchema.parse((await call('GET', `/public/subdivisions/${s.key}/map`, null)).json()).data;
      expect(map.lots.map((l) => [l.code, l.status, l.land_use, l.list_price === null])).toEqual([
        ['MZ A - LT 1', 'DISPONIBLE', 'VIVIENDA', false],
        ['MZ A - LT 2', 'NO_VENDIBLE', 'RECREACION', true],
      ]);
      const staff = lotMapResponseSchema.parse((await call('GET', `/api/subdivisions/${s.key}/map`, token)).json()).data;
      expect(staff.lots.find((l) => l.id === park)).toMatchObject({ status: 'NO_VENDIBLE', land_use: 'RECREACION' });
      const counts = subdivisionResponseSchema.parse((await call('GET', `/api/subdivisions/${s.key}`, token)).json()).data.lot_counts;
      expect(counts).toMatchObject({ DISPONIBLE: 1, NO_VENDIBLE: 1 });
      expect((await call('DELETE', `/api/lots/${park}`, token)).statusCode).toBe(204);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('lot status', () => {
    const allowed = LOT_STATUSES.flatMap((from) => LOT_STATUS_TRANSITIONS[from].map((to) => ({ from, to })));
    const forbidden = LOT_STATUSES.flatMap((from) =>
      LOT_STATUSES.filter((to) => to !== from && !LOT_STATUS_TRANSITIONS[from].includes(to)).map((to) => ({ from, to })),
    );

    it('has the DOMAIN state chart in its tables', () => {
      expect(allowed).toHaveLength(9);
      // 21 among the six sale statuses + 12 into and out of NO_VENDIBLE (only a change of use moves it).
      expect(forbidden).toHaveLength(33);
      expect(forbidden).toContainEqual({ from: 'VENDIDO', to: 'BLOQUEADO' });
    });

    it.each(allowed)('allows $from → $to with a history row by the caller and a change record', async ({ from, to }) => {
      const { token, fullName } = await staffWith();
      const s = await createSubdivision(db());
      const id = await createLot(db(), s.id, { status: from });
      const reason = REASON_REQUIRED_STATUSES.includes(to) ? 'Motivo de prueba' : undefined;
      const res = await call('POST', `/api/lots/${id}/status`, token, {
        status: to,
        ...(reason ? { reason } : {}),
        ...(isHoldStatus(to) ? { until: HOLD_UNTIL } : {}),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.status).toBe(to);
      const hist = lotStatusHistoryPageSchema.parse((await call('GET', `/api/lots/${id}/status-history`, token)).json());
      expect(hist.data[0]).toMatchObject({ from_status: from, to_status: to, reason: reason ?? null, user_name: fullName });
      const last = (await history('lots', id)).at(-1)!;
      expect(last.action).toBe('UPDATE');
      expect(JSON.parse(last.changed_fields)).toContain('status');
    });

    it.each(forbidden)('refuses $from → $to with 409 and changes nothing', async ({ from, to }) => {
      const { token } = await staffWith();
      const s = await createSubdivision(db());
      const id = await createLot(db(), s.id, { status: from });
      const before = (await db().selectFrom('lot_status_changes').select('id').where('lot_id', '=', id).execute()).length;
      const res = await call('POST', `/api/lots/${id}/status`, token, { status: to, reason: 'Motivo', until: HOLD_UNTIL });
      expect(res.statusCode).toBe(409);
      expect((await lotRow(id))!.status).toBe(from);
      expect((await db().selectFrom('lot_status_changes').select('id').where('lot_id', '=', id).execute()).length).toBe(before);
    });

    it('explains refusals in Spanish: transition, same status; 422 on reason when required', async () => {
      const { token } = await staffWith();
      const s = await createSubdivision(db());
      const sold = await createLot(db(), s.id, { status: 'VENDIDO' });
      expect(
        (await call('POST', `/api/lots/${sold}/status`, token, { status: 'BLOQUEADO', reason: 'x', until: HOLD_UNTIL })).json().message,
      ).toBe('No se puede cambiar el lote de Vendido a Bloqueado');
      const same = await call('POST', `/api/lots/${sold}/status`, token, { status: 'VENDIDO' });
      expect(same.statusCode).toBe(409);
      expect(same.json().message).toBe('El lote ya está en estado Vendido');
      const free = await createLot(db(), s.id);
      for (const status of REASON_REQUIRED_STATUSES) {
        const res = await call('POST', `/api/lots/${free}/status`, token, { status, reason: '  ', until: HOLD_UNTIL });
        expect(res.statusCode, status).toBe(422);
        expect(Object.keys(res.json().errors)).toEqual(['reason']);
      }
      expect((await lotRow(free))!.status).toBe('DISPONIBLE');
      expect((await call('POST', `/api/lots/999999/status`, token, { status: 'SEPARADO', until: HOLD_UNTIL })).statusCode).toBe(404);
    });

    it('pages the history newest first', async () => {
      const { token } = await staffWith();
      const s = await createSubdivision(db());
      const id = await createLot(db(), s.id);
      const path: LotStatus[] = ['SEPARADO', 'DISPONIBLE', 'BLOQUEADO', 'DISPONIBLE'];
      for (const status of path)
        expect((await call('POST', `/api/lots/${id}/status`, token, { status, reason: 'r', until: HOLD_UNTIL })).statusCode).toBe(200);
      const page = lotStatusHistoryPageSchema.parse((await call('GET', `/api/lots/${id}/status-history?per_page=2`, token)).json());
      expect(page.meta.total).toBe(5);
      expect(page.data.map((h) => [h.from_status, h.to_status])).toEqual([
        ['BLOQUEADO', 'DISPONIBLE'],
        ['DISPONIBLE', 'BLOQUEADO'],
      ]);
      const page3 = lotStatusHistoryPageSchema.parse((await call('GET', `/api/lots/${id}/status-history?per_page=2&page=3`, token)).json());
      expect(page3.data).toEqual([expect.objectContaining({ from_status: null, to_status: 'DISPONIBLE', user_name: null })]);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('bulk prices', () => {
    async function setup() {
      const s = await createSubdivision(db());
      const a1 = await createLot(db(), s.id, { block: 'A', number: '1', area_m2: 100, price_per_m2: 20000 });
      const a2 = await createLot(db(), s.id, {
        block: 'A',
        number: '2',
        area_m2: 150,
        price_per_m2: 20000,
        list_price: 2900000,
        list_price_reason: 'Esquina',
      });
      const a3 = await createLot(db(), s.id, { block: 'A', number: '3', area_m2: 120, price_per_m2: 20000, status: 'VENDIDO' });
      const b1 = await createLot(db(), s.id, { block: 'B', number: '1', area_m2: 200, price_per_m2: 10000 });
      return { s, a1, a2, a3, b1 };
    }

    it('previews totals over every selected lot without storing, then applies the same figures in one go', async () => {
      const { token } = await staffWith();
      const { s, a1, a2, a3, b1 } = await setup();
      const body = {
        selection: { blocks: ['a'], statuses: ['DISPONIBLE'] },
        change: { kind: 'PERCENT', percent: 10 },
        reason: 'Reajuste 2026',
      };
      const preview = priceChangePreviewResponseSchema.parse(
        (await call('POST', `/api/subdivisions/${s.key}/lots/price-preview`, token, body)).json(),
      );
      expect(preview.data).toMatchObject({ count: 2, currency: 'PEN', total_before: 2000000 + 2900000, total_after: 2200000 + 3300000 });
      expect(preview.data.rows.map((r) => [r.id, r.new_price_per_m2, r.new_list_price])).toEqual([
        [a1, 22000, 2200000],
        [a2, 22000, 3300000],
      ]);
      expect((await lotRow(a1))!.price_per_m2).toBe(20000);

      const applied = await call('POST', `/api/subdivisions/${s.key}/lots/price-update`, token, body);
      expect(applied.statusCode, applied.body).toBe(200);
      expect(applied.json()).toEqual({ data: { updated: 2 } });
      expect(await lotRow(a2)).toMatchObject({ price_per_m2: 22000, list_price: 3300000, list_price_reason: null });
      expect((await lotRow(a3))!.price_per_m2).toBe(20000);
      expect((await lotRow(b1))!.price_per_m2).toBe(10000);
      const after = await db()
        .selectFrom('lots')
        .select((eb) => eb.fn.sum<number>('list_price').as('t'))
        .where('id', 'in', [a1, a2])
        .executeTakeFirstOrThrow();
      expect(Number(after.t)).toBe(preview.data.total_after);
      const last = (await history('lots', a1)).at(-1)!;
      expect(JSON.parse(last.after!)).toMatchObject({ price_per_m2: 22000, price_change_reason: 'Reajuste 2026' });
    });

    it('sets or adds per m² by lot ids; 422 when a price turns negative or nothing matches; nothing stored', async () => {
      const { token } = await staffWith();
      const { s, a1, b1 } = await setup();
      const set = await call('POST', `/api/subdivisions/${s.key}/lots/price-update`, token, {
        selection: { lot_ids: [b1] },
        change: { kind: 'SET_PRICE_PER_M2', price_per_m2: 15000 },
        reason: 'r',
      });
      expect(set.json().data.updated).toBe(1);
      expect(await lotRow(b1)).toMatchObject({ price_per_m2: 15000, list_price: 3000000 });
      const negative = await call('POST', `/api/subdivisions/${s.key}/lots/price-update`, token, {
        selection: { blocks: ['A', 'B'] },
        change: { kind: 'AMOUNT_PER_M2', amount_per_m2: -16000 },
        reason: 'r',
      });
      expect(negative.statusCode).toBe(422);
      expect(negative.json().errors.change).toEqual(['El nuevo precio por m² de MZ B - LT 1 sería negativo']);
      expect((await lotRow(a1))!.price_per_m2).toBe(20000);
      const none = await call('POST', `/api/subdivisions/${s.key}/lots/price-preview`, token, {
        selection: { statuses: ['CANJE'] },
        change: { kind: 'PERCENT', percent: 5 },
        reason: 'r',
      });
      expect(none.statusCode).toBe(422);
      expect(none.json().message).toBe(LOT_MESSAGES.noLotsSelected);
      const empty = await call('POST', `/api/subdivisions/${s.key}/lots/price-preview`, token, {
        selection: {},
        change: { kind: 'PERCENT', percent: 5 },
        reason: '',
      });
      expect(Object.keys(empty.json().errors).sort()).toEqual(['reason', 'selection.blocks']);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('maps', () => {
    async function mapped(options: { published?: boolean; public_prices?: boolean } = {}) {
      const s = await createSubdivision(db(), options);
      await createLot(db(), s.id, { block: 'A', number: '1', status: 'DISPONIBLE', polygon: square(0, 0), price_per_m2: 30000 });
      await createLot(db(), s.id, { block: 'A', number: '2', status: 'SEPARADO', polygon: square(10, 0) });
      await createLot(db(), s.id, { block: 'B', number: '1', status: 'BLOQUEADO', polygon: square(-5, 20, 5) });
      await createLot(db(), s.id, { block: 'B', number: '2', status: 'RESERVA_COMERCIAL', polygon: null });
      await createLot(db(), s.id, { block: 'B', number: '3', status: 'CANJE', polygon: square(30, 30) });
      return s;
    }

    it('gives staff every lot with its polygon and the bounds; sales staff may read it too', async () => {
      const { token } = await staffWith();
      const s = await mapped();
      const res = await call('GET', `/api/subdivisions/${s.key}/map`, token);
      expect(res.statusCode, res.body).toBe(200);
      const { data } = lotMapResponseSchema.parse(res.json());
      expect(data.subdivision).toMatchObject({ key: s.key, bounds: [-5, 0, 40, 40], plan_url: null, coordinate_system: 'PLAN' });
      expect(data.lots.map((l) => [l.code, l.status, l.polygon === null])).toEqual([
        ['MZ A - LT 1', 'DISPONIBLE', false],
        ['MZ A - LT 2', 'SEPARADO', false],
        ['MZ B - LT 1', 'BLOQUEADO', false],
        ['MZ B - LT 2', 'RESERVA_COMERCIAL', true],
        ['MZ B - LT 3', 'CANJE', false],
      ]);
      expect(data.lots[0]!.polygon).toEqual(square(0, 0));
      const sales = await staffWith(SALES);
      expect((await call('GET', `/api/subdivisions/${s.key}/map`, sales.token)).statusCode).toBe(200);
      expect((await call('GET', `/api/subdivisions/${s.key}/lots`, sales.token)).statusCode).toBe(403);
      expect((await call('GET', `/api/lots/${data.lots[0]!.id}`, sales.token)).statusCode).toBe(200);
      expect((await call('GET', `/api/lots/${data.lots[0]!.id}/status-history`, sales.token)).statusCode).toBe(200);
      expect((await call('POST', `/api/lots/${data.lots[0]!.id}/status`, sales.token, { status: 'SEPARADO' })).statusCode).toBe(403);
      const half = await staffWith([MODULE.comercial]);
      expect((await call('GET', `/api/subdivisions/${s.key}/map`, half.token)).statusCode).toBe(403);
      const empty = await createSubdivision(db());
      expect(lotMapResponseSchema.parse((await call('GET', `/api/subdivisions/${empty.key}/map`, token)).json()).data).toMatchObject({
        lots: [],
        subdivision: { bounds: null },
      });
    });

    it('sends the maps with an ETag (304 while current, a new one after a lot changes) and compressed bytes kept per content', async () => {
      const { token } = await staffWith();
      const s = await mapped({ published: true });
      // Enough lots for the answer to be compressed (over 1 KiB).
      for (let n = 4; n <= 12; n++) await createLot(db(), s.id, { block: 'A', number: String(n), polygon: square(n * 10, 0) });
      const get = (url: string, headers: Record<string, string>) => ctx().app.inject({ method: 'GET', url, headers });
      for (const [url, auth, scope] of [
        [`/api/subdivisions/${s.key}/map`, bearer(token), 'private'],
        [`/public/subdivisions/${s.key}/map`, {}, 'public'],
      ] as const) {
        const plain = await get(url, { ...auth });
        expect(plain.statusCode).toBe(200);
        const etag = plain.headers.etag as string;
        expect(etag).toMatch(/^W\/"[\w-]{27}"$/);
        expect(plain.headers['cache-control']).toBe(`${scope}, no-cache`);
        expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
        // Compressed: the same JSON, and the same bytes for the next reader (kept, not redone).
        const br = await get(url, { ...auth, 'accept-encoding': 'gzip, br' });
        expect(br.headers['content-encoding']).toBe('br');
        expect(br.headers.etag).toBe(etag);
        expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
        expect((await get(url, { ...auth, 'accept-encoding': 'br' })).rawPayload.equals(br.rawPayload)).toBe(true);
        const gz = await get(url, { ...auth, 'accept-encoding': 'gzip' });
        expect(gz.headers['content-encoding']).toBe('gzip');
        expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
        // The browser's copy is current: 304, no body.
        const current = await get(url, { ...auth, 'if-none-match': etag });
        expect(current.statusCode).toBe(304);
        expect(current.body).toBe('');
        expect((await get(url, { ...auth, 'if-none-match': `"other", ${etag.slice(2)}` })).statusCode).toBe(304);
      }
      // A lot changes: both maps get a new ETag and the old one no longer answers 304.
      const before = (await get(`/public/subdivisions/${s.key}/map`, {})).headers.etag as string;
      const staffBefore = (await get(`/api/subdivisions/${s.key}/map`, bearer(token))).headers.etag as string;
      const lotId = lotMapResponseSchema.parse((await call('GET', `/api/subdivisions/${s.key}/map`, token)).json()).data.lots[0]!.id;
      expect((await call('POST', `/api/lots/${lotId}/status`, token, { status: 'SEPARADO', until: HOLD_UNTIL })).statusCode).toBe(200);
      const after = await get(`/public/subdivisions/${s.key}/map`, { 'if-none-match': before });
      expect(after.statusCode).toBe(200);
      expect(after.headers.etag).not.toBe(before);
      const staffAfter = await get(`/api/subdivisions/${s.key}/map`, { ...bearer(token), 'if-none-match': staffBefore });
      expect(staffAfter.statusCode).toBe(200);
      expect(lotMapResponseSchema.parse(staffAfter.json()).data.lots[0]!.status).toBe('SEPARADO');
      // A 304 still needs the permission: no validator leaks a map to someone who may not read it.
      const half = await staffWith([MODULE.comercial]);
      expect(
        (await get(`/api/subdivisions/${s.key}/map`, { ...bearer(half.token), 'if-none-match': staffAfter.headers.etag as string }))
          .statusCode,
      ).toBe(403);
    });

    it('keeps each map per subdivision revision: any write, by any path, shows in the next answer', async () => {
      const { token } = await staffWith();
      const s = await mapped({ published: true });
      const staff = async () => lotMapResponseSchema.parse((await call('GET', `/api/subdivisions/${s.key}/map`, token)).json()).data;
      const publicMap = () => call('GET', `/public/subdivisions/${s.key}/map`, null);
      const first = await staff();
      expect(await staff()).toEqual(first); // kept
      // Written straight to the database (the triggers of migration 0013 see every path): a block's
      // name, the subdivision's name, a lot's price, a lot removed, then the subdivision unpublished.
      const renamed = first.lots[0]!.block;
      await db().updateTable('blocks').set({ name: 'Z' }).where('subdivision_id', '=', s.id).where('name', '=', renamed).execute();
      expect((await staff()).lots.map((l) => l.block)).toEqual(first.lots.map((l) => (l.block === renamed ? 'Z' : l.block)));
      await db().updateTable('subdivisions').set({ name: 'Renombrada' }).where('id', '=', s.id).execute();
      expect((await staff()).subdivision.name).toBe('Renombrada');
      expect((await publicMap()).json().data.subdivision.name).toBe('Renombrada');
      await db().updateTable('lots').set({ list_price: 4242 }).where('id', '=', first.lots[0]!.id).execute();
      expect((await staff()).lots[0]!.list_price).toBe(4242);
      await db().deleteFrom('lots').where('id', '=', first.lots[0]!.id).execute();
      expect((await staff()).lots).toHaveLength(first.lots.length - 1);
      expect((await publicMap()).statusCode).toBe(200);
      await db().updateTable('subdivisions').set({ published: 0 }).where('id', '=', s.id).execute();
      expect((await publicMap()).statusCode).toBe(404);
      // Deleted: no revision left, the answer is the 404 of an unknown subdivision.
      await db().deleteFrom('subdivisions').where('id', '=', s.id).execute();
      expect((await call('GET', `/api/subdivisions/${s.key}/map`, token)).statusCode).toBe(404);
    });

    it('shows the public map only when published: public statuses, prices only when allowed, no ids', async () => {
      const hidden = await mapped({ published: false });
      const res404 = await call('GET', `/public/subdivisions/${hidden.key}/map`, null);
      expect(res404.statusCode).toBe(404);
      expect(res404.json().message).toBe(SUBDIVISION_MESSAGES.notFound);
      expect((await call('GET', '/public/subdivisions/zzz/map', null)).statusCode).toBe(404);
      expect((await call('GET', `/public/subdivisions/${ids.encode(987654)}/map`, null)).statusCode).toBe(404);

      const s = await mapped({ published: true, public_prices: false });
      const res = await call('GET', `/public/subdivisions/${s.key}/map`, null);
      expect(res.statusCode, res.body).toBe(200);
      const { data } = publicLotMapResponseSchema.parse(res.json());
      expect(data.lots.map((l) => [l.code, l.status])).toEqual([
        ['MZ A - LT 1', 'DISPONIBLE'],
        ['MZ A - LT 2', 'SEPARADO'],
        ['MZ B - LT 1', 'VENDIDO'],
        ['MZ B - LT 2', 'VENDIDO'],
        ['MZ B - LT 3', 'VENDIDO'],
      ]);
      expect(data.lots.every((l) => l.list_price === null && l.price_per_m2 === null)).toBe(true);
      expect(res.body).not.toMatch(/BLOQUEADO|RESERVA_COMERCIAL|CANJE|"id"|subdivision_id|user|notes/);
      expect(data.subdivision.bounds).toEqual([-5, 0, 40, 40]);

      const priced = await mapped({ published: true, public_prices: true });
      const withPrices = publicLotMapResponseSchema.parse((await call('GET', `/public/subdivisions/${priced.key}/map`, null)).json());
      expect(withPrices.data.lots[0]).toMatchObject({ price_per_m2: 30000, list_price: 3600000 });
    });
  });

  // -------------------------------------------------------------------------------------------
  it('writes change history under the table names', async () => {
    const { token } = await staffWith();
    const s = (await call('POST', '/api/subdivisions', token, subdivisionBody())).json().data as { id: number; key: string };
    const stage = (await call('POST', `/api/subdivisions/${s.key}/stages`, token, { name: 'E1' })).json().data.id as number;
    const block = (await call('POST', `/api/subdivisions/${s.key}/blocks`, token, { name: 'Q' })).json().data.id as number;
    const lot = (
      await call('POST', `/api/subdivisions/${s.key}/lots`, token, { block: 'Q', number: '1', area_m2: 90, price_per_m2: 1000 })
    ).json().data.id as number;
    for (const [entity, id] of [
      ['subdivisions', s.id],
      ['stages', stage],
      ['blocks', block],
      ['lots', lot],
    ] as const) {
      const rows = await history(entity, id);
      expect(rows.length, entity).toBeGreaterThan(0);
      expect(rows[0]!.actor_type).toBe('COLLABORATOR');
    }
  });
});
