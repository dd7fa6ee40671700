import { parseMoneyInput } from '../../lib/money';

/**
 * What the sale's dialogs that settle paid money share (annul and rescind: docs/domain.md
 * "Annulling a sale", "Rescission"): the penalty field's message and what is left of the paid money
 * after the penalty.
 */

/** The penalty field's own message (the server's are in the schemas' messages). */
export const PENALTY_INVALID = 'Penalidad no válida (ej. 150.00)';

/** The penalty typed in soles / dollars, in céntimos (null when not a valid amount), and paid − penalty (never below 0). */
export function paidLessPenalty(paid: number, penaltyText: string): { paid: number; penalty: number | null; rest: number } {
  const penalty = parseMoneyInput(penaltyText);
  return { paid, penalty, rest: Math.max(0, paid - (penalty ?? 0)) };
}
