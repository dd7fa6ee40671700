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

/**
 * The typed localStorage keys of docs/product.md §3. Values are JSON except `token` and `type`, which are
 * stored as plain strings. Reading a malformed value returns null (and the caller treats it as
 * absent) instead of throwing.
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

const PLAIN_KEYS: ReadonlySet<StorageKey> = new Set(['token', 'type']);

/** Minimal Storage interface, so tests may pass an in-memory one. */
export type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'clear'>;

function defaultStore(): KeyValueStore | null {
  return typeof localStorage === 'undefined' ? null : localStorage;
}

/** Reads and validates one key; null when missing or malformed. */
export function readStorage<K extends StorageKey>(key: K, store = defaultStore()): StorageValue<K> | null {
  const raw = store?.getItem(key);
  if (raw == null) return null;
  try {
    const value: unknown = PLAIN_KEYS.has(key) ? raw : JSON.parse(raw);
    const parsed = STORAGE_SCHEMAS[key].safeParse(value);
    return parsed.success ? (parsed.data as StorageValue<K>) : null;
  } catch {
    return null;
  }
}

/** Writes one key (JSON except for `token` and `type`). */
export function writeStorage<K extends StorageKey>(key: K, value: StorageValue<K>, store = defaultStore()): void {
  store?.setItem(key, PLAIN_KEYS.has(key) ? String(value) : JSON.stringify(value));
}

/** Removes every key (docs/product.md §4: logout clears all local storage). */
export function clearStorage(store = defaultStore()): void {
  store?.clear();
}
