import { z } from 'zod';

/**
 * GET /api/lot-options (Comercial + Ventas; issue "CRM and sales", a quote made from a customer):
 * the lots that can be quoted (Disponible or Separado) whose code or subdivision matches `q`, first
 * 20, for the lot picker of the quote dialog. Money in céntimos of the lot's currency.
 */
export const lotOptionsQuerySchema = z.strictObject({
  q: z.string().trim().min(1, 'Escriba el código del lote').max(60),
});
export type LotOptionsQuery = z.infer<typeof lotOptionsQuerySchema>;

/** A lot as the picker offers it. */
export const lotOptionSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  subdivision_name: z.string().default(''),
  currency: z.enum(['PEN', 'USD']),
  list_price: z.number().int(),
  status: z.string().default('DISPONIBLE'),
});
export type LotOption = z.infer<typeof lotOptionSchema>;
export const lotOptionsResponseSchema = z.object({ data: z.array(lotOptionSchema) });

/** Most lots one answer lists. */
export const MAX_LOT_OPTIONS = 20;
