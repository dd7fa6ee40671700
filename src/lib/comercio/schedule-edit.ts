import { Temporal } from 'temporal-polyfill';
import { formatMoney, type CurrencyCode } from '../money';
import type { QuotePlan } from './quote-plan';

/**
 * A sale's schedule edited row by row (the contract stepper, issue "CRM and sales": "editable row by
 * row; the sum must stay exact; the UI says by how much it is off"). One module for the stepper
 * (what it shows while the rows are typed) and the server (what POST /api/sales stores).
 *
 * Rules (docs/decisions.md "Sales" → "Edited schedules"):
 * - the rows are the plan's own (src/lib/comercio/quote-plan.ts): the same down-payment parts and
 *   instalments, by kind and number; only the due date and the amount of each row change;
 * - Σ down-payment parts = the down payment and Σ instalments = the amount financed + the plan's
 *   interest, to the céntimo;
 * - every amount ≥ 1 céntimo; an instalment keeps the plan's interest of its row, so its capital is
 *   amount − interest and may not be negative (Σ capital = the amount financed stays exact);
 * - due dates strictly increasing within each kind; the down payment from the sale date on, the
 *   first instalment after it.
 * Amounts in integer céntimos; dates ISO `YYYY-MM-DD`.
 */

export type ScheduleRowKind = 'INICIAL' | 'CUOTA';

/** A row as typed (or sent in POST /api/sales `schedule`). */
export interface EditedScheduleRow {
  kind: ScheduleRowKind;
  number: number;
  /** ISO date. */
  dueDate: string;
  /** Céntimos. */
  amountCents: number;
}

/** A row as stored: the edited amount split into capital and the plan's interest. */
export interface SaleScheduleRow extends EditedScheduleRow {
  capitalCents: number;
  interestCents: number;
}

/** The plan's rows in the edited shape: down-payment parts first, then the instalments. */
export function planRows(plan: QuotePlan): SaleScheduleRow[] {
  return [
    ...plan.downPayment.map((p) => ({
      kind: 'INICIAL' as const,
      number: p.number,
      dueDate: p.dueDate.toString(),
      amountCents: p.amountCents,
      capitalCents: p.amountCents,
      interestCents: 0,
    })),
    ...plan.schedule.map((r) => ({
      kind: 'CUOTA' as const,
      number: r.number,
      dueDate: r.dueDate.toString(),
      amountCents: r.amountCents,
      capitalCents: r.capitalCents,
      interestCents: r.interestCents,
    })),
  ];
}

/** How far the edited sums are from the plan's, in céntimos (positive: too much; 0: exact). */
export interface ScheduleDifference {
  downPaymentCents: number;
  instalmentsCents: number;
}

/** Σ edited − Σ planned, for the down payment and for the instalments. */
export function scheduleDifference(plan: QuotePlan, rows: readonly EditedScheduleRow[]): ScheduleDifference {
  const sum = (kind: ScheduleRowKind) => rows.filter((r) => r.kind === kind).reduce((total, r) => total + r.amountCents, 0);
  return {
    downPaymentCents: sum('INICIAL') - plan.downPaymentCents,
    instalmentsCents: sum('CUOTA') - (plan.financedCents + plan.totalInterestCents),
  };
}

/** "La suma de las cuotas excede en S/ 10.00 …" / "… es menor en …" (the stepper and the server's 422). */
export function differenceMessage(what: 'la cuota inicial' | 'las cuotas', diffCents: number, targetCents: number, currency: CurrencyCode) {
  const direction = diffCents > 0 ? 'excede en' : 'es menor en';
  return `La suma de ${what} ${direction} ${formatMoney(Math.abs(diffCents), currency)} al total de ${formatMoney(targetCents, currency)}`;
}

export const SCHEDULE_EDIT_MESSAGES = {
  notThePlan: 'El cronograma no corresponde al plan de pago: vuelva a calcularlo',
  badDate: (label: string) => `${label}: fecha inválida`,
  positive: (label: string) => `${label}: el monto debe ser mayor que cero`,
  belowInterest: (label: string, interest: string) => `${label}: el monto no cubre su interés (${interest})`,
  datesIncreasing: (label: string) => `${label}: debe vencer después de la anterior`,
  downFromSaleDate: 'La cuota inicial no puede vencer antes de la fecha de venta',
  firstAfterSaleDate: 'La primera cuota debe vencer después de la fecha de venta',
} as const;

/** "Inicial 2" / "Cuota 5": how a row is named in the messages. */
export const rowLabel = (row: Pick<EditedScheduleRow, 'kind' | 'number'>) =>
  `${row.kind === 'INICIAL' ? 'Inicial' : 'Cuota'} ${row.number}`;

const isoDate = (text: string): Temporal.PlainDate | null => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  try {
    return Temporal.PlainDate.from(text, { overflow: 'reject' });
  } catch {
    return null;
  }
};

/**
 * Checks edited rows against the plan (the module's rules) and gives the rows to store.
 * @returns `{ok: true, rows}` with capital = amount − the plan's interest of the row; or `{ok:
 *   false, errors}`: the Spanish reasons, the first one per row and per sum (at most 20).
 */
export function applyScheduleEdits(
  plan: QuotePlan,
  edited: readonly EditedScheduleRow[],
  saleDate: Temporal.PlainDate,
  currency: CurrencyCode,
): { ok: true; rows: SaleScheduleRow[] } | { ok: false; errors: string[] } {
  const planned = planRows(plan);
  if (edited.length !== planned.length || planned.some((p, k) => edited[k]!.kind !== p.kind || edited[k]!.number !== p.number))
    return { ok: false, errors: [SCHEDULE_EDIT_MESSAGES.notThePlan] };
  const errors: string[] = [];
  const rows: SaleScheduleRow[] = [];
  let previous: { kind: ScheduleRowKind; date: Temporal.PlainDate } | null = null;
  for (const [k, row] of edited.entries()) {
    const base = planned[k]!;
    const label = rowLabel(row);
    const date = isoDate(row.dueDate);
    if (!date) errors.push(SCHEDULE_EDIT_MESSAGES.badDate(label));
    else if (previous?.kind === row.kind && Temporal.PlainDate.compare(date, previous.date) <= 0)
      errors.push(SCHEDULE_EDIT_MESSAGES.datesIncreasing(label));
    else if (row.kind === 'INICIAL' && row.number === 1 && Temporal.PlainDate.compare(date, saleDate) < 0)
      errors.push(SCHEDULE_EDIT_MESSAGES.downFromSaleDate);
    else if (row.kind === 'CUOTA' && row.number === 1 && Temporal.PlainDate.compare(date, saleDate) <= 0)
      errors.push(SCHEDULE_EDIT_MESSAGES.firstAfterSaleDate);
    if (!Number.isSafeInteger(row.amountCents) || row.amountCents < 1) errors.push(SCHEDULE_EDIT_MESSAGES.positive(label));
    else if (row.amountCents < base.interestCents)
      errors.push(SCHEDULE_EDIT_MESSAGES.belowInterest(label, formatMoney(base.interestCents, currency)));
    if (date) previous = { kind: row.kind, date };
    rows.push({ ...row, capitalCents: row.amountCents - base.interestCents, interestCents: base.interestCents });
  }
  const diff = scheduleDifference(plan, edited);
  if (diff.downPaymentCents !== 0)
    errors.push(differenceMessage('la cuota inicial', diff.downPaymentCents, plan.downPaymentCents, currency));
  if (diff.instalmentsCents !== 0)
    errors.push(differenceMessage('las cuotas', diff.instalmentsCents, plan.financedCents + plan.totalInterestCents, currency));
  return errors.length > 0 ? { ok: false, errors: errors.slice(0, 20) } : { ok: true, rows };
}
