import { z } from 'zod';
import { centsToInput, parseMoneyInput } from '../../lib/money';
import {
  COMMISSION_BASES,
  COMMISSION_ROLES,
  COMMISSION_TRIGGERS,
  TRANCHE_MOMENTS,
  type CommissionPolicy,
  type TrancheMoment,
  type CreateCommissionPolicyRequest,
  type UpdateCommissionPolicyRequest,
} from '../../schemas/administracion/commissions';
import type { EditorValues } from '../shared/resource-editor.machine';

/**
 * The "Política de comisión" form of Comisiones y Pagos → Políticas (docs/domain.md "Commissions"):
 * the figures typed as a person says them — a percent ("3.5"), an amount in soles / dollars, and
 * the tranches, as many as the request schema allows (1 to {@link MAX_TRANCHES}), each with its
 * share in percent and when it is earned — each field named like the body's field, so a server 422
 * lands under it. One schema for both modes: the lotización and the rol are chosen when creating
 * and shown, fixed, when editing.
 */

/** The form's fields, named as the POST / PATCH body's. */
export const POLICY_FIELDS = [
  'subdivision_id',
  'role',
  'base',
  'percent_bp',
  'amount',
  'trigger',
  'trigger_percent_bp',
  'tranches',
  'active',
] as const;

/** Most tranches a policy has (the request schema's `tranches` `.max`, src/schemas/administracion/commissions.ts). */
export const MAX_TRANCHES = 4;

/** One tranche as the form holds it: its share as typed ("50") and when it is earned. */
export interface TrancheInput {
  share: string;
  at: TrancheMoment;
}

/** The tranche "Agregar tramo" appends: what is left to reach 100 % (if anything), when the sale is CANCELADA. */
export function nextTranche(tranches: readonly TrancheInput[]): TrancheInput {
  const used = tranches.reduce((sum, t) => sum + (percentToBp(t.share) ?? 0), 0);
  return { share: used < 10_000 ? bpToPercent(10_000 - used) : '', at: 'CANCELADA' };
}

/** A new policy's values: a percent base paid whole at the initial payment's approval. */
export const EMPTY_POLICY: EditorValues = {
  subdivision_id: '',
  role: 'ASESOR',
  base: 'PORCENTAJE',
  percent_bp: '',
  amount: '',
  trigger: 'INICIAL_APROBADA',
  trigger_percent_bp: '',
  tranches: [{ share: '100', at: 'TRIGGER' }] satisfies TrancheInput[],
  active: true,
};

const PERCENT_INVALID = 'Porcentaje no válido (de 0.01 a 100, ej. 3.5)';
const trancheInvalid = (n: number) => `Tramo ${n}: porcentaje no válido (de 0.01 a 100, ej. 50)`;

/** Basis points of a typed percent ("3.5" → 350), or null when not 0.01–100 with at most 2 decimals. */
export function percentToBp(text: string): number | null {
  const t = text.trim().replace(',', '.');
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(t)) return null;
  const bp = Math.round(Number(t) * 100);
  return bp >= 1 && bp <= 10_000 ? bp : null;
}

/** A percent as typed back from basis points (350 → "3.5"). */
export const bpToPercent = (bp: number | null): string => (bp === null ? '' : String(bp / 100));

const text = z.string().default('');

/** The validated body of both modes (the save picks what each sends). */
export const policyFormSchema = z
  .object({
    subdivision_id: z.union([z.string(), z.number()]),
    role: z.enum(COMMISSION_ROLES, { error: 'Seleccione el rol' }),
    base: z.enum(COMMISSION_BASES, { error: 'Seleccione la base' }),
    percent_bp: text,
    amount: text,
    trigger: z.enum(COMMISSION_TRIGGERS, { error: 'Seleccione el disparador' }),
    trigger_percent_bp: text,
    tranches: z
      .array(z.object({ share: z.string(), at: z.enum(TRANCHE_MOMENTS, { error: 'Momento no válido' }) }), { error: 'Indique los tramos' })
      .min(1, 'Indique al menos un tramo')
      .max(MAX_TRANCHES, `A lo más ${MAX_TRANCHES} tramos`),
    active: z.boolean().default(true),
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (!(Number(v.subdivision_id) > 0)) issue('subdivision_id', 'Seleccione la lotización');
    if (v.base === 'PORCENTAJE') {
      if (v.percent_bp.trim() === '') issue('percent_bp', 'Indique el porcentaje (ej. 3.5)');
      else if (percentToBp(v.percent_bp) === null) issue('percent_bp', PERCENT_INVALID);
    } else {
      const cents = parseMoneyInput(v.amount);
      if (v.amount.trim() === '') issue('amount', 'Indique el monto (ej. 1500.00)');
      else if (cents === null || cents < 1) issue('amount', 'Monto no válido (ej. 1500.00)');
    }
    if (v.trigger === 'PORCENTAJE_COBRADO') {
      if (v.trigger_percent_bp.trim() === '') issue('trigger_percent_bp', 'Indique el porcentaje cobrado que la dispara (ej. 30)');
      else if (percentToBp(v.trigger_percent_bp) === null) issue('trigger_percent_bp', PERCENT_INVALID);
    }
    // The server's rules (checkPolicy): each share 0.01–100 %, together 100 %, the first at the trigger.
    const shares = v.tranches.map((t) => percentToBp(t.share));
    const invalid = shares.findIndex((bp) => bp === null);
    const total = shares.reduce<number>((sum, bp) => sum + (bp ?? 0), 0);
    if (invalid >= 0) issue('tranches', trancheInvalid(invalid + 1));
    else if (total !== 10_000) issue('tranches', `Los tramos deben sumar 100 % (suman ${bpToPercent(total)} %)`);
    else if (v.tranches[0]?.at !== 'TRIGGER') issue('tranches', 'El primer tramo se paga al disparador');
  })
  .transform((v) => {
    return {
      subdivision_id: Number(v.subdivision_id),
      role: v.role,
      base: v.base,
      percent_bp: v.base === 'PORCENTAJE' ? percentToBp(v.percent_bp) : null,
      amount: v.base === 'MONTO_FIJO' ? parseMoneyInput(v.amount) : null,
      trigger: v.trigger,
      trigger_percent_bp: v.trigger === 'PORCENTAJE_COBRADO' ? percentToBp(v.trigger_percent_bp) : null,
      tranches: v.tranches.map((t) => ({ share_bp: percentToBp(t.share)!, at: t.at })),
      active: v.active,
    };
  });
export type PolicyFormBody = z.output<typeof policyFormSchema>;

/** A policy → the form's values (editing). */
export function policyValues(p: CommissionPolicy): EditorValues {
  return {
    subdivision_id: String(p.subdivision.id),
    role: p.role,
    base: p.base,
    percent_bp: bpToPercent(p.percent_bp),
    amount: p.amount === null ? '' : centsToInput(p.amount),
    trigger: p.trigger,
    trigger_percent_bp: bpToPercent(p.trigger_percent_bp),
    tranches: (p.tranches.length > 0 ? p.tranches : [{ share_bp: 10_000, at: 'TRIGGER' as const }]).map((t): TrancheInput => ({
      share: bpToPercent(t.share_bp),
      at: t.at,
    })),
    active: p.active,
  };
}

/** POST commission-policies body. */
export function createPolicyBody(b: PolicyFormBody): CreateCommissionPolicyRequest {
  return b;
}

/** PATCH commission-policies/{id} body: everything but the lotización and the rol, with the version read. */
export function updatePolicyBody(b: PolicyFormBody, version: number): UpdateCommissionPolicyRequest {
  const { subdivision_id: _s, role: _r, ...rest } = b;
  return { ...rest, version };
}
