import { styleSettingsSchema, type StyleSettings } from '../../src/schemas/session';
import type { AppDeps } from '../context';
import { validationError } from '../errors';
import { recordChange, type AuditContext } from '../audit/audit';
import { inTransaction } from '../db/portable';
import { findUserById } from '../modules/configuracion/users.repository';
import { saveStaffStyles } from './styles.repository';

/** Theme settings saved by staff (docs/product.md §6: customers' styles are never saved on the server). */

/** Spanish messages of the styles call. */
export const STYLES_MESSAGES = {
  saved: 'Estilos guardados',
  invalid: 'La configuración de estilos no es válida',
} as const;

/** Stored styles JSON → settings; null when absent or no longer valid (login answers `system_styles`). */
export function parseStoredStyles(json: string | null): StyleSettings | null {
  if (!json) return null;
  try {
    const parsed = styleSettingsSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Saves a staff user's styles (docs/product.md §7 row 8). `stylesJson` is the form field `styles`.
 * @throws HttpError 422 on field `styles` when it is not JSON of `styleSettingsSchema`.
 */
export async function saveStyles(
  { db, clock }: Pick<AppDeps, 'db' | 'clock'>,
  userId: number,
  stylesJson: string,
  audit: AuditContext = { actor: { userType: 'COLLABORATOR', accountId: userId }, ip: null, clock },
): Promise<void> {
  let value: unknown;
  try {
    value = JSON.parse(stylesJson);
  } catch {
    throw validationError({ styles: [STYLES_MESSAGES.invalid] });
  }
  const parsed = styleSettingsSchema.safeParse(value);
  if (!parsed.success) throw validationError({ styles: [STYLES_MESSAGES.invalid] });
  await inTransaction(db, async (trx) => {
    const before = await findUserById(trx, userId);
    await saveStaffStyles(trx, userId, JSON.stringify(parsed.data), clock.now().toISOString());
    const after = await findUserById(trx, userId);
    await recordChange(trx, audit, { entity: 'users', recordId: userId, action: 'UPDATE', before, after });
  });
}
