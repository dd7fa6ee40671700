import { performance as nodePerformance } from 'node:perf_hooks';
import ExcelJS from 'exceljs';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { systemAuditContext } from '../../server/audit/audit';
import { createManualClock, type Clock } from '../../server/clock';
import type { DB } from '../../server/db/database';
import { createSale } from '../../server/modules/comercio/sales.service';
import { SVG_LIMITS } from '../../server/modules/configuracion/logo';
import { DOCUMENT_MESSAGES } from '../../server/platform/documents';
import { WorkerPool } from '../../server/platform/worker-pool';
import { HttpError } from '../../server/errors';
import {
  createCrmCustomer,
  createCustomer,
  createLot,
  createPayment,
  createSession,
  createStaff,
  createSubdivision,
  ensureCompany,
} from '../../server/testing/fixtures';
import { bearer, buildTestApp, dialects, useTestApp, useTestDatabase, type TestApp } from './harness';

/**
 * docs/security.md 30.5–30.8: no PDF, export or logo stalls the server. Each test runs the heaviest
 * input of its kind — several at once — while it asks /api/health every 10 ms, and asserts every
 * health answer within the issue's bound of 1 s. Before the documents' worker pool each of these
 * blocked the event loop for seconds (a receipt with a 6 000 × 6 000 logo 14 s; a 13 648-row XLSX
 * 6.8–13 s; a 10 000-element SVG ≈ 2 s), so every one of these tests failed on that code; the bound
 * is 10× what an idle machine shows (≈ 10–100 ms), so a 3× slower loaded machine still passes.
 */

/** /api/health must answer within this while documents are made (the issue's own bound). */
const HEALTH_BOUND_MS = 1000;

/**
 * Runs `work` while asking /api/health every 10 ms.
 * @returns the work's result, each health answer's latency in ms, and the event loop's utilisation
 *   meanwhile (0–1: the share of the time it was running code rather than waiting for events).
 */
async function whileAskingHealth<T>(
  app: TestApp['app'],
  work: () => Promise<T>,
): Promise<{ result: T; latencies: number[]; utilization: number }> {
  const before = nodePerformance.eventLoopUtilization();
  let done = false;
  const pending = work().finally(() => {
    done = true;
  });
  const latencies: number[] = [];
  while (!done) {
    const started = performance.now();
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    latencies.push(performance.now() - started);
    expect(health.statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const result = await pending;
  return { result, latencies, utilization: nodePerformance.eventLoopUtilization(before).utilization };
}

/**
 * Asserts the health answers: several of them (the work was not instant), each within the bound; and
 * that the event loop was mostly waiting while the work was done elsewhere (under half of the time:
 * work on the loop keeps it near 1 whatever the machine's speed, so this one does not depend on load).
 */
function expectResponsive({ latencies, utilization }: { latencies: number[]; utilization: number }) {
  expect(latencies.length, 'the work must last long enough to be measured').toBeGreaterThanOrEqual(3);
  // Work on the loop keeps it near 100 % whatever the machine; the requests' own handling and the
  // PostgreSQL driver took 51 % once in a short (1.7 s) window on a loaded machine: 75 % separates
  // the two without flaking (docs/security.md 30.8).
  expect(utilization, 'event-loop utilisation while the documents were made').toBeLessThan(0.75);
  expect(Math.max(...latencies), `health answers ${latencies.map(Math.round).join(', ')} ms`).toBeLessThan(HEALTH_BOUND_MS);
}

/**
 * A financed sale of `instalments` monthly instalments in subdivision `subdivisionId`, held by
 * `customerId`, registered on its date (2025-01-10: a sale is dated within the company's window
 * before the day it is registered, docs/domain.md "Sales").
 */
async function financedSale(db: Kysely<DB>, subdivisionId: number, customerId: number, instalments: number, lot: string) {
  const lotId = await createLot(db, subdivisionId, { block: 'Z', number: lot });
  const clock = createManualClock('2025-01-10T17:00:00.000Z');
  return createSale({ db, clock }, systemAuditContext(clock), {
    lot_id: lotId,
    holders: [{ customer_id: customerId, role: 'TITULAR', share_percent: '100' }],
    sale_date: '2025-01-10',
    down_payment_percent: '10',
    down_payment_parts: 1,
    instalments,
    monthly_rate_percent: '1',
    method: 'FRANCES',
    first_due_date: '2025-02-10',
  });
}

/**
 * `sales` financed sales of 360 instalments, plus plain instalments added to them by direct writes
 * up to about `rows` in all (the triggers keep their counts). @returns how many instalments there are.
 */
async function manyInstalments(db: Kysely<DB>, clock: Clock, rows: number, sales = 4): Promise<number> {
  const subdivision = await createSubdivision(db);
  const customer = await createCustomer(db);
  const ids: number[] = [];
  for (let i = 0; i < sales; i += 1) ids.push((await financedSale(db, subdivision.id, customer.id, 360, `M${i}`)).id);
  const extra = Math.max(0, Math.ceil((rows - sales * 361) / sales));
  const values = ids.flatMap((saleId) =>
    Array.from({ length: extra }, (_, k) => ({
      sale_id: saleId,
      kind: 'CUOTA',
      number: 361 + k,
      due_date: new Date(Date.UTC(2056, 0, 10 + k)).toISOString().slice(0, 10),
      amount: 10_000,
      capital: 9_000,
      interest: 1_000,
    })),
  );
  for (let i = 0; i < values.length; i += 1000)
    await db
      .insertInto('sale_instalments')
      .values(values.slice(i, i + 1000))
      .execute();
  const count = await db
    .selectFrom('sale_instalments')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(count.n);
}

/** Seeding thousands of instalments and making several documents takes minutes on a loaded machine. */
const HEAVY_TEST_MS = 240_000;

describe.each(dialects)('documents off the event loop (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  async function token(): Promise<string> {
    const staff = await createStaff(db(), {
      permissions: [MODULE.comercial, SUBMODULE.ventas, MODULE.finanzas, SUBMODULE.pagos, MODULE.configuracion, SUBMODULE.empresas],
      clock: ctx().clock,
    });
    return createSession(db(), staff);
  }

  it(
    'receipts and quotes with a 6 000 × 6 000 logo stored before the pixel limit: 6 PDFs at once, /api/health within 1 s',
    async () => {
      await ensureCompany(db());
      const logo = await sharp({ create: { width: 6000, height: 6000, channels: 4, background: '#2d72d2' } })
        .png()
        .toBuffer();
      // As an installation that stored it before the 2 000-px limit (no PDF copy yet).
      await db()
        .updateTable('companies')
        .set({ logo_content_type: 'image/png', logo_data: logo, logo_pdf_data: null, logo_updated_at: ctx().clock.now().toISOString() })
        .execute();
      const subdivision = await createSubdivision(db());
      const customer = await createCustomer(db());
      await financedSale(db(), subdivision.id, customer.id, 360, '1');
      const payments = [await createPayment(db(), { approved: true }), await createPayment(db(), { approved: true })];
      const auth = await token();
      const quoteLot = await createLot(db(), subdivision.id, { block: 'Q', number: '1' });
      const quote = await ctx().app.inject({
        method: 'POST',
        url: '/api/quotes',
        headers: bearer(auth),
        payload: {
          lot_id: quoteLot,
          customer_id: await createCrmCustomer(db()),
          instalments: 360,
          monthly_rate_percent: '1',
          method: 'FRANCES',
          first_due_date: '2026-03-31',
        },
      });
      expect(quote.statusCode, quote.body).toBe(201);
      const quoteId = quote.json().data.id as number;
      const urls = [
        ...payments.map((id) => `/api/payments/${id}/receipt`),
        `/api/payments/${payments[0]}/receipt`,
        `/api/quotes/${quoteId}/pdf`,
        `/api/quotes/${quoteId}/pdf`,
        `/api/quotes/${quoteId}/pdf`,
      ];
      const measured = await whileAskingHealth(ctx().app, () =>
        Promise.all(urls.map((url) => ctx().app.inject({ method: 'GET', url, headers: bearer(auth) }))),
      );
      for (const pdf of measured.result) {
        expect(pdf.statusCode, pdf.body.slice(0, 300)).toBe(200);
        expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
        // The logo is printed (from its 600-px copy).
        expect(pdf.rawPayload.toString('latin1')).toMatch(/\/Subtype \/Image/);
      }
      expectResponsive(measured);
      console.info(`health max ${Math.round(Math.max(...measured.latencies))} ms, loop utilisation ${measured.utilization.toFixed(2)}`);
      const stored = await db().selectFrom('companies').select('logo_pdf_data').orderBy('id').executeTakeFirstOrThrow();
      expect(await sharp(Buffer.from(stored.logo_pdf_data!)).metadata()).toMatchObject({ format: 'png', width: 600, height: 600 });
    },
    HEAVY_TEST_MS,
  );

  it(
    'three XLSX exports of 14 000 instalments at once (and a CSV): /api/health within 1 s',
    async () => {
      const total = await manyInstalments(db(), ctx().clock, 14_000);
      const auth = await token();
      const exportOf = (format: 'csv' | 'xlsx') =>
        ctx().app.inject({ method: 'GET', url: `/api/instalments/export?format=${format}`, headers: bearer(auth) });
      const measured = await whileAskingHealth(ctx().app, () =>
        Promise.all([exportOf('xlsx'), exportOf('xlsx'), exportOf('xlsx'), exportOf('csv')]),
      );
      for (const res of measured.result) expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(measured.result[0]!.rawPayload as unknown as ArrayBuffer);
      expect(workbook.worksheets[0]!.rowCount).toBe(1 + total);
      expect(measured.result[3]!.body.trimEnd().split('\r\n')).toHaveLength(1 + total);
      expectResponsive(measured);
      console.info(`health max ${Math.round(Math.max(...measured.latencies))} ms, loop utilisation ${measured.utilization.toFixed(2)}`);
    },
    HEAVY_TEST_MS,
  );

  it(
    'two SVG logos of the largest size allowed at once: /api/health within 1 s',
    async () => {
      await ensureCompany(db());
      const auth = await token();
      const rects = Array.from(
        { length: SVG_LIMITS.maxElements - 1 },
        (_, i) => `<rect x="${i % 100}" y="${Math.floor(i / 100)}" width="1" height="1"/>`,
      );
      const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">${rects.join('')}</svg>`);
      const upload = () => {
        const boundary = '----parcelaDocuments';
        const payload = Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="logo"; filename="logo.svg"\r\nContent-Type: image/svg+xml\r\n\r\n`,
          ),
          svg,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]);
        return ctx().app.inject({
          method: 'POST',
          url: '/api/company/logo',
          payload,
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...bearer(auth) },
        });
      };
      const measured = await whileAskingHealth(ctx().app, () => Promise.all([upload(), upload()]));
      for (const res of measured.result) expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      expectResponsive(measured);
      console.info(`health max ${Math.round(Math.max(...measured.latencies))} ms, loop utilisation ${measured.utilization.toFixed(2)}`);
    },
    HEAVY_TEST_MS,
  );

  it('a document past its time budget is a Spanish 503, never a 500', async () => {
    const { app } = await buildTestApp(db(), { documentTimeoutMs: 1 });
    try {
      const subdivision = await createSubdivision(db());
      const customer = await createCustomer(db());
      await financedSale(db(), subdivision.id, customer.id, 360, 'T1');
      const slow = await app.inject({ method: 'GET', url: '/api/instalments/export?format=xlsx', headers: bearer(await token()) });
      expect(slow.statusCode, slow.body).toBe(503);
      expect(slow.json()).toEqual({ message: DOCUMENT_MESSAGES.timeout(1) });
    } finally {
      await app.close();
    }
  });
});

describe('WorkerPool (the one design of the import checks and the documents)', () => {
  const table = (rows: number) => ({
    format: 'xlsx' as const,
    sheetName: 'Prueba',
    header: ['a', 'b', 'c'],
    rows: Array.from({ length: rows }, (_, i) => [i, `fila ${i}`, i / 3]),
  });

  it("terminates a job past its budget (with the caller's error) and replaces its worker for the next job", async () => {
    const pool = new WorkerPool({ workers: 1, queueLimit: 4, timeoutMs: 60_000, maxMemoryMb: 512, busyMessage: 'ocupado' });
    try {
      await pool.run('warm', {}); // modules loaded: the budget below is the job's own
      await expect(
        pool.run('table.file', table(50_000), { timeoutMs: 5, onTimeout: (ms) => new HttpError(422, `más de ${ms} ms`) }),
      ).rejects.toMatchObject({ statusCode: 422, message: 'más de 5 ms' });
      const bytes = await pool.run('table.file', table(10));
      expect(Buffer.from(bytes).subarray(0, 2).toString('latin1')).toBe('PK');
    } finally {
      await pool.close();
    }
  });

  it('refuses with a fast 503 (its Spanish message) when every worker is busy and the queue is full', async () => {
    const pool = new WorkerPool({ workers: 1, queueLimit: 1, timeoutMs: 60_000, maxMemoryMb: 512, busyMessage: DOCUMENT_MESSAGES.busy });
    try {
      const running = pool.run('table.file', table(20_000));
      const queued = pool.run('table.file', table(10));
      let settled = false;
      void Promise.allSettled([running, queued]).then(() => (settled = true));
      await expect(pool.run('table.file', table(10))).rejects.toMatchObject({ statusCode: 503, message: DOCUMENT_MESSAGES.busy });
      expect(settled).toBe(false);
      await Promise.all([running, queued]);
    } finally {
      await pool.close();
    }
  });
});
