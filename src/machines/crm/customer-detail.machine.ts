import { assign, setup } from 'xstate';
import type { ListQuery, Paged } from '../../schemas/list';
import type { Customer } from '../../schemas/crm/customers';
import type { Lead } from '../../schemas/crm/leads';
import type { Quote } from '../../schemas/comercio/quotes';
import type { Reservation } from '../../schemas/comercio/reservations';
import { isEndedSale, type Sale } from '../../schemas/comercio/sales';
import { placeholder } from '../shared/placeholder';
import { errorMessage } from '../shared/api-errors';

/**
 * One customer's detail on CRM → Clientes (issue "CRM and sales": "the customer's detail shows
 * their leads, quotes, reservations, sales and balances"): closed → (`detail.open {customer,
 * sections}`) loading → ready; `detail.retry` loads again, `detail.close` closes. The sections the
 * caller may read (the view passes them from the session's permissions: Leads needs CRM + LEADS,
 * the other three Comercial + Ventas) are loaded in parallel from the list calls filtered by
 * `customer_id`, each on its own: one failing shows its message, the others still show.
 */

/** The lists a customer's detail shows. */
export const CUSTOMER_DETAIL_SECTIONS = ['leads', 'quotes', 'reservations', 'sales'] as const;
export type CustomerDetailSection = (typeof CUSTOMER_DETAIL_SECTIONS)[number];

/** Rows per section (the newest first); `total` says when the customer has more. */
export const CUSTOMER_DETAIL_ROWS = 50;

/** A section's answer: its first rows and the total, or the Spanish message of its failure. */
export type SectionResult<Row> = { ok: true; rows: Row[]; total: number } | { ok: false; error: string };

/** What the drawer shows per section; a section the caller may not read is absent. */
export interface CustomerDetailLists {
  leads?: SectionResult<Lead>;
  quotes?: SectionResult<Quote>;
  reservations?: SectionResult<Reservation>;
  sales?: SectionResult<Sale>;
}

/** The list calls the detail reads (the api modules' `list`, each with a `customer_id` filter). */
export interface CustomerDetailApis {
  leads: (query: ListQuery) => Promise<Paged<Lead>>;
  quotes: (query: ListQuery) => Promise<Paged<Quote>>;
  reservations: (query: ListQuery) => Promise<Paged<Reservation>>;
  sales: (query: ListQuery) => Promise<Paged<Sale>>;
}

const SORT: Record<CustomerDetailSection, string> = {
  leads: '-received_at',
  quotes: '-created_at',
  reservations: '-created_at',
  sales: '-sale_date',
};

/**
 * Loads the sections asked for in parallel (`customer_id` filter, {@link CUSTOMER_DETAIL_ROWS} rows,
 * newest first). Never rejects: a failed call becomes `{ ok: false, error }` for its section.
 */
export async function loadCustomerDetail(
  apis: CustomerDetailApis,
  customerId: number,
  sections: readonly CustomerDetailSection[],
): Promise<CustomerDetailLists> {
  const query = (section: CustomerDetailSection): ListQuery => ({
    page: 1,
    per_page: CUSTOMER_DETAIL_ROWS,
    sort: SORT[section],
    filters: { customer_id: String(customerId) },
  });
  const one = async <Row>(section: CustomerDetailSection, list: (q: ListQuery) => Promise<Paged<Row>>): Promise<SectionResult<Row>> => {
    try {
      const page = await list(query(section));
      return { ok: true, rows: page.data, total: page.meta.total };
    } catch (error) {
      return { ok: false, error: errorMessage(error) };
    }
  };
  const want = (s: CustomerDetailSection) => sections.includes(s);
  const [leads, quotes, reservations, sales] = await Promise.all([
    want('leads') ? one('leads', apis.leads) : undefined,
    want('quotes') ? one('quotes', apis.quotes) : undefined,
    want('reservations') ? one('reservations', apis.reservations) : undefined,
    want('sales') ? one('sales', apis.sales) : undefined,
  ]);
  const out: CustomerDetailLists = {};
  if (leads) out.leads = leads;
  if (quotes) out.quotes = quotes;
  if (reservations) out.reservations = reservations;
  if (sales) out.sales = sales;
  return out;
}

/** A currency's total: integer céntimos. */
export interface CurrencyTotal {
  currency: 'PEN' | 'USD';
  /** Σ balance in céntimos. */
  amount: number;
}

/**
 * The customer's balances: Σ `balance` of their live sales (not ANULADA) per currency, in céntimos,
 * PEN first; a currency without a live sale is left out.
 */
export function balancesByCurrency(sales: readonly Sale[]): CurrencyTotal[] {
  const sums = new Map<'PEN' | 'USD', number>();
  for (const sale of sales) {
    if (isEndedSale(sale.status)) continue;
    sums.set(sale.currency, (sums.get(sale.currency) ?? 0) + sale.balance);
  }
  return (['PEN', 'USD'] as const).filter((c) => sums.has(c)).map((currency) => ({ currency, amount: sums.get(currency)! }));
}

export interface CustomerDetailContext {
  customer: Customer | null;
  sections: readonly CustomerDetailSection[];
  lists: CustomerDetailLists;
}

export type CustomerDetailEvent =
  | { type: 'detail.open'; customer: Customer; sections: readonly CustomerDetailSection[] }
  | { type: 'detail.retry' }
  | { type: 'detail.close' };

/** The machine; provide `load` (see {@link loadCustomerDetail}). */
export const customerDetailMachine = setup({
  types: { context: {} as CustomerDetailContext, events: {} as CustomerDetailEvent },
  actors: { load: placeholder<CustomerDetailLists, { customerId: number; sections: readonly CustomerDetailSection[] }>('load') },
}).createMachine({
  id: 'customerDetail',
  context: { customer: null, sections: [], lists: {} },
  initial: 'closed',
  on: {
    'detail.open': {
      target: '.loading',
      reenter: true,
      actions: assign(({ event }) => ({ customer: event.customer, sections: event.sections, lists: {} })),
    },
    'detail.close': { target: '.closed', actions: assign({ customer: null, sections: [], lists: {} }) },
  },
  states: {
    closed: {},
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ customerId: context.customer!.id, sections: context.sections }),
        onDone: { target: 'ready', actions: assign(({ event }) => ({ lists: event.output })) },
        // loadCustomerDetail never rejects; a provided loader that does leaves every section empty.
        onError: { target: 'ready' },
      },
    },
    ready: { on: { 'detail.retry': 'loading' } },
  },
});
export type CustomerDetailMachine = typeof customerDetailMachine;
