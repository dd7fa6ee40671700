import * as z from 'zod/mini';
import {
  channelsSchema,
  echoInfoSchema,
  localSchema,
  roleEntrySchema,
  sessionUserSchema,
  sessionTypeOf,
  styleSettingsReadSchema,
} from '../schemas/session';
import { defaultStore, readPlainStorage } from './plain-storage';

export { clearStorage, writeStorage, type KeyValueStore } from './plain-storage';

/**
 * The typed localStorage keys of docs/product.md §3. Values are JSON except `token` and `type`, which are
 * stored as plain strings and read without zod by ./plain-storage.ts (the login page's entry chunk
 * reads them; their schemas here state the same rules and type them). Reading a malformed value
 * returns null (and the caller treats it as absent) instead of throwing.
 */
export const STORAGE_SCHEMAS = {
  token: z.string().check(z.minLength(1)),
  // Any stored type other than CUSTOMER reads as staff (docs/product.md §6).
  type: z.pipe(z.string().check(z.minLength(1)), z.transform(sessionTypeOf)),
  system_styles: z.nullable(styleSettingsReadSchema),
  user_details: sessionUserSchema,
  echo_info: echoInfoSchema,
  channels: channelsSchema,
  accesos: z.array(z.string()),
  local_active: z.array(localSchema),
  roles: z.array(roleEntrySchema),
} as const;
export type StorageKey = keyof typeof STORAGE_SCHEMAS;
export type StorageValue<K extends StorageKey> = z.infer<(typeof STORAGE_SCHEMAS)[K]>;

/** Reads and validates one key; null when missing or malformed (`token` and `type`: ./plain-storage.ts). */
export function readStorage<K extends StorageKey>(key: K, store = defaultStore()): StorageValue<K> | null {
  if (key === 'token' || key === 'type') return readPlainStorage(key as 'token', store) as StorageValue<K> | null;
  const raw = store?.getItem(key);
  if (raw == null) return null;
  try {
    const parsed = STORAGE_SCHEMAS[key].safeParse(JSON.parse(raw));
    return parsed.success ? (parsed.data as StorageValue<K>) : null;
  } catch {
    return null;
  }
}
