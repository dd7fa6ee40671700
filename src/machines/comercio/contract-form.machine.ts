import { assign, setup, type ActorRefFrom } from 'xstate';
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { ApiError } from '../../api/client';
import { centsToInput, parseMoneyInput } from '../../lib/money';
import { planTerms, type QuotePlan } from '../../lib/comercio/quote-plan';
import {
  applyScheduleEdits,
  planRows,
  rowLabel,
  scheduleDifference,
  type EditedScheduleRow,
  type ScheduleDifference,
  type ScheduleRowKind,
} from '../../lib/comercio/schedule-edit';
import { paymentTermsFields, paymentTermsRules } from '../../schemas/comercio/terms';
import {
  createSaleRequestSchema,
  SALE_MESSAGES,
  type AgentSource,
  type CreateSaleRequest,
  type HolderRole,
  type ProposedAgent,
  type Sale,
} from '../../schemas/comercio/sales';
import type { Quote } from '../../schemas/comercio/quotes';
import type { StaffOption } from '../../schemas/crm/customers';
import { errorMessage } from '../shared/api-errors';
import { createLookupMachine } from '../shared/lookup.machine';
import { placeholder } from '../shared/placeholder';
import type { ReservationCustomer } from './reservation-form.machine';
import { initialTermsValues, nextMonthStart, termsRequestFields, type TermsValues } from './terms-form';

/**
 * The contract stepper /COMERCIO/Contrato/{id_sale} (issue "CRM and sales"; DOMAIN.md "Contract"):
 * with `id_sale` "nuevo" and a lot, the four steps of a new sale — Compradores (holders with their
 * shares, the titular's spouse proposed as Cónyuge, a guarantor) → Lote y precio (the lot, its live
 * reservation credited, the discount) → Plan de pago (the terms and the schedule, editable row by
 * row: the sums must stay exact and the step says by how much they are off) → Revisión → POST
 * /api/sales; with a sale's id, that sale read back (`viewing`).
 *
 * start → loadingSale → viewing | loadingLot → editing (idle | checkingSpouse) → submitting →
 * viewing (the address becomes /COMERCIO/Contrato/{id}); failed (`contract.retry`).
 * While editing, two regions run side by side: `spouse` (the titular's spouse looked up) and
 * `agent` (the selling agent proposed for the buyers by GET sales/proposed-agent: the reservation's,
 * else the customer's asesor, else the lead's, else the user; a user with 'Supervisar leads' may
 * choose another — docs/domain.md "Sales"). The plan starts from the buyers' latest valid quote of
 * the lot (the titular's first; {@link quoteFor}) until the user changes a term; the sale then
 * names that quote (`quote_id`), which the server marks ACEPTADA.
 * Every change recomputes the checks of {@link contractCheck}; a step's errors show once the user
 * tries to leave it (`shown`). Amounts typed in soles/dollars, sent in céntimos.
 */

export const CONTRACT_STEPS = ['compradores', 'lote', 'plan', 'revision'] as const;
export type ContractStep = (typeof CONTRACT_STEPS)[number];
export const CONTRACT_STEP_LABELS: Record<ContractStep, string> = {
  compradores: 'Compradores',
  lote: 'Lote y precio',
  plan: 'Plan de pago',
  revision: 'Revisión',
};

export const CONTRACT_MESSAGES = {
  noLot: 'Elija el lote a vender en el mapa (botón "Vender" del lote)',
  saved: 'Venta registrada',
} as const;

/** The lot being sold, as GET lots/{id} gives it. */
export interface ContractLot {
  id: number;
  code: string;
  area_m2: number;
  currency: 'PEN' | 'USD';
  /** Céntimos. */
  list_price: number;
  status: string;
}

/**
 * The lot's live reservation: VIGENTE, its approved payments are credited to the down payment;
 * PENDIENTE_PAGO (its payment not yet approved), the sale waits (docs/domain.md "Sales").
 */
export interface ContractReservation {
  id: number;
  number: string;
  /** Céntimos. */
  amount: number;
  /** PENDIENTE_PAGO or VIGENTE. */
  status: string;
  customer: ReservationCustomer;
}

/** A buyer as entered. */
export interface HolderDraft {
  customer: ReservationCustomer;
  role: HolderRole;
  /** Percent as typed ("50", "33.33"). */
  shareText: string;
}

/** A schedule row as shown and typed. */
export interface ScheduleRowDraft {
  kind: ScheduleRowKind;
  number: number;
  dueDate: string;
  amountText: string;
  /** The plan's interest of the row (céntimos; kept when the amount is edited). */
  interestCents: number;
}

export interface ContractContext {
  saleId: number | null;
  /** Whether the user may credit the sale to another agent ('Supervisar leads'). */
  canChooseAgent: boolean;
  lotId: number | null;
  today: string;
  sale: Sale | null;
  lot: ContractLot | null;
  reservation: ContractReservation | null;
  holders: HolderDraft[];
  /** Whether the user typed a share (then adding or removing a buyer no longer splits them evenly). */
  sharesTouched: boolean;
  guarantor: ReservationCustomer | null;
  /** The titular's spouse, proposed as Cónyuge when they are not a buyer yet. */
  spouseProposal: ReservationCustomer | null;
  values: TermsValues;
  /** The lot's valid quotes (BORRADOR or ENVIADA, not expired), newest first. */
  quotes: Quote[];
  /** The quote the plan was taken from (sent as `quote_id`), or null. */
  quote: Quote | null;
  /** Whether the user changed a term (then a new buyer's quote no longer replaces the terms). */
  termsTouched: boolean;
  /** The selling agent: proposed, or chosen by a user who may. */
  agent: StaffOption | null;
  /** Where the proposed agent comes from; null while unknown or when chosen. */
  agentSource: AgentSource | null;
  /** Whether the user chose the agent (then it is sent as `agent_id`). */
  agentChosen: boolean;
  /** The buyers (ids, titular first) the proposal is for. */
  agentFor: string | null;
  /** Active staff to choose the agent from (only loaded for a user who may). */
  staff: StaffOption[];
  plan: QuotePlan | null;
  rows: ScheduleRowDraft[];
  /** Whether a row was edited (then the schedule is sent). */
  edited: boolean;
  /** The plan changed after rows were edited: the edits were dropped. */
  rowsReset: boolean;
  difference: ScheduleDifference | null;
  step: ContractStep;
  /** Steps whose errors are shown. */
  shown: ContractStep[];
  /** First message per field ("holders", "guarantor_customer_id", "reservation_id", terms fields). */
  errors: Record<string, string>;
  scheduleErrors: string[];
  formError: string | null;
  loadError: string | null;
  holderLookup: ActorRefFrom<ReturnType<typeof createLookupMachine<ReservationCustomer>>>;
  guarantorLookup: ActorRefFrom<ReturnType<typeof createLookupMachine<ReservationCustomer>>>;
}

export type ContractEvent =
  | { type: 'contract.addHolder'; customer: ReservationCustomer }
  | { type: 'contract.removeHolder'; index: number }
  | { type: 'contract.holderChanged'; index: number; role?: HolderRole; shareText?: string }
  | { type: 'contract.addSpouse' }
  | { type: 'contract.guarantor'; customer: ReservationCustomer | null }
  | { type: 'contract.agent'; agentId: number }
  | { type: 'contract.termsChanged'; values: Partial<TermsValues> }
  | { type: 'contract.rowChanged'; index: number; dueDate?: string; amountText?: string }
  | { type: 'contract.resetRows' }
  | { type: 'contract.goto'; step: ContractStep }
  | { type: 'contract.next' }
  | { type: 'contract.back' }
  | { type: 'contract.submit' }
  | { type: 'contract.retry' };

/** Which step a field's error belongs to. */
export function stepOfField(field: string): ContractStep {
  if (field.startsWith('holders') || field === 'guarantor_customer_id' || field === 'agent_id') return 'compradores';
  if (field === 'lot_id' || field === 'reservation_id' || field.startsWith('discount')) return 'lote';
  return 'plan';
}

/** "50" / "33.34", "33.33", "33.33": 100 % split evenly in hundredths, the remainder on the first. */
export function evenShares(count: number): string[] {
  if (count <= 0) return [];
  const each = Math.floor(10_000 / count);
  return Array.from({ length: count }, (_, k) => {
    const hundredths = k === 0 ? 10_000 - each * (count - 1) : each;
    return hundredths % 100 === 0 ? String(hundredths / 100) : (hundredths / 100).toFixed(2);
  });
}

const termsSchema = z.object(paymentTermsFields).superRefine(paymentTermsRules);

/** The plan's rows as drafts. */
const draftRows = (plan: QuotePlan | null): ScheduleRowDraft[] =>
  plan
    ? planRows(plan).map((r) => ({
        kind: r.kind,
        number: r.number,
        dueDate: r.dueDate,
        amountText: centsToInput(r.amountCents),
        interestCents: r.interestCents,
      }))
    : [];

type CheckInput = Pick<ContractContext, 'lot' | 'reservation' | 'holders' | 'guarantor' | 'values' | 'rows' | 'edited' | 'today'> &
  Partial<Pick<ContractContext, 'quote' | 'agent' | 'agentChosen'>>;

/** Quote statuses a sale may start from (VENCIDA is read from the date by the server). */
const VALID_QUOTE_STATUSES: readonly string[] = ['BORRADOR', 'ENVIADA'];

/** The buyers' ids, titular first (the order the agent and the quote are looked for in). */
export const buyerIds = (holders: readonly HolderDraft[]): number[] =>
  [...holders].sort((a, b) => Number(b.role === 'TITULAR') - Number(a.role === 'TITULAR')).map((h) => h.customer.id);

/** The latest valid quote of the lot for the buyers (the titular's first), or null. */
export function quoteFor(quotes: readonly Quote[], holders: readonly HolderDraft[]): Quote | null {
  for (const id of buyerIds(holders)) {
    const quote = quotes.find((q) => q.customer.id === id && VALID_QUOTE_STATUSES.includes(q.status));
    if (quote) return quote;
  }
  return null;
}

/** A quote's terms as the form's values (its percentages as typed, else its amounts). */
export function quoteTermsValues(quote: Quote, today: string): TermsValues {
  return {
    discountKind: quote.discount_percent ? 'PERCENT' : 'AMOUNT',
    discountText: quote.discount_percent ?? (quote.discount > 0 ? centsToInput(quote.discount) : ''),
    downKind: quote.down_payment_percent ? 'PERCENT' : 'AMOUNT',
    downText: quote.down_payment_percent ?? centsToInput(quote.down_payment),
    downParts: quote.down_payment_parts,
    instalments: quote.instalments,
    rateText: quote.monthly_rate_percent,
    method: quote.method as TermsValues['method'],
    firstDueDate: quote.first_due_date ?? nextMonthStart(today),
  };
}

/**
 * Every check of the stepper over what is typed: the plan of the terms (or null), the errors by
 * field, the schedule's errors and how far its sums are off, and — when nothing is wrong — the POST
 * /api/sales body (with `schedule` only when a row was edited).
 */
export function contractCheck(context: CheckInput): {
  body: CreateSaleRequest | null;
  plan: QuotePlan | null;
  errors: Record<string, string>;
  scheduleErrors: string[];
  difference: ScheduleDifference | null;
} {
  const errors: Record<string, string> = {};
  const scheduleErrors: string[] = [];
  const { lot, reservation } = context;
  const terms = termsRequestFields(context.values);
  Object.assign(errors, terms.errors);
  // The plan needs only the terms and the lot.
  let plan: QuotePlan | null = null;
  const parsedTerms = termsSchema.safeParse(terms.fields);
  if (!parsedTerms.success) for (const issue of parsedTerms.error.issues) errors[String(issue.path[0])] ??= issue.message;
  else if (lot && Object.keys(terms.errors).length === 0) {
    const result = planTerms(parsedTerms.data, lot.list_price, Temporal.PlainDate.from(context.today));
    if (result.ok) plan = result.plan;
    else Object.assign(errors, result.errors);
  }
  if (plan && reservation && reservation.amount > plan.downPaymentCents)
    errors[context.values.downKind === 'PERCENT' ? 'down_payment_percent' : 'down_payment_cents'] = SALE_MESSAGES.creditTooHigh;
  if (reservation && !context.holders.some((h) => h.customer.id === reservation.customer.id))
    errors.reservation_id = SALE_MESSAGES.heldByOther;
  else if (reservation?.status === 'PENDIENTE_PAGO') errors.reservation_id = SALE_MESSAGES.reservationUnpaid;

  // The schedule: the plan's, or the edited rows checked against it.
  let schedule: CreateSaleRequest['schedule'];
  let difference: ScheduleDifference | null = null;
  if (plan && context.edited) {
    const rows: EditedScheduleRow[] = [];
    for (const r of context.rows) {
      const cents = parseMoneyInput(r.amountText);
      if (cents === null) scheduleErrors.push(`${rowLabel(r)}: monto no válido (ej. 1500.00)`);
      rows.push({ kind: r.kind, number: r.number, dueDate: r.dueDate, amountCents: cents ?? 0 });
    }
    difference = scheduleDifference(plan, rows);
    const applied = applyScheduleEdits(plan, rows, Temporal.PlainDate.from(context.today), lot?.currency ?? 'PEN');
    if (!applied.ok) scheduleErrors.push(...applied.errors.filter((e) => !scheduleErrors.some((s) => e.startsWith(s.split(':')[0]!))));
    schedule = rows.map((r) => ({ kind: r.kind, number: r.number, due_date: r.dueDate, amount: r.amountCents }));
  }

  const candidate = {
    lot_id: lot?.id ?? 0,
    holders: context.holders.map((h) => ({
      customer_id: h.customer.id,
      role: h.role,
      share_percent: h.shareText.trim().replace(',', '.'),
    })),
    ...(context.guarantor ? { guarantor_customer_id: context.guarantor.id } : {}),
    ...(reservation ? { reservation_id: reservation.id } : {}),
    ...(context.quote ? { quote_id: context.quote.id } : {}),
    ...(context.agentChosen && context.agent ? { agent_id: context.agent.id } : {}),
    ...terms.fields,
    ...(schedule ? { schedule } : {}),
  };
  const parsed = createSaleRequestSchema.safeParse(candidate);
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const head = String(issue.path[0]);
      if (head === 'schedule') continue; // reported by applyScheduleEdits
      errors[head] ??= issue.message;
    }
  const ok = parsed.success && plan !== null && Object.keys(errors).length === 0 && scheduleErrors.length === 0;
  return { body: ok ? (candidate as CreateSaleRequest) : null, plan, errors, scheduleErrors, difference };
}

/** Recomputes the checks into the context. */
const recheck = (context: CheckInput) => {
  const { plan, errors, scheduleErrors, difference } = contractCheck(context);
  return { plan, errors, scheduleErrors, difference };
};

/** The steps with errors, in order (the stepper's tabs mark the shown ones). */
export const stepsWithErrors = (context: Pick<ContractContext, 'errors' | 'scheduleErrors' | 'plan'>): ContractStep[] => {
  const steps = new Set(Object.keys(context.errors).map(stepOfField));
  if (context.scheduleErrors.length > 0 || !context.plan) steps.add('plan');
  return CONTRACT_STEPS.filter((s) => steps.has(s));
};

/** Where `goto` lands: the target, unless an earlier step has errors (then the first of those, its errors shown). */
function landing(context: ContractContext, target: ContractStep): Pick<ContractContext, 'step' | 'shown'> {
  const index = CONTRACT_STEPS.indexOf(target);
  const blocking = stepsWithErrors(context).find((s) => CONTRACT_STEPS.indexOf(s) < index);
  const passed = CONTRACT_STEPS.slice(0, index);
  if (blocking)
    return { step: blocking, shown: [...new Set([...context.shown, ...passed.slice(0, CONTRACT_STEPS.indexOf(blocking) + 1)])] };
  return { step: target, shown: [...new Set([...context.shown, ...passed])] };
}

/**
 * The context after the buyers changed: the checks, and — when the buyers' quote changed and the
 * user has not changed a term — the plan of that quote.
 */
function withHolders(context: ContractContext, holders: HolderDraft[]): Partial<ContractContext> {
  const quote = quoteFor(context.quotes, holders);
  if (quote?.id === context.quote?.id) return { holders, ...recheck({ ...context, holders }) };
  if (!quote || context.termsTouched) return { holders, quote, ...recheck({ ...context, holders, quote }) };
  const values = quoteTermsValues(quote, context.today);
  const checked = recheck({ ...context, holders, quote, values, edited: false });
  return { holders, quote, values, ...checked, rows: draftRows(checked.plan), edited: false, rowsReset: false };
}

/** The key of the buyers a proposal is for. */
const agentKey = (holders: readonly HolderDraft[]) => buyerIds(holders).join(',');

/** Holders with evenly split shares when the user typed none. */
const withShares = (holders: HolderDraft[], touched: boolean): HolderDraft[] => {
  if (touched) return holders;
  const shares = evenShares(holders.length);
  return holders.map((h, k) => ({ ...h, shareText: shares[k]! }));
};

/** The stepper's machine; provide `loadSale`, `loadLot`, `loadSpouse`, `submit` and the lookups' `search`. */
export function createContractMachine(customerLookup: ReturnType<typeof createLookupMachine<ReservationCustomer>>) {
  return setup({
    types: {
      context: {} as ContractContext,
      events: {} as ContractEvent,
      input: {} as { saleId: number | null; lotId: number | null; today: string; canChooseAgent?: boolean },
    },
    actors: {
      customerLookup,
      loadSale: placeholder<Sale, { id: number }>('loadSale'),
      /**
       * GET lots/{id}, the lot's live reservation (null when none), its valid quotes (newest first)
       * and, with `staff`, the active staff to choose the agent from.
       */
      loadLot: placeholder<
        { lot: ContractLot; reservation: ContractReservation | null; quotes: Quote[]; staff: StaffOption[] },
        { id: number; staff: boolean }
      >('loadLot'),
      /** GET sales/proposed-agent for the lot and the buyers (titular first). */
      proposeAgent: placeholder<ProposedAgent, { lotId: number; customerIds: number[] }>('proposeAgent'),
      /** The customer's spouse when married or conviviente with one registered, else null. */
      loadSpouse: placeholder<ReservationCustomer | null, { customerId: number }>('loadSpouse'),
      submit: placeholder<Sale, { body: CreateSaleRequest }>('submit'),
    },
    actions: {
      reportApiError: (_, _error: ApiError) => {},
      /** The sale was registered: show it at its own address. */
      saved: (_, _sale: Sale) => {},
      changeHolder: assign(({ context, event }) => {
        if (event.type !== 'contract.holderChanged') return {};
        const holders = context.holders.map((h, k) =>
          k === event.index
            ? {
                ...h,
                ...(event.role ? { role: event.role } : {}),
                ...(event.shareText !== undefined ? { shareText: event.shareText } : {}),
              }
            : h,
        );
        const sharesTouched = context.sharesTouched || event.shareText !== undefined;
        return { sharesTouched, ...(event.role ? { spouseProposal: null } : {}), ...withHolders(context, holders) };
      }),
    },
    guards: {
      agentStale: ({ context }) => context.lot !== null && agentKey(context.holders) !== context.agentFor,
      titularWithoutSpouse: ({ context }) => {
        const titular = context.holders.find((h) => h.role === 'TITULAR');
        return titular !== undefined && !context.holders.some((h) => h.role === 'CONYUGE');
      },
    },
  }).createMachine({
    id: 'contract',
    context: ({ input, spawn }) => ({
      saleId: input.saleId,
      canChooseAgent: input.canChooseAgent ?? false,
      lotId: input.lotId,
      today: input.today,
      sale: null,
      lot: null,
      reservation: null,
      holders: [],
      sharesTouched: false,
      guarantor: null,
      spouseProposal: null,
      values: initialTermsValues(input.today),
      quotes: [],
      quote: null,
      termsTouched: false,
      agent: null,
      agentSource: null,
      agentChosen: false,
      agentFor: null,
      staff: [],
      plan: null,
      rows: [],
      edited: false,
      rowsReset: false,
      difference: null,
      step: 'compradores',
      shown: [],
      errors: {},
      scheduleErrors: [],
      formError: null,
      loadError: null,
      holderLookup: spawn('customerLookup', { id: 'holderLookup' }),
      guarantorLookup: spawn('customerLookup', { id: 'guarantorLookup' }),
    }),
    initial: 'start',
    states: {
      start: {
        always: [
          { guard: ({ context }) => context.saleId !== null, target: 'loadingSale' },
          { guard: ({ context }) => context.lotId !== null, target: 'loadingLot' },
          { target: 'failed', actions: assign({ loadError: CONTRACT_MESSAGES.noLot }) },
        ],
      },
      loadingSale: {
        invoke: {
          src: 'loadSale',
          input: ({ context }) => ({ id: context.saleId! }),
          onDone: { target: 'viewing', actions: assign(({ event }) => ({ sale: event.output, loadError: null })) },
          onError: {
            target: 'failed',
            actions: [
              assign(({ event }) => ({ loadError: errorMessage(event.error) })),
              { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
            ],
          },
        },
      },
      loadingLot: {
        invoke: {
          src: 'loadLot',
          input: ({ context }) => ({ id: context.lotId!, staff: context.canChooseAgent }),
          onDone: [
            {
              guard: ({ event }) => event.output.lot.status !== 'DISPONIBLE' && event.output.lot.status !== 'SEPARADO',
              target: 'failed',
              actions: assign({ loadError: SALE_MESSAGES.lotUnavailable }),
            },
            {
              target: 'editing',
              actions: assign(({ event, context }) => {
                const { lot, reservation, staff } = event.output;
                const quotes = event.output.quotes.filter((q) => VALID_QUOTE_STATUSES.includes(q.status));
                // The reservation's customer is the first buyer (and the plan is their quote's, when they have one).
                const holders: HolderDraft[] = reservation ? [{ customer: reservation.customer, role: 'TITULAR', shareText: '100' }] : [];
                const next = { ...context, lot, reservation, quotes, staff };
                const checked = recheck({ ...next, holders });
                return {
                  lot,
                  reservation,
                  quotes,
                  staff,
                  ...checked,
                  rows: draftRows(checked.plan),
                  ...withHolders({ ...next, ...checked, rows: draftRows(checked.plan) }, holders),
                  loadError: null,
                };
              }),
            },
          ],
          onError: {
            target: 'failed',
            actions: [
              assign(({ event }) => ({ loadError: errorMessage(event.error) })),
              { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
            ],
          },
        },
      },
      editing: {
        type: 'parallel',
        states: {
          spouse: {
            initial: 'choose',
            states: {
              // The titular's spouse is looked up once a titular is there and no Cónyuge is.
              choose: { always: [{ guard: 'titularWithoutSpouse', target: 'checkingSpouse' }, { target: 'idle' }] },
              checkingSpouse: {
                invoke: {
                  src: 'loadSpouse',
                  input: ({ context }) => ({ customerId: context.holders.find((h) => h.role === 'TITULAR')!.customer.id }),
                  onDone: {
                    target: 'idle',
                    actions: assign(({ event, context }) => ({
                      spouseProposal:
                        event.output && !context.holders.some((h) => h.customer.id === event.output!.id) ? event.output : null,
                    })),
                  },
                  onError: { target: 'idle', actions: assign({ spouseProposal: null }) },
                },
              },
              idle: {},
            },
          },
          // The selling agent is proposed again whenever the buyers change.
          agent: {
            initial: 'check',
            states: {
              check: { always: [{ guard: 'agentStale', target: 'proposing' }, { target: 'idle' }] },
              proposing: {
                invoke: {
                  src: 'proposeAgent',
                  input: ({ context }) => ({ lotId: context.lot!.id, customerIds: buyerIds(context.holders) }),
                  onDone: {
                    target: 'idle',
                    actions: assign(({ context, event }) => ({
                      agentFor: agentKey(context.holders),
                      ...(context.agentChosen ? {} : { agent: event.output.agent, agentSource: event.output.source }),
                    })),
                  },
                  // Without a proposal the server still resolves the agent itself.
                  onError: { target: 'idle', actions: assign(({ context }) => ({ agentFor: agentKey(context.holders) })) },
                },
              },
              idle: {},
            },
          },
        },
        on: {
          'contract.addHolder': {
            guard: ({ context, event }) => !context.holders.some((h) => h.customer.id === event.customer.id),
            target: ['.spouse.choose', '.agent.check'],
            actions: assign(({ context, event }) => {
              const role: HolderRole = context.holders.some((h) => h.role === 'TITULAR') ? 'COPROPIETARIO' : 'TITULAR';
              const holders = withShares([...context.holders, { customer: event.customer, role, shareText: '' }], context.sharesTouched);
              return { spouseProposal: null, ...withHolders(context, holders) };
            }),
          },
          'contract.removeHolder': {
            target: ['.spouse.choose', '.agent.check'],
            actions: assign(({ context, event }) => {
              const holders = withShares(
                context.holders.filter((_, k) => k !== event.index),
                context.sharesTouched,
              );
              return { spouseProposal: null, ...withHolders(context, holders) };
            }),
          },
          'contract.holderChanged': [
            // A new role may change who the titular is: look for the spouse again.
            { guard: ({ event }) => event.role !== undefined, target: ['.spouse.choose', '.agent.check'], actions: 'changeHolder' },
            { actions: 'changeHolder' },
          ],
          'contract.addSpouse': {
            guard: ({ context }) => context.spouseProposal !== null,
            target: ['.spouse.idle', '.agent.check'],
            actions: assign(({ context }) => {
              const holders = withShares(
                [...context.holders, { customer: context.spouseProposal!, role: 'CONYUGE' as const, shareText: '' }],
                false,
              );
              return { sharesTouched: false, spouseProposal: null, ...withHolders(context, holders) };
            }),
          },
          'contract.guarantor': {
            actions: assign(({ context, event }) => ({ guarantor: event.customer, ...recheck({ ...context, guarantor: event.customer }) })),
          },
          'contract.agent': {
            guard: ({ context }) => context.canChooseAgent,
            actions: assign(({ context, event }) => {
              const agent =
                context.staff.find((s) => s.id === event.agentId) ?? (context.agent?.id === event.agentId ? context.agent : null);
              return agent ? { agent, agentChosen: true, agentSource: null } : {};
            }),
          },
          'contract.termsChanged': {
            actions: assign(({ context, event }) => {
              const values = { ...context.values, ...event.values };
              const checked = recheck({ ...context, values, edited: false });
              return {
                values,
                termsTouched: true,
                ...checked,
                rows: draftRows(checked.plan),
                edited: false,
                rowsReset: context.edited,
                formError: null,
              };
            }),
          },
          'contract.rowChanged': {
            guard: ({ context, event }) => event.index >= 0 && event.index < context.rows.length,
            actions: assign(({ context, event }) => {
              const rows = context.rows.map((r, k) =>
                k === event.index
                  ? {
                      ...r,
                      ...(event.dueDate !== undefined ? { dueDate: event.dueDate } : {}),
                      ...(event.amountText !== undefined ? { amountText: event.amountText } : {}),
                    }
                  : r,
              );
              return { rows, edited: true, rowsReset: false, ...recheck({ ...context, rows, edited: true }) };
            }),
          },
          'contract.resetRows': {
            actions: assign(({ context }) => {
              const checked = recheck({ ...context, edited: false });
              return { ...checked, rows: draftRows(checked.plan), edited: false, rowsReset: false };
            }),
          },
          'contract.goto': { actions: assign(({ context, event }) => ({ ...landing(context, event.step), formError: null })) },
          'contract.next': {
            actions: assign(({ context }) => {
              const index = CONTRACT_STEPS.indexOf(context.step);
              const landed = landing({ ...context, shown: [...context.shown, context.step] }, CONTRACT_STEPS[Math.min(index + 1, 3)]!);
              return { ...landed, shown: [...new Set([...landed.shown, context.step])], formError: null };
            }),
          },
          'contract.back': {
            actions: assign(({ context }) => ({
              step: CONTRACT_STEPS[Math.max(CONTRACT_STEPS.indexOf(context.step) - 1, 0)]!,
              formError: null,
            })),
          },
          'contract.submit': [
            {
              guard: ({ context }) => contractCheck(context).body === null,
              actions: assign(({ context }) => ({ ...landing(context, 'revision'), shown: [...CONTRACT_STEPS] })),
            },
            { target: 'submitting', actions: assign({ formError: null }) },
          ],
        },
      },
      submitting: {
        invoke: {
          src: 'submit',
          input: ({ context }) => {
            const { body } = contractCheck(context);
            if (!body) throw new Error('contract: submitted without a valid body');
            return { body };
          },
          onDone: {
            target: 'viewing',
            actions: [
              assign(({ event }) => ({ sale: event.output, saleId: event.output.id })),
              { type: 'saved', params: ({ event }) => event.output },
            ],
          },
          onError: {
            target: ['#contract.editing.spouse.idle', '#contract.editing.agent.idle'],
            actions: [
              assign(({ event, context }) => {
                const error = event.error;
                const issues = error instanceof ApiError ? error.issues : {};
                const errors: Record<string, string> = {};
                const scheduleErrors: string[] = [];
                for (const [path, messages] of Object.entries(issues)) {
                  if (path.startsWith('schedule')) scheduleErrors.push(...messages);
                  else if (messages[0]) errors[path.split('.')[0]!] ??= messages[0];
                }
                const fields = Object.keys(errors);
                if (fields.length === 0 && scheduleErrors.length === 0)
                  return { formError: errorMessage(error), step: 'revision' as const };
                const step =
                  scheduleErrors.length > 0 && fields.every((f) => stepOfField(f) === 'plan')
                    ? 'plan'
                    : stepOfField(fields[0] ?? 'schedule');
                return { errors: { ...context.errors, ...errors }, scheduleErrors, step, shown: [...CONTRACT_STEPS], formError: null };
              }),
              { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
            ],
          },
        },
      },
      viewing: {},
      failed: { on: { 'contract.retry': 'start' } },
    },
  });
}
export type ContractMachine = ReturnType<typeof createContractMachine>;
