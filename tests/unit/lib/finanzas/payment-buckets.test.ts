import { describe, expect, it } from 'vitest';
import { paymentBucketOf, saleDaysLate, summariseBuckets } from '../../../../src/lib/finanzas/payment-buckets';
import { PAYMENT_BUCKETS } from '../../../../src/schemas/comercio/payment-map';

/** The bucket rule of Mapa de Pagos (docs/decisions.md "Mapa de Pagos"); boundaries against the server in tests/server/payment-map.test.ts. */
describe('payment buckets', () => {
  const today = '2026-06-15';
  const bucket = (due: string | null, balance = 100) => paymentBucketOf({ oldestOwedDue: due, balance }, today);

  it('counts days late from the due date (docs/domain.md), never below 0', () => {
    expect(saleDaysLate(null, today)).toBe(0);
    expect(saleDaysLate('2026-06-20', today)).toBe(0);
    expect(saleDaysLate('2026-06-15', today)).toBe(0);
    expect(saleDaysLate('2026-06-14', today)).toBe(1);
    expect(saleDaysLate('2026-06-11', today)).toBe(4);
  });

  it('puts each boundary in its bucket', () => {
    expect(bucket('2026-06-23')).toBe('AL_DIA');
    expect(bucket('2026-06-22')).toBe('VENCE_7');
    expect(bucket('2026-06-15')).toBe('VENCE_7');
    expect(bucket('2026-06-13')).toBe('D1_30');
    expect(bucket('2026-06-14')).toBe('D1_30');
    expect(bucket('2026-05-16')).toBe('D1_30');
    expect(bucket('2026-05-15')).toBe('D31_60');
    expect(bucket('2026-04-16')).toBe('D31_60');
    expect(bucket('2026-04-15')).toBe('D61_90');
    expect(bucket('2026-03-17')).toBe('D61_90');
    expect(bucket('2026-03-16')).toBe('MAS_90');
    expect(bucket(null)).toBe('CANCELADO');
    expect(bucket('2026-01-01', 0)).toBe('CANCELADO');
  });

  it('sums every bucket in the legend order', () => {
    const sums = summariseBuckets([
      { bucket: 'D1_30', overdue: 10, balance: 50 },
      { bucket: 'D1_30', overdue: 5, balance: 20 },
      { bucket: 'CANCELADO', overdue: 0, balance: 0 },
    ]);
    expect(sums.map((s) => s.bucket)).toEqual([...PAYMENT_BUCKETS]);
    expect(sums.find((s) => s.bucket === 'D1_30')).toEqual({ bucket: 'D1_30', lots: 2, overdue: 15, balance: 70 });
    expect(sums.find((s) => s.bucket === 'AL_DIA')?.lots).toBe(0);
  });
});
