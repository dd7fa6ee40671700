/**
 * The late-fee policy of a subdivision (issue "Money in"; ../shared/design/DOMAIN.md "Late fee"):
 * its kinds, bounds and defaults, shared by the subdivision's request/response schemas
 * (src/schemas/proyectos/projects.ts) and the rules that apply it (src/lib/finanzas/late-fees.ts).
 */

/** Kinds of late fee (DOMAIN.md "Late fee"). */
export const LATE_FEE_KINDS = ['MONTO_DIARIO', 'PORCENTAJE_MENSUAL'] as const;
export type LateFeeKind = (typeof LATE_FEE_KINDS)[number];

/** Most grace days a policy may give. */
export const MAX_GRACE_DAYS = 60;
/** Highest monthly percent a PORCENTAJE_MENSUAL policy may charge. */
export const MAX_MONTHLY_PERCENT = 5;
/** Highest daily amount of a MONTO_DIARIO policy: S/ 1 000.00 in céntimos. */
export const MAX_DAILY_AMOUNT_CENTS = 100_000;

/** A subdivision's late-fee policy. */
export interface LateFeePolicy {
  /** Days after the due date without a fee, 0 … {@link MAX_GRACE_DAYS}. */
  graceDays: number;
  kind: LateFeeKind;
  /** MONTO_DIARIO: céntimos per late day, 0 … {@link MAX_DAILY_AMOUNT_CENTS}. */
  dailyAmountCents: number;
  /** PORCENTAJE_MENSUAL: percent a month of the unpaid amount, decimal text ("2" or "1.5"), 0 … {@link MAX_MONTHLY_PERCENT}. */
  monthlyPercent: string;
  /** Most one instalment may accrue, céntimos; null for no cap. */
  capCents: number | null;
}

/** The policy of a subdivision that has not set its own (DOMAIN.md: 3 grace days, S/ 5.00 a day, no cap). */
export const DEFAULT_LATE_FEE_POLICY: LateFeePolicy = {
  graceDays: 3,
  kind: 'MONTO_DIARIO',
  dailyAmountCents: 500,
  monthlyPercent: '0',
  capCents: null,
};
