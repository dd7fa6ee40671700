import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/database';
import { DEFAULT_ID_ALPHABET } from '../ids';

/**
 * The alphabet of this installation's opaque ids (issue 11 item 16: with the alphabet from the
 * source code anyone can compute every subdivision's key). Production never runs on the default:
 *
 * - `ID_ALPHABET` set → that one (the operator chose it; nothing is stored);
 * - else the one stored in `installation_settings` (`id_alphabet`) at an earlier start;
 * - else, on a database without subdivisions, a new random shuffle of [A-Za-z0-9] (Fisher–Yates with
 *   `crypto.randomInt`), stored, so every later start and every shared link use it;
 * - else (an installation that already shared links with the default): the default is stored and
 *   kept, with a warning — changing it would break every link already shared.
 *
 * Outside production the default stays (tests and pacts need stable keys).
 * @returns the alphabet and what happened, for the start-up log
 */
export async function installationIdAlphabet(
  db: Kysely<DB>,
  { production, fromEnv }: { production: boolean; fromEnv: string | null },
): Promise<{ alphabet: string; source: 'env' | 'stored' | 'generated' | 'default-kept' | 'default' }> {
  if (fromEnv) return { alphabet: fromEnv, source: 'env' };
  if (!production) return { alphabet: DEFAULT_ID_ALPHABET, source: 'default' };
  const stored = await db.selectFrom('installation_settings').select('value').where('name', '=', 'id_alphabet').executeTakeFirst();
  if (stored) return { alphabet: stored.value, source: 'stored' };
  const anySubdivision = await db.selectFrom('subdivisions').select('id').limit(1).executeTakeFirst();
  const alphabet = anySubdivision ? DEFAULT_ID_ALPHABET : randomAlphabet();
  // on conflict: two processes starting together keep the first one's.
  await db
    .insertInto('installation_settings')
    .values({ name: 'id_alphabet', value: alphabet })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const kept = await db.selectFrom('installation_settings').select('value').where('name', '=', 'id_alphabet').executeTakeFirstOrThrow();
  return { alphabet: kept.value, source: anySubdivision ? 'default-kept' : 'generated' };
}

/** A random permutation of the 62 letters and digits. */
export function randomAlphabet(): string {
  const chars = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'];
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
