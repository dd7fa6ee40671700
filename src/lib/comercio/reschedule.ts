import { Temporal } from 'temporal-polyfill';
import { buildSchedule, MAX_INSTALMENTS, type ScheduleMethod, type ScheduleRow } from './schedule';

/**
 * Rescheduling a sale's open balance in a new schedule (adenda; docs/domain.md "Rescheduling
 * (adenda)") — the pure plan the preview and the confirmation share. Money in integer céntimos.
 *
 * - **Open balance** = the capital not yet paid of the instalments (CUOTA rows) with something
 *   unpaid. What was paid on a row pays its interest first, then its capital (the instalment's
 *   interest is what falls due first), so a row of capital C and interest I with P paid still owes
 *   C − max(0, P − I) of capital.
 * - Each such row is **closed** at what was paid on it (amount = paid, interest = min(I, P),
 *   capital = the rest) — or **removed** when nothing was ever applied to it — and the new rows
 *   follow the last kept instalment's number. Fully paid rows and the down payment stay as they are.
 * - **Late fees owed** on any row (accrued − paid − waived, figured today) are taken off that row
 *   (its `late_fee_waived` grows by them) and either **carried** — added to the amount the new
 *   schedule finances, as capital without interest of their own beyond the schedule's — or
 *   **waived** explicitly; either way the adenda records the amount and the choice.
 * - The new schedule is src/lib/comercio/schedule.ts `buildSchedule` of (balance + carried fees)
 *   with the adenda's method, instalments, monthly rate and first due date: its capital adds up
 *   exactly to what it finances, so Σ new amounts = balance + carried fees + its interest.
 */

/** CARRY: the fees owed go into the new schedule; WAIVE: they are forgiven (recorded). */
export type LateFeeChoice = 'CARRY' | 'WAIVE';

/** A current schedule row as the plan reads it. */
export interface RescheduleRow {
  id: number;
  kind: string;
  number: number;
  amountCents: number;
  capitalCents: number;
  interestCents: number;
  paidCents: number;
  /** Late fee owed today (accrued − paid − waived, ≥ 0). */
  lateFeeOwedCents: number;
  /** Whether any payment allocation (any state) names the row: such a row is closed, never removed. */
  hasAllocations: boolean;
}

/** The adenda's terms. */
export interface RescheduleTerms {
  method: ScheduleMethod;
  instalments: number;
  monthlyRatePercent: string;
  firstDueDate: Temporal.PlainDate;
  lateFees: LateFeeChoice;
}

/** The plan of an adenda. */
export interface ReschedulePlan {
  /** Capital not yet paid of the open instalments. */
  balanceCents: number;
  /** Late fees owed today on every row (carried or waived). */
  lateFeeCents: number;
  /** What the new schedule finances: balance + carried fees. */
  financedCents: number;
  /** Open rows closed at what was paid on them. */
  closed: Array<{ id: number; amountCents: number; capitalCents: number; interestCents: number }>;
  /** Open rows nothing was ever applied to: removed from the live schedule (kept in the archived copy). */
  removed: number[];
  /** Rows whose owed late fee is taken off them, and how much. */
  feesTaken: Array<{ id: number; cents: number }>;
  /** The new rows, numbered after the last kept instalment. */
  rows: Array<ScheduleRow & { number: number }>;
  totalInterestCents: number;
  /** Σ amounts of the new rows. */
  totalCents: number;
}

/** The capital still owed on a row (interest is paid first). */
export function openCapital(row: Pick<RescheduleRow, 'capitalCents' | 'interestCents' | 'paidCents'>): number {
  return row.capitalCents - Math.max(0, row.paidCents - row.interestCents);
}

/**
 * Plans an adenda over `rows` (the sale's current schedule, any order).
 * @returns NOTHING_OPEN when no instalment has capital left to reschedule.
 * @throws RangeError from `buildSchedule` when a term is out of its bounds (callers validate first).
 */
export function planReschedule(
  rows: readonly RescheduleRow[],
  terms: RescheduleTerms,
): { ok: true; plan: ReschedulePlan } | { ok: false; error: 'NOTHING_OPEN' } {
  const open = rows.filter((r) => r.kind === 'CUOTA' && r.paidCents < r.amountCents);
  const balanceCents = open.reduce((sum, r) => sum + openCapital(r), 0);
  if (open.length === 0 || balanceCents <= 0) return { ok: false, error: 'NOTHING_OPEN' };
  const closed: ReschedulePlan['closed'] = [];
  const removed: number[] = [];
  for (const r of open) {
    if (r.paidCents === 0 && !r.hasAllocations) {
      removed.push(r.id);
      continue;
    }
    const interestCents = Math.min(r.interestCents, r.paidCents);
    closed.push({ id: r.id, amountCents: r.paidCents, capitalCents: r.paidCents - interestCents, interestCents });
  }
  const feesTaken = rows.filter((r) => r.lateFeeOwedCents > 0).map((r) => ({ id: r.id, cents: r.lateFeeOwedCents }));
  const lateFeeCents = feesTaken.reduce((sum, f) => sum + f.cents, 0);
  const financedCents = balanceCents + (terms.lateFees === 'CARRY' ? lateFeeCents : 0);
  const removedIds = new Set(removed);
  const lastKept = rows.filter((r) => r.kind === 'CUOTA' && !removedIds.has(r.id)).reduce((max, r) => Math.max(max, r.number), 0);
  const built = buildSchedule({
    financedCents,
    instalments: terms.instalments,
    monthlyRatePercent: terms.monthlyRatePercent,
    method: terms.method,
    firstDueDate: terms.firstDueDate,
  });
  const newRows = built.map((r) => ({ ...r, number: lastKept + r.number }));
  const totalInterestCents = newRows.reduce((sum, r) => sum + r.interestCents, 0);
  return {
    ok: true,
    plan: {
      balanceCents,
      lateFeeCents,
      financedCents,
      closed,
      removed,
      feesTaken,
      rows: newRows,
      totalInterestCents,
      totalCents: newRows.reduce((sum, r) => sum + r.amountCents, 0),
    },
  };
}

/** Most instalments an adenda may have: the schedules' own bound. */
export const MAX_RESCHEDULE_INSTALMENTS = MAX_INSTALMENTS;
