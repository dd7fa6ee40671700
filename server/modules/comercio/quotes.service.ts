import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { Temporal } from 'temporal-polyfill';
import {
  QUOTE_MESSAGES,
  QUOTE_TRANSITIONS,
  type changeQuoteStatusRequestSchema,
  type createQuoteRequestSchema,
  type Quote,
  type QuotesQuery,
  type QuoteStatus,
} from '../../../src/schemas/comercio/quotes';
import { planQuote, planTerms, type QuotePlan } from '../../../src/lib/comercio/quote-plan';
import type { ScheduleMethod } from '../../../src/lib/comercio/schedule';
import { recordChange, staffActorId, type AuditContext } from '../../audit/audit';
import { todayInLimaBy } from '../../clock';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import type { Page } from '../../db/paging';
import { assertVersionedUpdate, nextVersion } from '../../db/versions';
import { conflict, notFound, validationError, type FieldErrors } from '../../errors';
import { displayName } from '../crm/customers.repository';
import { effectiveQuoteStatus, listQuoteIds, quoteNumber, quoteRow, quoteRowsByIds } from './quotes.repository';
import { renderDocument } from '../../platform/documents';
import { saleNumber } from './sales.service';
import { loadPdfIssuer } from '../configuracion/companies.service';

/** Parsed POST /api/quotes body. */
export type CreateQuoteBody = z.output<typeof createQuoteRequestSchema>;
/** Parsed POST /api/quotes/{id}/status body. */
export type ChangeQuoteStatusBody = z.output<typeof changeQuoteStatusRequestSchema>;

/** Lot statuses a quote may be made for (a Separado lot may be quoted to the customer holding it). */
const QUOTABLE = ['DISPONIBLE', 'SEPARADO'];

type QuoteRow = Awaited<ReturnType<typeof quoteRowsByIds>>[number];

/** The plan of stored terms (deterministic: the same schedules every time). */
function storedPlan(r: QuoteRow): QuotePlan | null {
  const result = planQuote({
    listPriceCents: Number(r.list_price),
    discountCents: Number(r.discount),
    downPaymentCents: Number(r.down_payment),
    downPaymentParts: r.down_payment_parts,
    instalments: r.instalments,
    monthlyRatePercent: r.monthly_rate_percent,
    method: r.method as ScheduleMethod,
    firstDueDate: r.first_due_date ? Temporal.PlainDate.from(r.first_due_date) : null,
    // The stored date, not today: a first due date must only have been after the quote's day.
    today: Temporal.PlainDate.from(r.quote_date),
  });
  return result.ok ? result.plan : null;
}

/** A stored quote → the wire quote (status as shown at `today`). */
function toQuote(r: QuoteRow, today: string): Quote {
  const plan = storedPlan(r);
  return {
    id: r.id,
    number: quoteNumber(r.id),
    lot: { id: r.lot_id, code: r.lot_code, subdivision_name: r.subdivision_name, area_m2: r.area_m2 },
    customer: {
      id: r.customer_id,
      display_name: displayName({ name: r.customer_name, surname: r.customer_surname }),
      document_number: r.document_number,
    },
    agent: r.agent_id !== null && r.agent_name !== null ? { id: r.agent_id, name: r.agent_name, surname: r.agent_surname ?? '' } : null,
    currency: r.currency,
    list_price: Number(r.list_price),
    discount: Number(r.discount),
    discount_percent: r.discount_percent,
    final_price: Number(r.final_price),
    down_payment: Number(r.down_payment),
    down_payment_percent: r.down_payment_percent,
    down_payment_parts: r.down_payment_parts,
    financed: Number(r.financed),
    instalments: r.instalments,
    monthly_rate_percent: r.monthly_rate_percent,
    method: r.method,
    first_due_date: r.first_due_date,
    quote_date: r.quote_date,
    valid_until: r.valid_until,
    status: effectiveQuoteStatus(r.status, r.valid_until, today) as QuoteStatus,
    sale: r.sale_id !== null ? { id: r.sale_id, number: saleNumber(r.sale_id) } : null,
    down_payment_schedule: (plan?.downPayment ?? []).map((p) => ({
      number: p.number,
      due_date: p.dueDate.toString(),
      amount: p.amountCents,
    })),
    schedule: (plan?.schedule ?? []).map((row) => ({
      number: row.number,
      due_date: row.dueDate.toString(),
      amount: row.amountCents,
      capital: row.capitalCents,
      interest: row.interestCents,
      balance: row.balanceCents,
    })),
    total_interest: plan?.totalInterestCents ?? 0,
    total_to_pay: plan?.totalToPayCents ?? Number(r.final_price),
    created_at: r.created_at,
    updated_at: r.updated_at,
    version: r.version,
  };
}

/** One page of quotes (GET /api/quotes). */
export async function listQuotes(deps: Pick<AppDeps, 'db' | 'clock'>, query: QuotesQuery): Promise<Page<Quote>> {
  const today = todayInLimaBy(deps.clock);
  const page = await listQuoteIds(deps.db, query, today);
  const rows = await quoteRowsByIds(
    deps.db,
    page.data.map((r) => r.id),
  );
  return { data: rows.map((r) => toQuote(r, today)), meta: page.meta };
}

/** One quote with its schedules. @throws HttpError 404. */
export async function getQuote(deps: Pick<AppDeps, 'db' | 'clock'>, id: number): Promise<Quote> {
  const [row] = await quoteRowsByIds(deps.db, [id]);
  if (!row) throw notFound();
  return toQuote(row, todayInLimaBy(deps.clock));
}

/**
 * Makes a quote (POST /api/quotes, BORRADOR): the lot's list price and currency at this moment,
 * the plan of src/lib/comercio/quote-plan.ts, valid `valid_days` days from today (Lima).
 * @throws HttpError 422 on an unknown lot or one not DISPONIBLE/SEPARADO, an unknown or inactive
 *   customer, or the plan's rules (per field).
 */
export async function createQuote(deps: Pick<AppDeps, 'db' | 'clock'>, audit: AuditContext, body: CreateQuoteBody): Promise<Quote> {
  const errors: FieldErrors = {};
  const lot = await deps.db
    .selectFrom('lots')
    .innerJoin('subdivisions', 'subdivisions.id', 'lots.subdivision_id')
    .select(['lots.status', 'lots.list_price', 'subdivisions.currency'])
    .where('lots.id', '=', body.lot_id)
    .executeTakeFirst();
  if (!lot) errors.lot_id = [QUOTE_MESSAGES.unknownLot];
  else if (!QUOTABLE.includes(lot.status)) errors.lot_id = [QUOTE_MESSAGES.lotNotForSale];
  const customer = await deps.db.selectFrom('customers').select('status').where('id', '=', body.customer_id).executeTakeFirst();
  if (!customer) errors.customer_id = [QUOTE_MESSAGES.unknownCustomer];
  else if (customer.status !== 'ACTIVO') errors.customer_id = [QUOTE_MESSAGES.inactiveCustomer];
  if (!lot || Object.keys(errors).length > 0) throw validationError(errors);
  const todayText = todayInLimaBy(deps.clock);
  const today = Temporal.PlainDate.from(todayText);
  const result = planTerms(body, Number(lot.list_price), today);
  if (!result.ok) throw validationError(Object.fromEntries(Object.entries(result.errors).map(([field, message]) => [field, [message]])));
  const { plan } = result;
  const stamp = deps.clock.now().toISOString();
  const id = await deps.db.transaction().execute(async (trx) => {
    const { id: quoteId } = await trx
      .insertInto('quotes')
      .values({
        lot_id: body.lot_id,
        customer_id: body.customer_id,
        agent_id: staffActorId(audit),
        currency: lot.currency,
        list_price: plan.listPriceCents,
        discount: plan.discountCents,
        discount_percent: body.discount_cents == null ? (body.discount_percent ?? null) : null,
        final_price: plan.finalPriceCents,
        down_payment: plan.downPaymentCents,
        down_payment_percent: body.down_payment_cents == null ? (body.down_payment_percent ?? null) : null,
        down_payment_parts: body.down_payment_parts,
        financed: plan.financedCents,
        instalments: body.instalments,
        monthly_rate_percent: body.monthly_rate_percent,
        method: body.method,
        first_due_date: body.instalments > 0 ? (body.first_due_date ?? null) : null,
        quote_date: todayText,
        valid_until: today.add({ days: body.valid_days }).toString(),
        status: 'BORRADOR',
        created_by: staffActorId(audit),
        created_at: stamp,
        updated_at: stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordChange(trx, audit, { entity: 'quotes', recordId: quoteId, action: 'CREATE', after: await quoteRow(trx, quoteId) });
    return quoteId;
  });
  return getQuote(deps, id);
}

/**
 * Moves a quote along {@link QUOTE_TRANSITIONS} (POST /api/quotes/{id}/status): ENVIADA when sent
 * to the customer, ACEPTADA, ANULADA. An expired quote changes no more.
 * @throws HttpError 404; 422 on a step not allowed; 409 when expired or stale.
 */
export async function changeQuoteStatus(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  audit: AuditContext,
  id: number,
  body: ChangeQuoteStatusBody,
): Promise<Quote> {
  const today = todayInLimaBy(deps.clock);
  await deps.db.transaction().execute(async (trx: Kysely<DB>) => {
    const before = await quoteRow(trx, id);
    if (!before) throw notFound();
    const shown = effectiveQuoteStatus(before.status, before.valid_until, today) as QuoteStatus;
    if (shown === 'VENCIDA') throw conflict(QUOTE_MESSAGES.expired);
    if (!QUOTE_TRANSITIONS[shown].includes(body.status)) throw validationError({ status: [QUOTE_MESSAGES.transition] });
    const updated = await trx
      .updateTable('quotes')
      .set({ status: body.status, updated_at: deps.clock.now().toISOString(), version: nextVersion() })
      .where('id', '=', id)
      .where('status', '=', before.status)
      .$if(body.version !== undefined, (q) => q.where('version', '=', body.version ?? 0))
      .executeTakeFirstOrThrow();
    await assertVersionedUpdate(trx, 'quotes', id, updated, notFound);
    await recordChange(trx, audit, { entity: 'quotes', recordId: id, action: 'UPDATE', before, after: await quoteRow(trx, id) });
  });
  return getQuote(deps, id);
}

/**
 * The quote as a PDF (GET /api/quotes/{id}/pdf) with the company of the installation in its header.
 * @returns the file name ("COT-000123.pdf") and the bytes. @throws HttpError 404.
 */
export async function quotePdf(
  deps: Pick<AppDeps, 'db' | 'clock' | 'documents'>,
  id: number,
): Promise<{ fileName: string; bytes: Buffer }> {
  const quote = await getQuote(deps, id);
  const bytes = await renderDocument(deps.documents, 'pdf.quote', { quote, issuer: await loadPdfIssuer(deps.db) });
  return { fileName: `${quote.number}.pdf`, bytes };
}
