import { z } from 'zod';

/**
 * GET /api/subdivision-options answer: the subdivisions by name (id, key, name, status) for pickers of
 * other screens (a lead's subdivisions of interest, list filters). Only id and name are required.
 */
export const subdivisionOptionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.string().optional(),
  /** The subdivision's opaque key (map addresses and calls); absent from an older server. */
  key: z.string().optional(),
});
export type SubdivisionOption = z.infer<typeof subdivisionOptionSchema>;
export const subdivisionOptionsResponseSchema = z.object({ data: z.array(subdivisionOptionSchema) });
