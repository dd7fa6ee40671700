import { REPORTS as REPORT_ROUTES } from '../../server/modules/reportes/registry';
import { beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { Kysely } from 'kysely';
import { ACTION, ALL_PERMISSIONS, MODULE, SUBMODULE, type Permission } from '../../src/schemas/permissions';
import { cciCheckDigits } from '../../src/schemas/finanzas/banks';
import { DASHBOARD_CARDS, DASHBOARD_CARD_PERMISSIONS } from '../../src/schemas/inicio/dashboard';
import { TEST_SCRYPT_LOG_N } from '../../server/config';
import type { DB } from '../../server/db/database';
import { DEMO_ROLES, seedDemo } from '../../server/db/seed';
import { newTitleProcessRow } from '../../server/modules/administracion/titles.service';
import {
  createBankAccount,
  createBlock,
  createCrmCustomer,
  createLocal,
  createLot,
  createRole,
  createSession,
  createStaff,
  createStage,
  createSubdivision,
  createWallet,
  createPayment,
  insertCashSale,
  commissionRow,
} from '../../server/testing/fixtures';
import { bearer, dialects, multipartBody, useSharedTestApp, useTestDatabase } from './harness';
import { SEED_TIMEOUT_MS } from './slow-work';
import { png, TINY_PNG } from './images';

/**
 * Role × route matrix (issue "Configuración and Historial de cambios"): every seeded role
 * (server/db/seed.ts) against every protected route: allowed → 2xx, otherwise 403. Later modules
 * add their routes to ROUTES; each row builds a fresh, valid request so an allowed call succeeds.
 */

/** One protected route: the permissions it requires and how to build a valid request. */
interface MatrixRoute {
  name: string;
  permissions: readonly Permission[];
  /** Alternatives (RouteAccess `anyOf`): allowed when the role holds every permission of one list. */
  alternatives?: readonly (readonly Permission[])[];
  /** `caller`: the staff user the request is sent as (routes scoped to one's own records need it). */
  request: (db: Kysely<DB>, caller: number) => Promise<InjectOptions>;
}

const USERS = [MODULE.configuracion, SUBMODULE.usuarios] as const;
const ROLES = [MODULE.configuracion, SUBMODULE.roles] as const;
const COMPANY = [MODULE.configuracion, SUBMODULE.empresas] as const;
const HISTORY = [MODULE.historial] as const;
const PROJECTS = [MODULE.proyectos, SUBMODULE.lotizaciones] as const;
const SALES = [MODULE.comercial, SUBMODULE.ventas] as const;
const SALES_REPORT = [MODULE.comercial, SUBMODULE.reporteVentas] as const;
const REPORTS = [MODULE.reportes] as const;
const FINANCIAL_REPORTS = [MODULE.reportesEconomicos] as const;
const CUSTOMERS = [MODULE.crm, SUBMODULE.clientes] as const;
const LEADS = [MODULE.crm, SUBMODULE.leads] as const;
const BANKS = [MODULE.finanzas, SUBMODULE.bancos] as const;
const WALLETS = [MODULE.finanzas, SUBMODULE.billeteras] as const;
const PAYMENTS = [MODULE.finanzas, SUBMODULE.pagos] as const;
const INSTALMENTS = [MODULE.finanzas, SUBMODULE.pagos] as const;
const TITLES = [MODULE.administracion, SUBMODULE.partidasTitulos] as const;
const HOLIDAYS_EDIT = [MODULE.configuracion, SUBMODULE.empresas] as const;
const COMMISSIONS = [MODULE.administracion, SUBMODULE.comisiones] as const;
const COMMISSIONS_MANAGE = [MODULE.administracion, SUBMODULE.comisiones, ACTION.gestionarComisiones] as const;
const CONTRACTS = [MODULE.administracion, SUBMODULE.generarContrato] as const;
const CONTRACTS_REGISTER = [MODULE.administracion, SUBMODULE.registroContratos] as const;
const EXPENSES = [MODULE.reportesEconomicos] as const;

let seq = 0;
const next = () => (seq += 1);
const PNG = png(8, 8);

/** A PNG header of 10 × 10 pixels (signature + IHDR), enough for the plan upload. */
const PLAN_PNG = (() => {
  const head = Buffer.alloc(48);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(head, 0);
  head.writeUInt32BE(13, 8);
  head.write('IHDR', 12, 'latin1');
  head.writeUInt32BE(10, 16);
  head.writeUInt32BE(10, 20);
  return head;
})();
/** A fresh subdivision's key. */
const freshKey = async (db: Kysely<DB>) => (await createSubdivision(db)).key;
/** A fresh subdivision with a plan image: its key. */
const freshKeyWithPlan = async (db: Kysely<DB>) => {
  const s = await createSubdivision(db);
  await db
    .updateTable('subdivisions')
    .set({
      plan_content_type: 'image/png',
      plan_data: PLAN_PNG,
      plan_width: 10,
      plan_height: 10,
      plan_updated_at: new Date().toISOString(),
    })
    .where('id', '=', s.id)
    .execute();
  return s.key;
};
/** A fresh DISPONIBLE lot's id (in a fresh subdivision). */
/** An expense (version 1) of a fresh subdivision in soles, by direct insert. @returns its id. */
const freshExpense = async (db: Kysely<DB>) => {
  const subdivision = await createSubdivision(db);
  const now = new Date().toISOString();
  const { id } = await db
    .insertInto('expenses')
    .values({
      subdivision_id: subdivision.id,
      expense_date: '2026-02-01',
      concept: 'Gasto de prueba',
      amount: 10_000,
      currency: 'PEN',
      voucher: null,
      created_by: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, subdivisionId: subdivision.id };
};
const freshLot = async (db: Kysely<DB>) => createLot(db, (await createSubdivision(db)).id, { block: 'A', number: '1' });
/** A valid bulk price body. */
const BULK_BODY = { selection: { statuses: ['DISPONIBLE'] }, change: { kind: 'PERCENT', percent: 5 }, reason: 'Matriz' };
/** A fresh subdivision with one DISPONIBLE lot: its key. */
const freshKeyWithLot = async (db: Kysely<DB>) => {
  const s = await createSubdivision(db);
  await createLot(db, s.id, { block: 'A', number: '1' });
  return s.key;
};
/** A multipart body with `file` = PLAN_PNG. */
const planUpload = () => {
  const boundary = 'matrizplano';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`),
    PLAN_PNG,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
};

/** A multipart body with `file` = a one-lot CSV (lot import). */
const importUpload = () => {
  const boundary = 'matriz-import';
  const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="lotes.csv"\r\nContent-Type: text/csv\r\n\r\nmanzana,lote,area,precio_m2\nA,1,120.00,250.00\n\r\n--${boundary}--\r\n`;
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
};

/** A multipart body with `file` = a one-lead CSV (lead import), kept even when its phone repeats. */
const leadUpload = () => {
  const boundary = 'matriz-leads';
  const csv = `full_name,phone_number\nLead matriz,9${String(next()).padStart(8, '0')}\n`;
  const payload = `--${boundary}\r\nContent-Disposition: form-data; name="duplicates"\r\n\r\nKEEP\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="leads.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
};

/** A fresh live reservation's id (of a fresh lot, marked SEPARADO as the service does). */
const freshReservation = async (db: Kysely<DB>) => {
  const lotId = await freshLot(db);
  await db.updateTable('lots').set({ status: 'SEPARADO' }).where('id', '=', lotId).execute();
  const stamp = new Date().toISOString();
  const { id } = await db
    .insertInto('reservations')
    .values({
      customer_id: await createCrmCustomer(db),
      lot_id: lotId,
      agent_id: null,
      amount: 100,
      currency: 'PEN',
      hold_days: 7,
      expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      conditions_accepted_at: stamp,
      created_by: null,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
};
/** A fresh lead assigned to `agentId`: its id. */
const freshLead = async (db: Kysely<DB>, agentId: number) => {
  const stamp = new Date().toISOString();
  const { id } = await db
    .insertInto('leads')
    .values({
      name: `Lead matriz ${next()}`,
      phone: `9${String(next()).padStart(8, '0')}`,
      email: null,
      id_document_type: null,
      document_number: null,
      channel: 'WEB',
      campaign: null,
      notes: null,
      agent_id: agentId,
      lost_reason: null,
      next_follow_up_at: null,
      customer_id: null,
      last_activity_at: null,
      received_at: stamp,
      created_by: null,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
};
/** A fresh cash quote's id (BORRADOR, valid for a long time). */
const freshQuote = async (db: Kysely<DB>) => {
  const stamp = new Date().toISOString();
  const { id } = await db
    .insertInto('quotes')
    .values({
      lot_id: await freshLot(db),
      customer_id: await createCrmCustomer(db),
      agent_id: null,
      currency: 'PEN',
      list_price: 3_000_000,
      discount: 0,
      discount_percent: null,
      final_price: 3_000_000,
      down_payment: 3_000_000,
      down_payment_percent: null,
      down_payment_parts: 1,
      financed: 0,
      instalments: 0,
      monthly_rate_percent: '0',
      method: 'SIN_INTERES',
      first_due_date: null,
      quote_date: stamp.slice(0, 10),
      valid_until: '2099-12-31',
      status: 'BORRADOR',
      created_by: null,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
};
/** A fresh cash sale's id (its lot VENDIDO, as the service leaves it). */
/** A hold request (PENDIENTE, until 2026-03-20) on a fresh DISPONIBLE lot: its id. */
const pendingHold = async (db: Kysely<DB>) => {
  const lotId = await freshLot(db);
  const { id } = await db
    .insertInto('lot_holds')
    .values({
      lot_id: lotId,
      status: 'BLOQUEADO',
      state: 'PENDIENTE',
      reason: 'Matriz',
      until: '2026-03-20',
      requested_by: null,
      requested_at: new Date().toISOString(),
      decided_by: null,
      decided_at: null,
      decision_reason: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
};
/** A cash sale of a fresh lot, made by `agent` (the caller: 'Solo sus ventas' reaches only one's own, docs/security.md 31.11). */
const freshSale = async (db: Kysely<DB>, agent: number | null = null) => {
  const subdivision_id = (await createSubdivision(db)).id;
  const lotId = await createLot(db, subdivision_id, { block: 'A', number: '1' });
  await db.updateTable('lots').set({ status: 'VENDIDO' }).where('id', '=', lotId).execute();
  const stamp = new Date().toISOString();
  const id = await insertCashSale(db, {
    lotId,
    subdivisionId: subdivision_id,
    agentId: agent,
    saleDate: stamp.slice(0, 10),
    createdAt: stamp,
    titularId: await createCrmCustomer(db),
  });
  return id;
};
/**
 * A financed sale of a fresh lot by `agent`, EN_CUOTAS with three unpaid instalments of S/ 10 000.00
 * due 2025-12-01, 2026-01-01 and 2026-02-01 — overdue on the matrix clock's today (2026-03-02), so it
 * may be resolved (docs/domain.md "Rescission") or rescheduled.
 */
const freshOverdueSale = async (db: Kysely<DB>, agent: number | null = null) => {
  const id = await freshSale(db, agent);
  await db
    .updateTable('sales')
    .set({ type: 'FINANCIADO', down_payment: 0, financed: 3_000_000, instalments: 3, status: 'EN_CUOTAS' })
    .where('id', '=', id)
    .execute();
  await db
    .insertInto('sale_instalments')
    .values(
      ['2025-12-01', '2026-01-01', '2026-02-01'].map((due_date, i) => ({
        sale_id: id,
        kind: 'CUOTA',
        number: i + 1,
        due_date,
        amount: 1_000_000,
        capital: 1_000_000,
        interest: 0,
        status: 'VENCIDA',
      })),
    )
    .execute();
  return id;
};
/** A fresh title process (PENDIENTE since the matrix clock's today, 2026-03-02) of a fresh sale: its id. */
const freshTitleProcess = async (db: Kysely<DB>) => {
  const stamp = new Date().toISOString();
  const { id } = await db
    .insertInto('title_processes')
    .values(newTitleProcessRow({ saleId: await freshSale(db), stateSince: '2026-03-02', stamp, createdBy: null }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
};
/** A template document that names only the lot's number (resolved for every sale). */
const MATRIX_TEMPLATE_DOC = JSON.stringify({
  type: 'doc',
  content: [
    {
      type: 'paragraph',
      content: [
        { type: 'text', text: 'Lote ' },
        { type: 'variable', attrs: { key: 'lote.numero' } },
      ],
    },
  ],
});
/** A fresh COMPRAVENTA_CONTADO template version of `subdivisionId` (default: a fresh subdivision) in `state`: its id. */
const freshTemplate = async (db: Kysely<DB>, state: 'BORRADOR' | 'PUBLICADA' = 'BORRADOR', subdivisionId?: number) => {
  const stamp = new Date().toISOString();
  const { id } = await db
    .insertInto('contract_templates')
    .values({
      subdivision_id: subdivisionId ?? (await createSubdivision(db)).id,
      kind: 'COMPRAVENTA_CONTADO',
      name: 'Plantilla matriz',
      version_number: 1,
      state,
      content: MATRIX_TEMPLATE_DOC,
      published_at: state === 'PUBLICADA' ? stamp : null,
      published_by: null,
      created_by: null,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
};
/** A cash sale whose subdivision has a published template: the sale's id. */
const freshSaleWithTemplate = async (db: Kysely<DB>) => {
  const saleId = await freshSale(db);
  const { subdivision_id } = await db.selectFrom('sales').select('subdivision_id').where('id', '=', saleId).executeTakeFirstOrThrow();
  await freshTemplate(db, 'PUBLICADA', subdivision_id);
  return saleId;
};
/** A minimal PDF (a signed scan, a stored contract PDF). */
const MATRIX_PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n', 'latin1');
let documentNumber = 0;
/**
 * A fresh overdue sale of `agent` with an issued CARTA_RESOLUCION, or an ADENDA of a rescheduling
 * (docs/domain.md "Rescission and rescheduling: their documents"): the PDF's path on the sale.
 */
const freshSaleDocument = async (db: Kysely<DB>, agent: number | null, kind: 'CARTA_RESOLUCION' | 'ADENDA') => {
  const saleId = await freshOverdueSale(db, agent);
  const { subdivision_id } = await db.selectFrom('sales').select('subdivision_id').where('id', '=', saleId).executeTakeFirstOrThrow();
  const templateId = await freshTemplate(db, 'PUBLICADA', subdivision_id);
  const company = await db.selectFrom('companies').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow();
  const stamp = new Date().toISOString();
  let rescheduleId: number | null = null;
  if (kind === 'ADENDA') {
    const schedule = await db
      .insertInto('sale_schedules')
      .values({ sale_id: saleId, number: 1, superseded_at: stamp })
      .returning('id')
      .executeTakeFirstOrThrow();
    rescheduleId = (
      await db
        .insertInto('sale_reschedules')
        .values({
          sale_id: saleId,
          schedule_number: 2,
          previous_schedule_id: schedule.id,
          currency: 'PEN',
          balance: 3_000_000,
          late_fee_mode: 'WAIVE',
          late_fee_amount: 0,
          financed: 3_000_000,
          method: 'SIN_INTERES',
          instalments: 3,
          monthly_rate_percent: '0',
          first_due_date: '2026-04-01',
          total_interest: 0,
          total: 3_000_000,
          reason: 'Matriz',
          created_by: null,
          created_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }
  await db
    .insertInto('contracts')
    .values({
      company_id: company.id,
      sale_id: saleId,
      template_id: templateId,
      kind,
      reschedule_id: rescheduleId,
      state: 'EMITIDO',
      number: `C-2026-9${String(++documentNumber).padStart(5, '0')}`,
      year: 2026,
      pdf_data: MATRIX_PDF,
      issued_at: stamp,
      created_by: null,
      created_at: stamp,
      updated_at: stamp,
    })
    .execute();
  return kind === 'ADENDA' ? `/api/sales/${saleId}/reschedules/${rescheduleId}/adenda` : `/api/sales/${saleId}/rescission/letter`;
};
/** A fresh contract of a fresh sale in `state` (EMITIDO/FIRMADO with a number and a stored PDF; FIRMADO with a scan): its id. */
const freshContract = async (db: Kysely<DB>, state: 'BORRADOR' | 'EMITIDO' | 'FIRMADO' = 'BORRADOR') => {
  const saleId = await freshSaleWithTemplate(db);
  const template = await db
    .selectFrom('contract_templates as t')
    .innerJoin('sales', 'sales.subdivision_id', 't.subdivision_id')
    .select('t.id')
    .where('sales.id', '=', saleId)
    .executeTakeFirstOrThrow();
  const company = await db.selectFrom('companies').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow();
  const stamp = new Date().toISOString();
  const issued = state !== 'BORRADOR';
  const { id } = await db
    .insertInto('contracts')
    .values({
      company_id: company.id,
      sale_id: saleId,
      template_id: template.id,
      kind: 'COMPRAVENTA_CONTADO',
      state,
      number: issued ? `C-2099-${String(next()).padStart(6, '0')}` : null,
      year: issued ? 2099 : null,
      pdf_data: issued ? MATRIX_PDF : null,
      issued_at: issued ? stamp : null,
      signed_scan_data: state === 'FIRMADO' ? MATRIX_PDF : null,
      signed_scan_content_type: state === 'FIRMADO' ? 'application/pdf' : null,
      signed_scan_name: state === 'FIRMADO' ? 'firmado.pdf' : null,
      created_by: null,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
};
/** A fresh title process moved to INSCRITO (the acta de entrega may be uploaded), optionally with its acta stored: its id. */
const inscribedTitleProcess = async (db: Kysely<DB>, withRecord = false) => {
  const id = await freshTitleProcess(db);
  await db.updateTable('title_processes').set({ state: 'INSCRITO', partida: '11223344', asiento: 'C00002' }).where('id', '=', id).execute();
  if (withRecord)
    await db
      .insertInto('title_delivery_records')
      .values({
        process_id: id,
        content_type: 'application/pdf',
        size: ACTA_PDF.length,
        uploaded_by: null,
        created_at: new Date().toISOString(),
        data: ACTA_PDF,
      })
      .execute();
  return id;
};
/** A small PDF (its header is what the server sniffs) as the acta de entrega. */
const ACTA_PDF = Buffer.from('%PDF-1.4\n%%EOF\n', 'latin1');
/** A multipart body with `file` = ACTA_PDF. */
const actaUpload = () => {
  const boundary = 'matrizacta';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="acta.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    ACTA_PDF,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
};
/** A fresh public holiday (a weekday of 2031 onwards, one per call): its id. */
/** A DEVENGADA commission of `agent` on a fresh sale, earned today: its id. */
const freshCommission = async (db: Kysely<DB>, agent: number) => {
  const saleId = await freshSale(db, agent);
  const { id } = await db
    .insertInto('commissions')
    .values(commissionRow({ sale_id: saleId, user_id: agent, amount: 50_000 }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
};

/** A settlement in `state` with one line of `agent` (and a PDF voucher when APROBADA and `voucher`): its id. */
const freshSettlement = async (db: Kysely<DB>, agent: number, state: 'BORRADOR' | 'APROBADA', voucher = false) => {
  const commission = await freshCommission(db, agent);
  const company = (await db.selectFrom('companies').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  const stamp = new Date().toISOString();
  const { id } = await db
    .insertInto('commission_settlements')
    .values({
      company_id: company,
      currency: 'PEN',
      period_from: '2020-01-01',
      period_to: stamp.slice(0, 10),
      state,
      total: 50_000,
      note: null,
      approved_at: state === 'APROBADA' ? '2020-01-01T12:00:00.000Z' : null,
      voucher_content_type: voucher ? 'application/pdf' : null,
      voucher_size: voucher ? COMMISSION_PDF.length : null,
      voucher_data: voucher ? COMMISSION_PDF : null,
      created_by: null,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('commission_settlement_agents')
    .values({ settlement_id: id, user_id: agent, issues_fee_receipts: 0, lines: 1, gross: 50_000, withholding: 0, net: 50_000 })
    .execute();
  await db
    .insertInto('commission_settlement_lines')
    .values({ settlement_id: id, commission_id: commission, user_id: agent, amount: 50_000 })
    .execute();
  await db
    .updateTable('commissions')
    .set({ settlement_id: id, state: state === 'APROBADA' ? 'LIQUIDADA' : 'DEVENGADA' })
    .where('id', '=', commission)
    .execute();
  return id;
};

/** A minimal PDF (a settlement's voucher). */
const COMMISSION_PDF = Buffer.from('%PDF-1.4\n%%EOF\n');

/** A multipart body with `voucher` = {@link COMMISSION_PDF}. */
const settlementVoucherUpload = () => {
  const boundary = 'matriz-liquidacion';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="voucher"; filename="v.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    COMMISSION_PDF,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
};

/** A fresh commission policy's id (of a fresh subdivision). */
const freshPolicy = async (db: Kysely<DB>) => {
  const subdivision = await createSubdivision(db);
  const stamp = new Date().toISOString();
  const { id } = await db
    .insertInto('commission_policies')
    .values({
      subdivision_id: subdivision.id,
      role: 'ASESOR',
      base: 'PORCENTAJE',
      percent_bp: 300,
      amount: null,
      trigger_kind: 'INICIAL_APROBADA',
      trigger_percent_bp: null,
      tranches: JSON.stringify([{ share_bp: 10_000, at: 'TRIGGER' }]),
      created_by: null,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
};

const freshHoliday = async (db: Kysely<DB>) => {
  const stamp = new Date().toISOString();
  const { id } = await db
    .insertInto('public_holidays')
    .values({ date: holidayDate(), name: 'Feriado matriz', created_at: stamp, updated_at: stamp })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
};
/** A date no other call returned (from 2031-01-01, one day per call). */
const holidayDate = () => {
  const day = new Date(Date.UTC(2031, 0, 1) + next() * 86_400_000);
  return day.toISOString().slice(0, 10);
};
/** A fresh staff user's id. */
const freshUser = async (db: Kysely<DB>, status: 'ACTIVO' | 'INACTIVO' = 'ACTIVO') => (await createStaff(db, { status })).id;
/** A fresh role's id. */
const freshRole = (db: Kysely<DB>) => createRole(db, `Matriz ${next()}`, [MODULE.crm]);

export const ROUTES: readonly MatrixRoute[] = [
  { name: 'GET /api/users', permissions: USERS, request: async () => ({ method: 'GET', url: '/api/users' }) },
  {
    name: 'POST /api/users',
    permissions: USERS,
    request: async (db) => {
      const n = next();
      return {
        method: 'POST',
        url: '/api/users',
        payload: {
          dni: `3${String(n).padStart(7, '0')}`,
          email: `matriz${n}@parcela.test`,
          name: 'M',
          surname: 'Z',
          role_ids: [await freshRole(db)],
        },
      };
    },
  },
  { name: 'GET /api/users/{id}', permissions: USERS, request: async (db) => ({ method: 'GET', url: `/api/users/${await freshUser(db)}` }) },
  {
    name: 'PATCH /api/users/{id}',
    permissions: USERS,
    request: async (db) => ({ method: 'PATCH', url: `/api/users/${await freshUser(db)}`, payload: { name: 'Otro' } }),
  },
  {
    name: 'POST /api/users/{id}/deactivate',
    permissions: USERS,
    request: async (db) => ({ method: 'POST', url: `/api/users/${await freshUser(db)}/deactivate` }),
  },
  {
    name: 'POST /api/users/{id}/reactivate',
    permissions: USERS,
    request: async (db) => ({ method: 'POST', url: `/api/users/${await freshUser(db, 'INACTIVO')}/reactivate` }),
  },
  {
    name: 'POST /api/users/{id}/send-password-reset',
    permissions: USERS,
    request: async (db) => ({ method: 'POST', url: `/api/users/${await freshUser(db)}/send-password-reset` }),
  },

  { name: 'GET /api/roles', permissions: ROLES, request: async () => ({ method: 'GET', url: '/api/roles' }) },
  {
    name: 'POST /api/roles',
    permissions: ROLES,
    request: async () => ({ method: 'POST', url: '/api/roles', payload: { name: `Matriz nuevo ${next()}`, permissions: [MODULE.crm] } }),
  },
  { name: 'GET /api/roles/{id}', permissions: ROLES, request: async (db) => ({ method: 'GET', url: `/api/roles/${await freshRole(db)}` }) },
  {
    name: 'PATCH /api/roles/{id}',
    permissions: ROLES,
    request: async (db) => ({ method: 'PATCH', url: `/api/roles/${await freshRole(db)}`, payload: { permissions: [MODULE.reportes] } }),
  },
  {
    name: 'POST /api/roles/{id}/copy',
    permissions: ROLES,
    request: async (db) => ({ method: 'POST', url: `/api/roles/${await freshRole(db)}/copy`, payload: { name: `Matriz copia ${next()}` } }),
  },
  {
    name: 'DELETE /api/roles/{id}',
    permissions: ROLES,
    request: async (db) => ({ method: 'DELETE', url: `/api/roles/${await freshRole(db)}` }),
  },

  { name: 'GET /api/company', permissions: COMPANY, request: async () => ({ method: 'GET', url: '/api/company' }) },
  {
    name: 'PATCH /api/company',
    permissions: COMPANY,
    request: async () => ({ method: 'PATCH', url: '/api/company', payload: { phone: '014445555' } }),
  },
  {
    name: 'POST /api/company/logo',
    permissions: COMPANY,
    request: async () => {
      const boundary = 'matriz';
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="logo"; filename="l.png"\r\nContent-Type: image/png\r\n\r\n`),
        TINY_PNG,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return {
        method: 'POST',
        url: '/api/company/logo',
        payload,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      };
    },
  },
  { name: 'GET /api/locals', permissions: COMPANY, request: async () => ({ method: 'GET', url: '/api/locals' }) },
  {
    name: 'POST /api/locals',
    permissions: COMPANY,
    request: async () => ({ method: 'POST', url: '/api/locals', payload: { name: `Local ${next()}`, address: 'Av. Matriz 1' } }),
  },
  {
    name: 'GET /api/locals/{id}',
    permissions: COMPANY,
    request: async (db) => ({ method: 'GET', url: `/api/locals/${await createLocal(db, { name: `L${next()}` })}` }),
  },
  {
    name: 'PATCH /api/locals/{id}',
    permissions: COMPANY,
    request: async (db) => ({
      method: 'PATCH',
      url: `/api/locals/${await createLocal(db, { name: `L${next()}` })}`,
      payload: { name: 'Nuevo' },
    }),
  },
  {
    name: 'POST /api/locals/{id}/activate',
    permissions: COMPANY,
    request: async (db) => ({
      method: 'POST',
      url: `/api/locals/${await createLocal(db, { name: `L${next()}`, active: false })}/activate`,
    }),
  },
  {
    name: 'POST /api/locals/{id}/deactivate',
    permissions: COMPANY,
    request: async (db) => ({ method: 'POST', url: `/api/locals/${await createLocal(db, { name: `L${next()}` })}/deactivate` }),
  },

  { name: 'GET /api/change-history', permissions: HISTORY, request: async () => ({ method: 'GET', url: '/api/change-history' }) },
  {
    name: 'GET /api/change-history/export.csv',
    permissions: HISTORY,
    request: async () => ({ method: 'GET', url: '/api/change-history/export.csv' }),
  },

  // Proyectos (issue "Proyectos")
  { name: 'GET /api/subdivisions', permissions: PROJECTS, request: async () => ({ method: 'GET', url: '/api/subdivisions' }) },
  {
    name: 'POST /api/subdivisions',
    permissions: PROJECTS,
    request: async () => ({
      method: 'POST',
      url: '/api/subdivisions',
      payload: { code: `MTZ-${next()}`, name: 'Matriz', department: 'Lima', province: 'Lima', district: 'Lurín', total_area_m2: 1000 },
    }),
  },
  {
    name: 'GET /api/subdivisions/{key}',
    permissions: PROJECTS,
    request: async (db) => ({ method: 'GET', url: `/api/subdivisions/${await freshKey(db)}` }),
  },
  {
    name: 'PATCH /api/subdivisions/{key}',
    permissions: PROJECTS,
    request: async (db) => ({ method: 'PATCH', url: `/api/subdivisions/${await freshKey(db)}`, payload: { name: 'Otro' } }),
  },
  {
    name: 'DELETE /api/subdivisions/{key}',
    permissions: PROJECTS,
    request: async (db) => ({ method: 'DELETE', url: `/api/subdivisions/${await freshKey(db)}` }),
  },
  {
    name: 'POST /api/subdivisions/{key}/plan',
    permissions: PROJECTS,
    request: async (db) => ({ method: 'POST', url: `/api/subdivisions/${await freshKey(db)}/plan`, ...planUpload() }),
  },
  {
    name: 'GET /api/subdivisions/{key}/plan',
    permissions: [],
    alternatives: [PROJECTS, SALES],
    request: async (db) => ({ method: 'GET', url: `/api/subdivisions/${await freshKeyWithPlan(db)}/plan` }),
  },
  {
    name: 'GET /api/subdivisions/{key}/stages',
    permissions: PROJECTS,
    request: async (db) => ({ method: 'GET', url: `/api/subdivisions/${await freshKey(db)}/stages` }),
  },
  {
    name: 'POST /api/subdivisions/{key}/stages',
    permissions: PROJECTS,
    request: async (db) => ({ method: 'POST', url: `/api/subdivisions/${await freshKey(db)}/stages`, payload: { name: 'Etapa 1' } }),
  },
  {
    name: 'PATCH /api/stages/{id}',
    permissions: PROJECTS,
    request: async (db) => ({
      method: 'PATCH',
      url: `/api/stages/${await createStage(db, (await createSubdivision(db)).id, 'E1')}`,
      payload: { name: 'E2' },
    }),
  },
  {
    name: 'DELETE /api/stages/{id}',
    permissions: PROJECTS,
    request: async (db) => ({ method: 'DELETE', url: `/api/stages/${await createStage(db, (await createSubdivision(db)).id, 'E1')}` }),
  },
  {
    name: 'GET /api/subdivisions/{key}/blocks',
    permissions: PROJECTS,
    request: async (db) => ({ method: 'GET', url: `/api/subdivisions/${await freshKey(db)}/blocks` }),
  },
  {
    name: 'POST /api/subdivisions/{key}/blocks',
    permissions: PROJECTS,
    request: async (db) => ({ method: 'POST', url: `/api/subdivisions/${await freshKey(db)}/blocks`, payload: { name: 'A' } }),
  },
  {
    name: 'PATCH /api/blocks/{id}',
    permissions: PROJECTS,
    request: async (db) => ({
      method: 'PATCH',
      url: `/api/blocks/${await createBlock(db, (await createSubdivision(db)).id, 'A')}`,
      payload: { name: 'B' },
    }),
  },
  {
    name: 'DELETE /api/blocks/{id}',
    permissions: PROJECTS,
    request: async (db) => ({ method: 'DELETE', url: `/api/blocks/${await createBlock(db, (await createSubdivision(db)).id, 'A')}` }),
  },
  {
    name: 'GET /api/subdivisions/{key}/lots',
    permissions: PROJECTS,
    request: async (db) => ({ method: 'GET', url: `/api/subdivisions/${await freshKey(db)}/lots` }),
  },
  {
    name: 'POST /api/subdivisions/{key}/lots',
    permissions: PROJECTS,
    request: async (db) => ({
      method: 'POST',
      url: `/api/subdivisions/${await freshKey(db)}/lots`,
      payload: { block: 'A', number: '1', area_m2: 120, price_per_m2: 20000 },
    }),
  },
  {
    name: 'GET /api/lots/{id}',
    permissions: [],
    alternatives: [PROJECTS, SALES],
    request: async (db) => ({ method: 'GET', url: `/api/lots/${await freshLot(db)}` }),
  },
  {
    name: 'PATCH /api/lots/{id}',
    permissions: PROJECTS,
    request: async (db) => ({ method: 'PATCH', url: `/api/lots/${await freshLot(db)}`, payload: { notes: 'Matriz' } }),
  },
  {
    name: 'DELETE /api/lots/{id}',
    permissions: PROJECTS,
    request: async (db) => ({ method: 'DELETE', url: `/api/lots/${await freshLot(db)}` }),
  },
  {
    name: 'POST /api/lots/{id}/status',
    permissions: PROJECTS,
    request: async (db) => ({
      method: 'POST',
      url: `/api/lots/${await freshLot(db)}/status`,
      // A hold: applied (200) for a role with 'Aprobar bloqueos de lotes', a request (202) otherwise.
      payload: { status: 'SEPARADO', until: '2026-03-20' },
    }),
  },
  {
    name: 'GET /api/lot-holds',
    permissions: PROJECTS,
    request: async () => ({ method: 'GET', url: '/api/lot-holds?state=PENDIENTE' }),
  },
  {
    name: 'POST /api/lot-holds/{id}/approve',
    permissions: [...PROJECTS, ACTION.aprobarBloqueos],
    request: async (db) => ({ method: 'POST', url: `/api/lot-holds/${await pendingHold(db)}/approve`, payload: {} }),
  },
  {
    name: 'POST /api/lot-holds/{id}/reject',
    permissions: [...PROJECTS, ACTION.aprobarBloqueos],
    request: async (db) => ({ method: 'POST', url: `/api/lot-holds/${await pendingHold(db)}/reject`, payload: { reason: 'Matriz' } }),
  },
  {
    name: 'GET /api/lots/{id}/status-history',
    permissions: [],
    alternatives: [PROJECTS, SALES],
    request: async (db) => ({ method: 'GET', url: `/api/lots/${await freshLot(db)}/status-history` }),
  },
  {
    name: 'POST /api/subdivisions/{key}/lots/price-preview',
    permissions: PROJECTS,
    request: async (db) => ({
      method: 'POST',
      url: `/api/subdivisions/${await freshKeyWithLot(db)}/lots/price-preview`,
      payload: BULK_BODY,
    }),
  },
  {
    name: 'POST /api/subdivisions/{key}/lots/price-update',
    permissions: PROJECTS,
    request: async (db) => ({
      method: 'POST',
      url: `/api/subdivisions/${await freshKeyWithLot(db)}/lots/price-update`,
      payload: BULK_BODY,
    }),
  },
  {
    name: 'GET /api/subdivisions/{key}/map',
    permissions: [],
    alternatives: [PROJECTS, SALES],
    request: async (db) => ({ method: 'GET', url: `/api/subdivisions/${await freshKeyWithLot(db)}/map` }),
  },
  // Lot import (h2): a one-row CSV as multipart `file`.
  {
    name: 'POST /api/subdivisions/{key}/imports/preview',
    permissions: PROJECTS,
    request: async (db) => ({ method: 'POST', url: `/api/subdivisions/${await freshKey(db)}/imports/preview`, ...importUpload() }),
  },
  {
    name: 'POST /api/subdivisions/{key}/imports',
    permissions: PROJECTS,
    request: async (db) => ({ method: 'POST', url: `/api/subdivisions/${await freshKey(db)}/imports`, ...importUpload() }),
  },
  // CRM → Clientes.
  { name: 'GET /api/customers', permissions: CUSTOMERS, request: async () => ({ method: 'GET', url: '/api/customers?q=a' }) },
  {
    name: 'POST /api/customers',
    permissions: CUSTOMERS,
    request: async () => ({
      method: 'POST',
      url: '/api/customers',
      payload: {
        person_type: 'NATURAL',
        id_document_type: '1',
        document_number: `5${String(next()).padStart(7, '0')}`,
        name: 'M',
        surname: 'Z',
        phone: '912345678',
      },
    }),
  },
  {
    name: 'GET /api/customers/{id}',
    permissions: CUSTOMERS,
    request: async (db, caller) => ({ method: 'GET', url: `/api/customers/${await createCrmCustomer(db, { agent_id: caller })}` }),
  },
  {
    name: 'PATCH /api/customers/{id}',
    permissions: CUSTOMERS,
    request: async (db, caller) => ({
      method: 'PATCH',
      url: `/api/customers/${await createCrmCustomer(db, { agent_id: caller })}`,
      payload: { address: 'Av. Matriz 1' },
    }),
  },
  {
    name: 'DELETE /api/customers/{id}',
    permissions: CUSTOMERS,
    request: async (db, caller) => ({ method: 'DELETE', url: `/api/customers/${await createCrmCustomer(db, { agent_id: caller })}` }),
  },
  {
    name: 'POST /api/customers/{id}/send-password-reset',
    permissions: CUSTOMERS,
    request: async (db, caller) => ({
      method: 'POST',
      url: `/api/customers/${await createCrmCustomer(db, { email: `matriz${next()}@parcela.test`, agent_id: caller })}/send-password-reset`,
    }),
  },
  // Comercial → separaciones.
  { name: 'GET /api/reservations', permissions: SALES, request: async () => ({ method: 'GET', url: '/api/reservations?status=VIGENTE' }) },
  {
    name: 'POST /api/reservations',
    permissions: SALES,
    request: async (db) => ({
      method: 'POST',
      url: '/api/reservations',
      payload: { customer_id: await createCrmCustomer(db), lot_id: await freshLot(db), amount: 100, conditions_accepted: true },
    }),
  },
  {
    name: 'GET /api/reservations/{id}',
    permissions: SALES,
    request: async (db) => ({ method: 'GET', url: `/api/reservations/${await freshReservation(db)}` }),
  },
  {
    name: 'POST /api/reservations/{id}/cancel',
    permissions: SALES,
    request: async (db) => ({
      method: 'POST',
      url: `/api/reservations/${await freshReservation(db)}/cancel`,
      payload: { reason: 'Matriz' },
    }),
  },
  { name: 'GET /api/leads', permissions: LEADS, request: async () => ({ method: 'GET', url: '/api/leads?status=POR_ATENDER' }) },
  { name: 'GET /api/leads/summary', permissions: LEADS, request: async () => ({ method: 'GET', url: '/api/leads/summary?channel=WEB' }) },
  {
    name: 'GET /api/leads/duplicates',
    permissions: LEADS,
    request: async () => ({ method: 'GET', url: '/api/leads/duplicates?phone=987000000' }),
  },
  {
    name: 'POST /api/leads',
    permissions: LEADS,
    request: async () => ({
      method: 'POST',
      url: '/api/leads',
      payload: { name: 'Lead matriz', phone: `9${String(next()).padStart(8, '0')}`, channel: 'FERIA', on_duplicate: 'KEEP' },
    }),
  },
  {
    name: 'POST /api/leads/imports/preview',
    permissions: LEADS,
    request: async () => ({ method: 'POST', url: '/api/leads/imports/preview', ...leadUpload() }),
  },
  {
    name: 'POST /api/leads/imports',
    permissions: LEADS,
    request: async () => ({ method: 'POST', url: '/api/leads/imports', ...leadUpload() }),
  },
  {
    name: 'GET /api/leads/{id}',
    permissions: LEADS,
    request: async (db, caller) => ({ method: 'GET', url: `/api/leads/${await freshLead(db, caller)}` }),
  },
  {
    name: 'PATCH /api/leads/{id}',
    permissions: LEADS,
    request: async (db, caller) => ({ method: 'PATCH', url: `/api/leads/${await freshLead(db, caller)}`, payload: { notes: 'Matriz' } }),
  },
  {
    name: 'GET /api/leads/{id}/activities',
    permissions: LEADS,
    request: async (db, caller) => ({ method: 'GET', url: `/api/leads/${await freshLead(db, caller)}/activities` }),
  },
  {
    name: 'POST /api/leads/{id}/activities',
    permissions: LEADS,
    request: async (db, caller) => ({
      method: 'POST',
      url: `/api/leads/${await freshLead(db, caller)}/activities`,
      payload: { kind: 'LLAMADA', outcome: 'Matriz' },
    }),
  },
  {
    name: 'POST /api/leads/{id}/merge',
    permissions: LEADS,
    request: async (db, caller) => ({
      method: 'POST',
      url: `/api/leads/${await freshLead(db, caller)}/merge`,
      payload: { name: 'Otro', email: 'otro@parcela.test', channel: 'WEB' },
    }),
  },
  {
    name: 'POST /api/leads/{id}/convert',
    permissions: LEADS,
    request: async (db, caller) => ({
      method: 'POST',
      url: `/api/leads/${await freshLead(db, caller)}/convert`,
      payload: { customer_id: await createCrmCustomer(db) },
    }),
  },
  {
    name: 'GET /api/subdivision-options',
    permissions: [],
    alternatives: [PROJECTS, LEADS, CUSTOMERS, SALES, TITLES],
    request: async () => ({ method: 'GET', url: '/api/subdivision-options' }),
  },
  { name: 'GET /api/quotes', permissions: SALES, request: async () => ({ method: 'GET', url: '/api/quotes?status=BORRADOR' }) },
  {
    name: 'POST /api/quotes',
    permissions: SALES,
    request: async (db) => ({
      method: 'POST',
      url: '/api/quotes',
      payload: { lot_id: await freshLot(db), customer_id: await createCrmCustomer(db), instalments: 0 },
    }),
  },
  {
    name: 'GET /api/quotes/{id}',
    permissions: SALES,
    request: async (db) => ({ method: 'GET', url: `/api/quotes/${await freshQuote(db)}` }),
  },
  {
    name: 'GET /api/quotes/{id}/pdf',
    permissions: SALES,
    request: async (db) => ({ method: 'GET', url: `/api/quotes/${await freshQuote(db)}/pdf` }),
  },
  {
    name: 'POST /api/quotes/{id}/status',
    permissions: SALES,
    request: async (db) => ({ method: 'POST', url: `/api/quotes/${await freshQuote(db)}/status`, payload: { status: 'ANULADA' } }),
  },
  { name: 'GET /api/sales', permissions: SALES, request: async () => ({ method: 'GET', url: '/api/sales?status=REGISTRADA' }) },
  {
    name: 'POST /api/sales',
    permissions: SALES,
    request: async (db) => ({
      method: 'POST',
      url: '/api/sales',
      payload: {
        lot_id: await freshLot(db),
        holders: [{ customer_id: await createCrmCustomer(db), role: 'TITULAR', share_percent: '100' }],
        instalments: 0,
      },
    }),
  },
  {
    name: 'GET /api/sales/proposed-agent',
    permissions: SALES,
    request: async (db) => ({ method: 'GET', url: `/api/sales/proposed-agent?lot_id=${await freshLot(db)}` }),
  },
  {
    name: 'GET /api/sales/{id}',
    permissions: SALES,
    request: async (db, caller) => ({ method: 'GET', url: `/api/sales/${await freshSale(db, caller)}` }),
  },
  {
    name: 'GET /api/sales/{id}/annulment',
    permissions: SALES,
    request: async (db, caller) => ({ method: 'GET', url: `/api/sales/${await freshSale(db, caller)}/annulment` }),
  },
  {
    name: 'POST /api/sales/{id}/annul',
    permissions: SALES,
    request: async (db, caller) => ({
      method: 'POST',
      url: `/api/sales/${await freshSale(db, caller)}/annul`,
      payload: { reason: 'Matriz' },
    }),
  },
  {
    name: 'GET /api/sales/{id}/rescission',
    permissions: SALES,
    request: async (db, caller) => ({ method: 'GET', url: `/api/sales/${await freshOverdueSale(db, caller)}/rescission` }),
  },
  {
    name: 'POST /api/sales/{id}/rescind',
    permissions: [...SALES, ACTION.resolverContratos],
    request: async (db, caller) => ({
      method: 'POST',
      url: `/api/sales/${await freshOverdueSale(db, caller)}/rescind`,
      payload: { reason: 'Matriz' },
    }),
  },
  {
    name: 'GET /api/sales/{id}/reschedule',
    permissions: SALES,
    request: async (db, caller) => ({ method: 'GET', url: `/api/sales/${await freshOverdueSale(db, caller)}/reschedule` }),
  },
  {
    name: 'POST /api/sales/{id}/reschedule',
    permissions: [...SALES, ACTION.reprogramarVentas],
    request: async (db, caller) => ({
      method: 'POST',
      url: `/api/sales/${await freshOverdueSale(db, caller)}/reschedule`,
      payload: {
        method: 'SIN_INTERES',
        instalments: 6,
        monthly_rate_percent: '0',
        first_due_date: '2026-04-01',
        late_fees: 'WAIVE',
        reason: 'Matriz',
        version: 1,
      },
    }),
  },
  {
    name: 'GET /api/sales/{id}/schedules',
    permissions: SALES,
    request: async (db, caller) => ({ method: 'GET', url: `/api/sales/${await freshOverdueSale(db, caller)}/schedules` }),
  },
  {
    name: 'GET /api/sales/{id}/rescission/letter',
    permissions: SALES,
    request: async (db, caller) => ({ method: 'GET', url: await freshSaleDocument(db, caller, 'CARTA_RESOLUCION') }),
  },
  {
    name: 'GET /api/sales/{id}/reschedules/{reschedule_id}/adenda',
    permissions: SALES,
    request: async (db, caller) => ({ method: 'GET', url: await freshSaleDocument(db, caller, 'ADENDA') }),
  },
  {
    name: 'GET /api/lot-options',
    permissions: SALES,
    request: async () => ({ method: 'GET', url: '/api/lot-options?q=LT' }),
  },
  {
    name: 'GET /api/subdivisions/{key}/payment-map',
    permissions: SALES,
    request: async (db) => ({ method: 'GET', url: `/api/subdivisions/${await freshKey(db)}/payment-map` }),
  },
  {
    name: 'GET /api/sales/report',
    permissions: [],
    alternatives: [SALES_REPORT, REPORTS],
    request: async () => ({ method: 'GET', url: '/api/sales/report?from=2026-01-01&to=2026-03-31' }),
  },
  {
    name: 'GET /api/sales/report/options',
    permissions: [],
    alternatives: [SALES_REPORT, REPORTS],
    request: async () => ({ method: 'GET', url: '/api/sales/report/options' }),
  },
  {
    name: 'GET /api/sales/report.xlsx',
    permissions: [],
    alternatives: [SALES_REPORT, REPORTS],
    request: async () => ({ method: 'GET', url: '/api/sales/report.xlsx?from=2026-01-01&to=2026-03-31&channel=DIRECTO' }),
  },
  {
    name: 'GET /api/sales/report.pdf',
    permissions: [],
    alternatives: [SALES_REPORT, REPORTS],
    request: async () => ({ method: 'GET', url: '/api/sales/report.pdf?from=2026-01-01&to=2026-03-31' }),
  },
  {
    name: 'GET /api/reports/options',
    permissions: [],
    alternatives: [REPORTS, FINANCIAL_REPORTS],
    request: async () => ({ method: 'GET', url: '/api/reports/options' }),
  },
  ...REPORT_ROUTES.flatMap((definition): MatrixRoute[] =>
    ['', '.xlsx', '.pdf'].map((suffix) => ({
      name: `GET /api/reports/${definition.id}${suffix}`,
      permissions: definition.kind === 'operational' ? REPORTS : FINANCIAL_REPORTS,
      request: async () => ({ method: 'GET', url: `/api/reports/${definition.id}${suffix}` }),
    })),
  ),
  {
    name: 'GET /api/staff-options',
    permissions: [],
    alternatives: [CUSTOMERS, LEADS, SALES],
    request: async () => ({ method: 'GET', url: '/api/staff-options?q=a' }),
  },
  { name: 'GET /api/bank-accounts', permissions: BANKS, request: async () => ({ method: 'GET', url: '/api/bank-accounts?active=true' }) },
  {
    name: 'POST /api/bank-accounts',
    permissions: BANKS,
    request: async () => {
      const number = String(100000 + next());
      const first18 = `002191${number.padStart(12, '0')}`;
      return {
        method: 'POST',
        url: '/api/bank-accounts',
        payload: {
          bank: 'BCP',
          kind: 'AHORROS',
          currency: 'PEN',
          number,
          cci: `${first18}${cciCheckDigits(first18)}`,
          holder: 'Matriz SAC',
        },
      };
    },
  },
  {
    name: 'GET /api/bank-accounts/{id}',
    permissions: BANKS,
    request: async (db) => ({ method: 'GET', url: `/api/bank-accounts/${await createBankAccount(db)}` }),
  },
  {
    name: 'PATCH /api/bank-accounts/{id}',
    permissions: BANKS,
    request: async (db) => ({ method: 'PATCH', url: `/api/bank-accounts/${await createBankAccount(db)}`, payload: { active: false } }),
  },
  {
    name: 'DELETE /api/bank-accounts/{id}',
    permissions: BANKS,
    request: async (db) => ({ method: 'DELETE', url: `/api/bank-accounts/${await createBankAccount(db)}` }),
  },
  { name: 'GET /api/wallets', permissions: WALLETS, request: async () => ({ method: 'GET', url: '/api/wallets?kind=YAPE' }) },
  {
    name: 'POST /api/wallets',
    permissions: WALLETS,
    request: async () => ({
      method: 'POST',
      url: '/api/wallets',
      payload: { kind: 'PLIN', phone: `9${String(next()).padStart(8, '0')}`, holder: 'Matriz SAC' },
    }),
  },
  {
    name: 'GET /api/wallets/{id}',
    permissions: WALLETS,
    request: async (db) => ({ method: 'GET', url: `/api/wallets/${await createWallet(db)}` }),
  },
  {
    name: 'PATCH /api/wallets/{id}',
    permissions: WALLETS,
    request: async (db) => ({ method: 'PATCH', url: `/api/wallets/${await createWallet(db)}`, payload: { holder: 'Otro titular' } }),
  },
  {
    name: 'DELETE /api/wallets/{id}',
    permissions: WALLETS,
    request: async (db) => ({ method: 'DELETE', url: `/api/wallets/${await createWallet(db)}` }),
  },
  {
    name: 'POST /api/wallets/{id}/qr',
    permissions: WALLETS,
    request: async (db) => {
      const boundary = 'matriz';
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="qr"; filename="qr.png"\r\nContent-Type: image/png\r\n\r\n`),
        PNG,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return {
        method: 'POST',
        url: `/api/wallets/${await createWallet(db)}/qr`,
        payload,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      };
    },
  },
  {
    name: 'GET /api/wallets/{id}/qr',
    permissions: WALLETS,
    request: async (db) => ({
      method: 'GET',
      url: `/api/wallets/${await createWallet(db, { qr: { contentType: 'image/png', data: PNG } })}/qr`,
    }),
  }, // Finanzas → Registro de Cuotas ('pagos' also grants it).
  {
    name: 'GET /api/instalments',
    permissions: INSTALMENTS,
    request: async () => ({ method: 'GET', url: '/api/instalments?status=VENCIDA' }),
  },
  {
    name: 'GET /api/instalments/totals',
    permissions: INSTALMENTS,
    request: async () => ({ method: 'GET', url: '/api/instalments/totals' }),
  },
  {
    name: 'GET /api/instalments/export',
    permissions: INSTALMENTS,
    request: async () => ({ method: 'GET', url: '/api/instalments/export?format=csv&days_late=MAS_90' }),
  },
  {
    name: 'POST /api/instalments/{id}/waive-late-fee',
    permissions: INSTALMENTS,
    request: async (db) => {
      // An instalment of a fresh sale, long overdue: its late fee is figured when the waiver runs.
      const saleId = await freshSale(db);
      const { id } = await db
        .insertInto('sale_instalments')
        .values({ sale_id: saleId, kind: 'CUOTA', number: 1, due_date: '2025-01-01', amount: 10_000, capital: 10_000, interest: 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { method: 'POST', url: `/api/instalments/${id}/waive-late-fee`, payload: { amount: 100, reason: 'Matriz de permisos' } };
    },
  },
  { name: 'GET /api/payments', permissions: PAYMENTS, request: async () => ({ method: 'GET', url: '/api/payments?status=PENDIENTE' }) },
  {
    name: 'POST /api/payments',
    permissions: PAYMENTS,
    request: async (db) => {
      // A sale of 2026-01-05 (before the app's today, 2026-03-02) owing one instalment; paid on its date.
      const saleId = await freshSale(db);
      await db.updateTable('sales').set({ sale_date: '2026-01-05' }).where('id', '=', saleId).execute();
      await db
        .insertInto('sale_instalments')
        .values({ sale_id: saleId, kind: 'CUOTA', number: 1, due_date: '2026-02-01', amount: 10_000, capital: 10_000, interest: 0 })
        .execute();
      return {
        method: 'POST',
        url: '/api/payments',
        payload: { sale_id: saleId, amount: 100, method: 'EFECTIVO', operation_date: '2026-01-05' },
      };
    },
  },
  {
    name: 'GET /api/payments/{id}',
    permissions: PAYMENTS,
    request: async (db) => ({ method: 'GET', url: `/api/payments/${await createPayment(db)}` }),
  },
  {
    name: 'POST /api/payments/{id}/approve',
    permissions: PAYMENTS,
    request: async (db) => ({ method: 'POST', url: `/api/payments/${await createPayment(db)}/approve`, payload: {} }),
  },
  {
    name: 'POST /api/payments/{id}/reject',
    permissions: PAYMENTS,
    request: async (db) => ({
      method: 'POST',
      url: `/api/payments/${await createPayment(db)}/reject`,
      payload: { reason: 'Voucher ilegible' },
    }),
  },
  {
    name: 'POST /api/payments/{id}/annul',
    permissions: PAYMENTS,
    request: async (db) => ({
      method: 'POST',
      url: `/api/payments/${await createPayment(db, { approved: true })}/annul`,
      payload: { reason: 'Aprobado por error' },
    }),
  },
  {
    name: 'POST /api/payments/{id}/vouchers',
    permissions: PAYMENTS,
    request: async (db) => {
      const boundary = 'matriz';
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="voucher"; filename="v.png"\r\nContent-Type: image/png\r\n\r\n`),
        PNG,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return {
        method: 'POST',
        url: `/api/payments/${await createPayment(db)}/vouchers`,
        payload,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      };
    },
  },
  {
    name: 'GET /api/payments/{id}/vouchers/{voucher_id}',
    permissions: PAYMENTS,
    request: async (db) => {
      const id = await createPayment(db, { voucher: PNG });
      const voucher = await db.selectFrom('payment_vouchers').select('id').where('payment_id', '=', id).executeTakeFirstOrThrow();
      return { method: 'GET', url: `/api/payments/${id}/vouchers/${voucher.id}` };
    },
  },
  {
    name: 'GET /api/payments/{id}/receipt',
    permissions: PAYMENTS,
    request: async (db) => ({ method: 'GET', url: `/api/payments/${await createPayment(db, { approved: true })}/receipt` }),
  },
  {
    name: 'GET /api/title-processes',
    permissions: TITLES,
    request: async () => ({ method: 'GET', url: '/api/title-processes?state=PENDIENTE' }),
  },
  {
    name: 'GET /api/subdivisions/{key}/title-states',
    permissions: TITLES,
    request: async (db) => ({ method: 'GET', url: `/api/subdivisions/${await freshKey(db)}/title-states` }),
  },
  {
    name: 'GET /api/title-processes/board',
    permissions: TITLES,
    request: async () => ({ method: 'GET', url: '/api/title-processes/board' }),
  },
  {
    name: 'POST /api/title-processes',
    permissions: TITLES,
    request: async (db) => ({ method: 'POST', url: '/api/title-processes', payload: { sale_id: await freshSale(db) } }),
  },
  {
    name: 'GET /api/title-processes/{id}',
    permissions: TITLES,
    request: async (db) => ({ method: 'GET', url: `/api/title-processes/${await freshTitleProcess(db)}` }),
  },
  {
    name: 'PATCH /api/title-processes/{id}',
    permissions: TITLES,
    request: async (db) => ({
      method: 'PATCH',
      url: `/api/title-processes/${await freshTitleProcess(db)}`,
      payload: { version: 1, notes: 'Matriz' },
    }),
  },
  {
    name: 'POST /api/title-processes/{id}/transition',
    permissions: TITLES,
    request: async (db) => ({
      method: 'POST',
      url: `/api/title-processes/${await freshTitleProcess(db)}/transition`,
      payload: { to: 'MINUTA_FIRMADA', version: 1, date: '2026-03-02' },
    }),
  },
  {
    name: 'GET /api/title-processes/sale-options',
    permissions: TITLES,
    request: async () => ({ method: 'GET', url: '/api/title-processes/sale-options?q=matriz' }),
  },
  {
    name: 'POST /api/title-processes/{id}/delivery-record',
    permissions: TITLES,
    request: async (db) => ({
      method: 'POST',
      url: `/api/title-processes/${await inscribedTitleProcess(db)}/delivery-record`,
      ...actaUpload(),
    }),
  },
  {
    name: 'GET /api/title-processes/{id}/delivery-record',
    permissions: TITLES,
    request: async (db) => ({ method: 'GET', url: `/api/title-processes/${await inscribedTitleProcess(db, true)}/delivery-record` }),
  },
  {
    name: 'GET /api/public-holidays',
    permissions: [],
    alternatives: [TITLES, HOLIDAYS_EDIT],
    request: async () => ({ method: 'GET', url: '/api/public-holidays?year=2026' }),
  },
  {
    name: 'POST /api/public-holidays',
    permissions: HOLIDAYS_EDIT,
    request: async () => ({ method: 'POST', url: '/api/public-holidays', payload: { date: holidayDate(), name: 'Feriado matriz' } }),
  },
  {
    name: 'PATCH /api/public-holidays/{id}',
    permissions: HOLIDAYS_EDIT,
    request: async (db) => ({
      method: 'PATCH',
      url: `/api/public-holidays/${await freshHoliday(db)}`,
      payload: { version: 1, name: 'Otro' },
    }),
  },
  {
    name: 'DELETE /api/public-holidays/{id}',
    permissions: HOLIDAYS_EDIT,
    request: async (db) => ({ method: 'DELETE', url: `/api/public-holidays/${await freshHoliday(db)}` }),
  },
  {
    name: 'GET /api/contract-templates',
    permissions: CONTRACTS,
    request: async () => ({ method: 'GET', url: '/api/contract-templates?latest=true' }),
  },
  {
    name: 'POST /api/contract-templates',
    permissions: CONTRACTS,
    request: async (db) => ({
      method: 'POST',
      url: '/api/contract-templates',
      payload: {
        subdivision_id: (await createSubdivision(db)).id,
        kind: 'COMPRAVENTA_PLAZOS',
        name: 'Plantilla',
        content: JSON.parse(MATRIX_TEMPLATE_DOC),
      },
    }),
  },
  {
    name: 'GET /api/contract-templates/{id}',
    permissions: CONTRACTS,
    request: async (db) => ({ method: 'GET', url: `/api/contract-templates/${await freshTemplate(db)}` }),
  },
  {
    name: 'PATCH /api/contract-templates/{id}',
    permissions: CONTRACTS,
    request: async (db) => ({
      method: 'PATCH',
      url: `/api/contract-templates/${await freshTemplate(db)}`,
      payload: { version: 1, name: 'Otra' },
    }),
  },
  {
    name: 'POST /api/contract-templates/{id}/publish',
    permissions: CONTRACTS,
    request: async (db) => ({ method: 'POST', url: `/api/contract-templates/${await freshTemplate(db)}/publish`, payload: { version: 1 } }),
  },
  {
    name: 'POST /api/contract-templates/{id}/new-version',
    permissions: CONTRACTS,
    request: async (db) => ({
      method: 'POST',
      url: `/api/contract-templates/${await freshTemplate(db, 'PUBLICADA')}/new-version`,
      payload: { version: 1 },
    }),
  },
  {
    name: 'GET /api/contracts',
    permissions: [],
    alternatives: [CONTRACTS, CONTRACTS_REGISTER],
    request: async () => ({ method: 'GET', url: '/api/contracts?state=EMITIDO&overdue=true' }),
  },
  {
    name: 'POST /api/contracts',
    permissions: CONTRACTS,
    request: async (db) => ({ method: 'POST', url: '/api/contracts', payload: { sale_id: await freshSaleWithTemplate(db) } }),
  },
  {
    name: 'GET /api/contracts/{id}',
    permissions: [],
    alternatives: [CONTRACTS, CONTRACTS_REGISTER],
    request: async (db) => ({ method: 'GET', url: `/api/contracts/${await freshContract(db)}` }),
  },
  {
    name: 'PATCH /api/contracts/{id}',
    permissions: CONTRACTS,
    request: async (db) => ({
      method: 'PATCH',
      url: `/api/contracts/${await freshContract(db)}`,
      payload: { version: 1, overrides: { 'lote.lindero_frente': 'Calle Los Pinos' } },
    }),
  },
  {
    name: 'GET /api/contracts/{id}/preview',
    permissions: [],
    alternatives: [CONTRACTS, CONTRACTS_REGISTER],
    request: async (db) => ({ method: 'GET', url: `/api/contracts/${await freshContract(db)}/preview` }),
  },
  {
    name: 'POST /api/contracts/{id}/issue',
    permissions: CONTRACTS,
    request: async (db) => ({ method: 'POST', url: `/api/contracts/${await freshContract(db)}/issue`, payload: { version: 1 } }),
  },
  {
    name: 'GET /api/contracts/{id}/pdf',
    permissions: [],
    alternatives: [CONTRACTS, CONTRACTS_REGISTER],
    request: async (db) => ({ method: 'GET', url: `/api/contracts/${await freshContract(db, 'EMITIDO')}/pdf` }),
  },
  {
    name: 'POST /api/contracts/{id}/signed-scan',
    permissions: [],
    alternatives: [CONTRACTS, CONTRACTS_REGISTER],
    request: async (db) => {
      const body = multipartBody({ filename: 'firmado.pdf', content: MATRIX_PDF, contentType: 'application/pdf' });
      return {
        method: 'POST',
        url: `/api/contracts/${await freshContract(db, 'EMITIDO')}/signed-scan`,
        payload: body.payload,
        headers: body.headers,
      };
    },
  },
  {
    name: 'GET /api/contracts/{id}/signed-scan',
    permissions: [],
    alternatives: [CONTRACTS, CONTRACTS_REGISTER],
    request: async (db) => ({ method: 'GET', url: `/api/contracts/${await freshContract(db, 'FIRMADO')}/signed-scan` }),
  },
  {
    name: 'POST /api/contracts/{id}/annul',
    permissions: CONTRACTS,
    request: async (db) => ({
      method: 'POST',
      url: `/api/contracts/${await freshContract(db)}/annul`,
      payload: { version: 1, reason: 'Error de plantilla' },
    }),
  },
  {
    name: 'GET /api/commissions',
    permissions: COMMISSIONS,
    request: async () => ({ method: 'GET', url: '/api/commissions?state=DEVENGADA' }),
  },
  {
    name: 'GET /api/commission-policies',
    permissions: COMMISSIONS_MANAGE,
    request: async () => ({ method: 'GET', url: '/api/commission-policies' }),
  },
  {
    name: 'POST /api/commission-policies',
    permissions: COMMISSIONS_MANAGE,
    request: async (db) => ({
      method: 'POST',
      url: '/api/commission-policies',
      payload: { subdivision_id: (await createSubdivision(db)).id, role: 'ASESOR', base: 'PORCENTAJE', percent_bp: 300 },
    }),
  },
  {
    name: 'PATCH /api/commission-policies/{id}',
    permissions: COMMISSIONS_MANAGE,
    request: async (db) => ({
      method: 'PATCH',
      url: `/api/commission-policies/${await freshPolicy(db)}`,
      payload: { version: 1, percent_bp: 400 },
    }),
  },
  {
    name: 'GET /api/commission-agents',
    permissions: COMMISSIONS_MANAGE,
    request: async () => ({ method: 'GET', url: '/api/commission-agents' }),
  },
  {
    name: 'PATCH /api/commission-agents/{id}',
    permissions: COMMISSIONS_MANAGE,
    request: async (db, caller) => {
      const { version } = await db.selectFrom('users').select('version').where('id', '=', caller).executeTakeFirstOrThrow();
      return { method: 'PATCH', url: `/api/commission-agents/${caller}`, payload: { version, issues_fee_receipts: true } };
    },
  },
  {
    name: 'GET /api/commission-settlements',
    permissions: COMMISSIONS_MANAGE,
    request: async () => ({ method: 'GET', url: '/api/commission-settlements?state=BORRADOR' }),
  },
  {
    name: 'POST /api/commission-settlements',
    permissions: COMMISSIONS_MANAGE,
    request: async (db, caller) => {
      const commission = await freshCommission(db, caller);
      const today = new Date().toISOString().slice(0, 10);
      return {
        method: 'POST',
        url: '/api/commission-settlements',
        payload: { period_from: '2020-01-01', period_to: today, agent_ids: [caller], commission_ids: [commission] },
      };
    },
  },
  {
    name: 'GET /api/commission-settlements/{id}',
    permissions: COMMISSIONS_MANAGE,
    request: async (db, caller) => ({ method: 'GET', url: `/api/commission-settlements/${await freshSettlement(db, caller, 'BORRADOR')}` }),
  },
  {
    name: 'DELETE /api/commission-settlements/{id}',
    permissions: COMMISSIONS_MANAGE,
    request: async (db, caller) => ({
      method: 'DELETE',
      url: `/api/commission-settlements/${await freshSettlement(db, caller, 'BORRADOR')}`,
    }),
  },
  {
    name: 'POST /api/commission-settlements/{id}/approve',
    permissions: COMMISSIONS_MANAGE,
    request: async (db, caller) => ({
      method: 'POST',
      url: `/api/commission-settlements/${await freshSettlement(db, caller, 'BORRADOR')}/approve`,
      payload: {},
    }),
  },
  {
    name: 'POST /api/commission-settlements/{id}/voucher',
    permissions: COMMISSIONS_MANAGE,
    request: async (db, caller) => ({
      method: 'POST',
      url: `/api/commission-settlements/${await freshSettlement(db, caller, 'APROBADA')}/voucher`,
      ...settlementVoucherUpload(),
    }),
  },
  {
    name: 'GET /api/commission-settlements/{id}/voucher',
    permissions: COMMISSIONS_MANAGE,
    request: async (db, caller) => ({
      method: 'GET',
      url: `/api/commission-settlements/${await freshSettlement(db, caller, 'APROBADA', true)}/voucher`,
    }),
  },
  {
    name: 'POST /api/commission-settlements/{id}/pay',
    permissions: COMMISSIONS_MANAGE,
    request: async (db, caller) => ({
      method: 'POST',
      url: `/api/commission-settlements/${await freshSettlement(db, caller, 'APROBADA', true)}/pay`,
      payload: { operation_number: 'OP-1', paid_on: '2026-03-02' },
    }),
  },
  {
    name: 'GET /api/commission-settlements/{id}/export',
    permissions: COMMISSIONS_MANAGE,
    request: async (db, caller) => ({
      method: 'GET',
      url: `/api/commission-settlements/${await freshSettlement(db, caller, 'BORRADOR')}/export`,
    }),
  },
  {
    name: 'GET /api/commission-settlements/{id}/agents/{agent_id}/pdf',
    permissions: COMMISSIONS_MANAGE,
    request: async (db, caller) => ({
      method: 'GET',
      url: `/api/commission-settlements/${await freshSettlement(db, caller, 'BORRADOR')}/agents/${caller}/pdf`,
    }),
  },
  // Reportes económicos → Egresos (src/schemas/reportes/expenses.ts): reading and writing need 'Acceso módulo reportes económicos'.
  { name: 'GET /api/expenses', permissions: EXPENSES, request: async () => ({ method: 'GET', url: '/api/expenses?from=2026-01-01' }) },
  {
    name: 'POST /api/expenses',
    permissions: EXPENSES,
    request: async (db) => ({
      method: 'POST',
      url: '/api/expenses',
      payload: {
        subdivision_id: (await createSubdivision(db)).id,
        expense_date: '2026-02-01',
        concept: 'Estudio de suelos',
        amount: 50_000,
        currency: 'PEN',
      },
    }),
  },
  {
    name: 'GET /api/expenses/{id}',
    permissions: EXPENSES,
    request: async (db) => ({ method: 'GET', url: `/api/expenses/${(await freshExpense(db)).id}` }),
  },
  {
    name: 'PUT /api/expenses/{id}',
    permissions: EXPENSES,
    request: async (db) => {
      const { id, subdivisionId } = await freshExpense(db);
      return {
        method: 'PUT',
        url: `/api/expenses/${id}`,
        payload: {
          subdivision_id: subdivisionId,
          expense_date: '2026-02-02',
          concept: 'Otro gasto',
          amount: 20_000,
          currency: 'PEN',
          version: 1,
        },
      };
    },
  },
  {
    name: 'DELETE /api/expenses/{id}',
    permissions: EXPENSES,
    request: async (db) => ({ method: 'DELETE', url: `/api/expenses/${(await freshExpense(db)).id}?version=1` }),
  },
  // Inicio's cards (docs/dashboard.md): each needs the permissions of the list it links to.
  ...DASHBOARD_CARDS.map((card): MatrixRoute => ({
    name: `GET /api/dashboard/${card}`,
    permissions: DASHBOARD_CARD_PERMISSIONS[card] as readonly Permission[],
    request: async () => ({ method: 'GET', url: `/api/dashboard/${card}` }),
  })),
];

describe.each(dialects)('role × route matrix (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  // One app for the whole matrix: its requests share no limiter state, and an app per row made it the slowest suite.
  const ctx = useSharedTestApp(db);
  const tokens = new Map<string, string>();
  const callers = new Map<string, number>();

  beforeAll(async () => {
    await seedDemo(db(), { scryptLogN: TEST_SCRYPT_LOG_N });
    for (const role of Object.keys(DEMO_ROLES)) {
      const staff = await createStaff(db(), { roleNames: [role] });
      callers.set(role, staff.id);
      tokens.set(role, await createSession(db(), staff));
    }
  }, SEED_TIMEOUT_MS);

  it('covers every seeded role and only known permissions', () => {
    expect([...tokens.keys()]).toEqual([
      'Administrador',
      'Jefe de ventas',
      'Asesor de ventas',
      'Cobranzas',
      'Finanzas',
      'Legal',
      'Ingeniería',
    ]);
    for (const route of ROUTES)
      for (const p of [...route.permissions, ...(route.alternatives ?? []).flat()]) expect(ALL_PERMISSIONS).toContain(p);
  });

  const cases = ROUTES.flatMap((route) =>
    Object.entries(DEMO_ROLES).map(([role, held]) => {
      const allowed =
        route.permissions.every((p) => held.includes(p)) &&
        (route.alternatives === undefined || route.alternatives.some((list) => list.every((p) => held.includes(p))));
      return { route, role, allowed, label: `${route.name} as ${role} → ${allowed ? '2xx' : '403'}` };
    }),
  );

  it.each(cases)('$label', async ({ route, role, allowed }) => {
    const options = await route.request(db(), callers.get(role)!);
    const res = await ctx().app.inject({ ...options, headers: { ...(options.headers ?? {}), ...bearer(tokens.get(role)!) } });
    if (allowed) {
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(200);
      expect(res.statusCode, res.body).toBeLessThan(300);
    } else {
      expect(res.statusCode).toBe(403);
    }
  });

  it('the Asesor de ventas role reaches only its own customers and sales: another agent’s are a 403, the Jefe de ventas reaches them', async () => {
    const stranger = callers.get('Cobranzas')!;
    const customer = await createCrmCustomer(db(), { agent_id: stranger });
    const sale = await freshSale(db(), stranger);
    for (const url of [`/api/customers/${customer}`, `/api/sales/${sale}`]) {
      expect((await ctx().app.inject({ method: 'GET', url, headers: bearer(tokens.get('Asesor de ventas')!) })).statusCode, url).toBe(403);
      expect((await ctx().app.inject({ method: 'GET', url, headers: bearer(tokens.get('Jefe de ventas')!) })).statusCode, url).toBe(200);
    }
  });

  it('answers 401 without a token on every route', async () => {
    for (const route of ROUTES) {
      const { headers: _headers, ...options } = await route.request(db(), callers.get('Administrador')!);
      expect((await ctx().app.inject(options)).statusCode, route.name).toBe(401);
    }
  });
});
