import type { Kysely } from 'kysely';
import type { DB, Instant } from '../db/database';

/** SQL of saved theme settings (docs/product.md §7 row 8: staff only). */

/** Stores a staff user's style settings JSON. */
export async function saveStaffStyles(db: Kysely<DB>, userId: number, stylesJson: string, at: Instant): Promise<void> {
  await db.updateTable('users').set({ system_styles: stylesJson, updated_at: at }).where('id', '=', userId).execute();
}
