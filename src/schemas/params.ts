import { z } from 'zod';

/**
 * `{id}` path parameter of every single-record route on the main base (`/api/users/:id`,
 * `/api/roles/:id`, `/api/locals/:id`, `/api/stages/:id`, `/api/blocks/:id`; docs/api.md "Paths"):
 * the record's id as the URL carries it (decoded by the server; an unknown or malformed one is a 404).
 */
export const idParamsSchema = z.strictObject({ id: z.string() });
