import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import {
  LEAD_MESSAGES,
  leadImportPreviewResponseSchema,
  leadImportResultResponseSchema,
  leadsPageSchema,
} from '../../src/schemas/crm/leads';
import { ACTION, MODULE, SUBMODULE, type Permission } from '../../src/schemas/permissions';
import { channelOf, instantOf, leadsFromTable } from '../../server/modules/crm/lead-import';
import { createRole, createSession, createStaff } from '../../server/testing/fixtures';
import { bearer, dialects, recordingBroadcaster, useTestApp, useTestDatabase, multipartBody } from './harness';

/** Lead import (issue "CRM and sales"): CSV/XLSX of a Meta lead-ads export → preview → all or nothing. */

/** A multipart body with `file` and text fields. */
function multipart(filename: string, content: Buffer | string, fields: Record<string, string> = {}) {
  return multipartBody({ filename, contentType: 'text/csv', content }, fields);
}

/** What Meta's lead-ads CSV export looks like (its columns, `p:` phones, `fb`/`ig` platforms). */
const META_CSV = [
  'id,created_time,ad_name,campaign_name,form_name,platform,full_name,phone_number,email',
  'l:1,2026-11-20T10:04:05-05:00,Anuncio 1,Preventa Carabayllo,Formulario,fb,Rosa Quispe Flores,p:+51987654001,rosa@correo.pe',
  'l:2,2026-11-20T11:00:00-05:00,Anuncio 1,Preventa Carabayllo,Formulario,ig,Juan Pérez,p:+51987654002,',
  'l:3,2026-11-21T09:30:00-05:00,Anuncio 2,Verano,Formulario,fb,Rosa Q.,p:+51987654001,',
  'l:4,ayer,Anuncio 2,Verano,Formulario,tiktok,Ana Soto,+51 987 654 004,no-es-correo',
].join('\n');

describe('lead files', () => {
  it('maps channels and times as people and Meta write them', () => {
    expect(channelOf('fb')).toBe('FACEBOOK');
    expect(channelOf('ig')).toBe('INSTAGRAM');
    expect(channelOf('WhatsApp')).toBe('WHATSAPP');
    expect(channelOf('radio')).toBeNull();
    expect(instantOf('2026-11-20T10:04:05-05:00')).toBe('2026-11-20T15:04:05.000Z');
    expect(instantOf('2026-11-20 10:04')).toBe('2026-11-20T15:04:00.000Z');
    expect(instantOf('20/11/2026 10:04')).toBe('2026-11-20T15:04:00.000Z');
    expect(instantOf('ayer')).toBeNull();
  });

  it('reports a file without a name column, and rows without contact or with a bad phone', () => {
    expect(leadsFromTable({ rows: [['telefono'], ['987654321']], numbers: [1, 2], truncated: false }).issues[0]?.message).toBe(
      LEAD_MESSAGES.importNoName,
    );
    const result = leadsFromTable({
      rows: [
        ['nombre', 'celular', 'correo'],
        ['Ana', '', ''],
        ['Luis', '12', 'luis@correo.pe'],
        ['Eva', '987 000 111', ''],
      ],
      numbers: [1, 2, 3, 4],
      truncated: false,
    });
    expect(result.issues.map((i) => [i.row, i.severity])).toEqual([
      [2, 'ERROR'],
      [3, 'ERROR'],
    ]);
    expect(result.rows[2]).toMatchObject({ name: 'Eva', phone: '987000111', invalid: false });
  });
});

describe.each(dialects)('lead import (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const broadcaster = recordingBroadcaster();
  const ctx = useTestApp(db, {}, { broadcaster });
  let n = 0;

  async function staffWith(permissions: readonly Permission[]) {
    const role = `Import ${dialect} ${++n}`;
    await createRole(db(), role, permissions);
    const staff = await createStaff(db(), { roleNames: [role], clock: ctx().clock });
    return { staff, token: await createSession(db(), staff) };
  }
  const upload = (url: string, token: string, filename: string, content: Buffer | string, fields: Record<string, string> = {}) => {
    const body = multipart(filename, content, fields);
    return ctx().app.inject({ method: 'POST', url, payload: body.payload, headers: { ...body.headers, ...bearer(token) } });
  };

  it('previews a Meta export: new rows, a repeat within the file, warnings; nothing stored', async () => {
    const boss = await staffWith([MODULE.crm, SUBMODULE.leads, ACTION.supervisarLeads]);
    const res = await upload('/api/leads/imports/preview', boss.token, 'leads.csv', META_CSV);
    expect(res.statusCode, res.body).toBe(200);
    const { data } = leadImportPreviewResponseSchema.parse(res.json());
    expect(data).toMatchObject({ total: 4, create: 3, merge: 0, skip: 1, errors: 0 });
    expect(data.rows.map((r) => [r.row, r.action, r.channel, r.phone])).toEqual([
      [2, 'NUEVO', 'FACEBOOK', '987654001'],
      [3, 'NUEVO', 'INSTAGRAM', '987654002'],
      [4, 'REPETIDO', 'FACEBOOK', '987654001'],
      [5, 'NUEVO', 'TIKTOK', '987654004'],
    ]);
    expect(data.issues.map((i) => i.message)).toEqual(
      expect.arrayContaining([
        'Repite el contacto de la fila 2: se omite',
        expect.stringMatching(/^Fecha no válida/),
        expect.stringMatching(/^Correo no válido/),
      ]),
    );
    const stored = await db().selectFrom('leads').select('id').where('phone', 'in', ['987654001', '987654002']).execute();
    expect(stored).toEqual([]);
  });

  it('imports all at once for the chosen agent (notified once); a second import merges the known contacts', async () => {
    const boss = await staffWith([MODULE.crm, SUBMODULE.leads, ACTION.supervisarLeads]);
    const agent = await staffWith([MODULE.crm, SUBMODULE.leads]);
    broadcaster.events.length = 0;
    const csv = META_CSV.replaceAll('98765400', '98765410');
    const res = await upload('/api/leads/imports', boss.token, 'leads.csv', csv, { agent_id: String(agent.staff.id), channel: 'WEB' });
    expect(res.statusCode, res.body).toBe(200);
    expect(leadImportResultResponseSchema.parse(res.json()).data).toEqual({ created: 3, merged: 0, skipped: 1 });
    expect(broadcaster.events).toHaveLength(1);
    const mine = leadsPageSchema.parse(
      (await ctx().app.inject({ method: 'GET', url: '/api/leads?per_page=100&sort=received_at', headers: bearer(agent.token) })).json(),
    );
    // Ana's created_time was unreadable: she arrived at the import's time (the test clock's, before the others).
    expect(mine.data.map((l) => [l.name, l.channel, l.campaign])).toEqual([
      ['Ana Soto', 'TIKTOK', 'Verano'],
      ['Rosa Quispe Flores', 'FACEBOOK', 'Preventa Carabayllo'],
      ['Juan Pérez', 'INSTAGRAM', 'Preventa Carabayllo'],
    ]);
    expect(mine.data[1]?.received_at).toBe('2026-11-20T15:04:05.000Z');
    const history = await db()
      .selectFrom('change_history')
      .select('action')
      .where('entity', '=', 'leads')
      .where('record_id', '=', String(mine.data[0]!.id))
      .execute();
    expect(history.map((h) => h.action)).toEqual(['CREATE']);

    // The same file again: every contact is merged into the existing lead, nothing new.
    const again = await upload('/api/leads/imports', boss.token, 'leads.csv', csv, { agent_id: String(agent.staff.id) });
    expect(leadImportResultResponseSchema.parse(again.json()).data).toEqual({ created: 0, merged: 3, skipped: 1 });
    // "KEEP" creates them again.
    const kept = await upload('/api/leads/imports', boss.token, 'leads.csv', csv, { duplicates: 'KEEP' });
    expect(leadImportResultResponseSchema.parse(kept.json()).data.created).toBe(3);
  });

  it("an agent's import never merges nor reveals another agent's lead (docs/security.md 30.9)", async () => {
    const agent = await staffWith([MODULE.crm, SUBMODULE.leads]);
    const other = await staffWith([MODULE.crm, SUBMODULE.leads]);
    const boss = await staffWith([MODULE.crm, SUBMODULE.leads, ACTION.supervisarLeads]);
    const createLead = async (token: string, body: Record<string, unknown>) => {
      const res = await ctx().app.inject({
        method: 'POST',
        url: '/api/leads',
        headers: bearer(token),
        payload: { channel: 'WEB', ...body },
      });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { data: { id: number } }).data.id;
    };
    const theirs = await createLead(other.token, { name: 'Cliente Reservado De Otro', phone: '966100001' });
    const theirsByDocument = await createLead(other.token, {
      name: 'Otro Documento Ajeno',
      phone: '966100009',
      id_document_type: '1',
      document_number: '44556677',
    });
    const mine = await createLead(agent.token, { name: 'Mi Lead Propio', phone: '966100002' });
    const snapshot = (id: number) =>
      db()
        .selectFrom('leads')
        .select(['email', 'status', 'campaign', 'updated_at', 'version'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    const activities = async (id: number) =>
      (await db().selectFrom('lead_activities').select('id').where('lead_id', '=', id).execute()).length;
    const before = await snapshot(theirs);
    const beforeByDocument = await snapshot(theirsByDocument);
    const csv = [
      'full_name,phone_number,email,campaign_name,dni',
      'Intruso,966100001,intruso@correo.pe,Robo,',
      'Propio,966100002,propio@correo.pe,Verano,',
      'Por Documento,966100055,doc@correo.pe,Robo,44556677',
      'Nuevo,966100003,,,',
    ].join('\n');

    const preview = await upload('/api/leads/imports/preview', agent.token, 'leads.csv', csv);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.body).not.toContain('Reservado');
    expect(preview.body).not.toContain('Ajeno');
    const { data } = leadImportPreviewResponseSchema.parse(preview.json());
    expect(data).toMatchObject({ total: 4, create: 1, merge: 1, skip: 2, errors: 0 });
    expect(data.rows.map((r) => [r.row, r.action, r.duplicate_of])).toEqual([
      [2, 'OTRO_ASESOR', null],
      [3, 'FUSIONAR', { id: mine, name: 'Mi Lead Propio' }],
      [4, 'OTRO_ASESOR', null],
      [5, 'NUEVO', null],
    ]);
    expect(data.issues.filter((i) => i.row === 2 || i.row === 4).map((i) => [i.row, i.message])).toEqual([
      [2, LEAD_MESSAGES.importOtherAgent],
      [4, LEAD_MESSAGES.importOtherAgent],
    ]);

    const merged = await upload('/api/leads/imports', agent.token, 'leads.csv', csv, { duplicates: 'MERGE' });
    expect(merged.statusCode, merged.body).toBe(200);
    expect(leadImportResultResponseSchema.parse(merged.json()).data).toEqual({ created: 1, merged: 1, skipped: 2 });
    expect(await snapshot(theirs)).toEqual(before);
    expect(await snapshot(theirsByDocument)).toEqual(beforeByDocument);
    expect(await activities(theirs)).toBe(0);
    expect((await snapshot(mine)).email).toBe('propio@correo.pe');

    // "KEEP": the other agent's contact becomes a lead of the caller's, as POST /api/leads with
    // on_duplicate KEEP does; the preview still names no one.
    const keep = await upload('/api/leads/imports/preview', agent.token, 'leads.csv', 'full_name,phone_number\nOtra Vez,966100001\n', {
      duplicates: 'KEEP',
    });
    expect(leadImportPreviewResponseSchema.parse(keep.json()).data.rows.map((r) => [r.action, r.duplicate_of])).toEqual([['NUEVO', null]]);
    expect(keep.body).not.toContain('Reservado');

    // A supervisor reaches every agent's leads: the same row merges into the other agent's lead.
    const supervised = leadImportPreviewResponseSchema.parse(
      (await upload('/api/leads/imports/preview', boss.token, 'leads.csv', csv)).json(),
    );
    expect(supervised.data.rows[0]).toMatchObject({ action: 'FUSIONAR', duplicate_of: { id: theirs, name: 'Cliente Reservado De Otro' } });
  });

  it('stores nothing when a row has an error (422 on file)', async () => {
    const boss = await staffWith([MODULE.crm, SUBMODULE.leads, ACTION.supervisarLeads]);
    const csv = 'full_name,phone_number\nMarta Ríos,987600001\nSin Teléfono,\nOtro,12\n';
    const res = await upload('/api/leads/imports', boss.token, 'leads.csv', csv);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.file[0]).toMatch(/^El archivo tiene errores: corríjalos y vuelva a comprobarlo \(fila 3/);
    expect(await db().selectFrom('leads').select('id').where('name', '=', 'Marta Ríos').execute()).toEqual([]);
  });

  it('reads an XLSX export; refuses other files, a missing file and an agent who is not the caller', async () => {
    const boss = await staffWith([MODULE.crm, SUBMODULE.leads, ACTION.supervisarLeads]);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Leads');
    sheet.addRow(['full_name', 'phone_number', 'email', 'campaign_name']);
    sheet.addRow(['Pedro Castillo Ramos', 'p:+51955000222', 'pedro@correo.pe', 'Verano']);
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
    const preview = leadImportPreviewResponseSchema.parse(
      (await upload('/api/leads/imports/preview', boss.token, 'leads.xlsx', xlsx)).json(),
    );
    expect(preview.data.rows[0]).toMatchObject({ name: 'Pedro Castillo Ramos', phone: '955000222', campaign: 'Verano', action: 'NUEVO' });

    const pdf = await upload('/api/leads/imports/preview', boss.token, 'leads.pdf', Buffer.from('%PDF-1.4\x00\x01'));
    expect(leadImportPreviewResponseSchema.parse(pdf.json()).data.issues[0]?.message).toBe(LEAD_MESSAGES.importFormat);
    const none = await ctx().app.inject({
      method: 'POST',
      url: '/api/leads/imports/preview',
      headers: { ...bearer(boss.token), 'content-type': 'application/json' },
      payload: {},
    });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.file).toContain(LEAD_MESSAGES.importMissing);

    const agent = await staffWith([MODULE.crm, SUBMODULE.leads]);
    const other = await upload('/api/leads/imports', agent.token, 'leads.csv', META_CSV, { agent_id: String(boss.staff.id) });
    expect(other.statusCode).toBe(422);
    expect(other.json().errors.agent_id).toContain(LEAD_MESSAGES.onlySupervisorAssigns);
    const badOption = await upload('/api/leads/imports/preview', boss.token, 'leads.csv', META_CSV, { duplicates: 'BORRAR' });
    expect(badOption.statusCode).toBe(422);
  });
});
