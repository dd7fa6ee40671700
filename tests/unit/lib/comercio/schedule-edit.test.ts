import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { planQuote, type QuotePlan } from '../../../../src/lib/comercio/quote-plan';
import { formatMoney } from '../../../../src/lib/money';
import { SCHEDULE_METHODS } from '../../../../src/lib/comercio/schedule';
import { applyScheduleEdits, planRows, scheduleDifference, type EditedScheduleRow } from '../../../../src/lib/comercio/schedule-edit';

/** The contract stepper's edited schedules (src/lib/comercio/schedule-edit.ts). */

const today = Temporal.PlainDate.from('2026-03-02');
const plan = (over: Partial<Parameters<typeof planQuote>[0]> = {}): QuotePlan => {
  const result = planQuote({
    listPriceCents: 3_000_000,
    downPaymentPercent: '20',
    downPaymentParts: 2,
    instalments: 12,
    monthlyRatePercent: '1.5',
    method: 'FRANCES',
    firstDueDate: Temporal.PlainDate.from('2026-04-01'),
    today,
    ...over,
  });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.plan;
};
const edited = (p: QuotePlan): EditedScheduleRow[] =>
  planRows(p).map(({ kind, number, dueDate, amountCents }) => ({ kind, number, dueDate, amountCents }));

// Its property runs 1 000 cases: seconds alone, many times that on a loaded 2-core machine.
describe('applyScheduleEdits', { timeout: 120_000 }, () => {
  it("accepts the plan's own rows and stores them as planned", () => {
    const p = plan();
    const result = applyScheduleEdits(p, edited(p), today, 'PEN');
    expect(result).toEqual({ ok: true, rows: planRows(p) });
  });

  it('says by how much each sum is off, in the currency', () => {
    const p = plan();
    const rows = edited(p).map((r) =>
      r.kind === 'INICIAL' && r.number === 2
        ? { ...r, amountCents: r.amountCents + 1_050 }
        : r.kind === 'CUOTA' && r.number === 3
          ? { ...r, amountCents: r.amountCents - 5 }
          : r,
    );
    expect(scheduleDifference(p, rows)).toEqual({ downPaymentCents: 1_050, instalmentsCents: -5 });
    const result = applyScheduleEdits(p, rows, today, 'USD');
    expect(result).toEqual({
      ok: false,
      errors: [
        'La suma de la cuota inicial excede en US$ 10.50 al total de US$ 6,000.00',
        `La suma de las cuotas es menor en US$ 0.05 al total de ${formatMoney(p.financedCents + p.totalInterestCents, 'USD')}`,
      ],
    });
  });

  it('refuses rows that are not the plan, dates out of order or before the sale, amounts under the interest', () => {
    const p = plan();
    expect(applyScheduleEdits(p, edited(p).slice(1), today, 'PEN')).toEqual({
      ok: false,
      errors: ['El cronograma no corresponde al plan de pago: vuelva a calcularlo'],
    });
    const rows = edited(p);
    const at = (kind: string, n: number) => rows.findIndex((r) => r.kind === kind && r.number === n);
    rows[at('INICIAL', 1)] = { ...rows[at('INICIAL', 1)]!, dueDate: '2026-03-01' };
    rows[at('CUOTA', 1)] = { ...rows[at('CUOTA', 1)]!, dueDate: '2026-03-02' };
    rows[at('CUOTA', 4)] = { ...rows[at('CUOTA', 4)]!, dueDate: rows[at('CUOTA', 3)]!.dueDate };
    rows[at('CUOTA', 5)] = { ...rows[at('CUOTA', 5)]!, dueDate: '2026-02-30' };
    const result = applyScheduleEdits(p, rows, today, 'PEN');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      'La cuota inicial no puede vencer antes de la fecha de venta',
      'La primera cuota debe vencer después de la fecha de venta',
      'Cuota 4: debe vencer después de la anterior',
      'Cuota 5: fecha inválida',
    ]);
  });

  it('any amounts moved between instalments keep Σ capital = financed and no negative capital (1 000 cases)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 120 }),
        fc.constantFrom(...SCHEDULE_METHODS),
        fc.integer({ min: 0, max: 50_000 }),
        fc.nat(),
        fc.nat(),
        (instalments, method, rateBp, from, to) => {
          const p = plan({ instalments, method, monthlyRatePercent: (rateBp / 10_000).toFixed(4) });
          const rows = edited(p);
          const cuotas = rows.filter((r) => r.kind === 'CUOTA');
          const a = cuotas[from % cuotas.length]!;
          const b = cuotas[to % cuotas.length]!;
          const interestOf = new Map(planRows(p).map((r) => [`${r.kind}${r.number}`, r.interestCents]));
          const room = a.amountCents - (interestOf.get(`CUOTA${a.number}`) ?? 0);
          const moved = Math.floor(room / 2);
          a.amountCents -= moved;
          b.amountCents += moved;
          const result = applyScheduleEdits(p, rows, today, 'PEN');
          if (moved > 0 && a.amountCents < 1) return; // the only refusal possible: an amount of 0
          expect(result.ok).toBe(true);
          if (!result.ok) return;
          expect(result.rows.filter((r) => r.kind === 'CUOTA').reduce((s, r) => s + r.capitalCents, 0)).toBe(p.financedCents);
          expect(result.rows.every((r) => r.capitalCents >= 0)).toBe(true);
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
