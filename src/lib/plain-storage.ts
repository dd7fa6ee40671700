import { sessionTypeOf, type UserType } from '../schemas/user-types';
import type { StorageKey, StorageValue } from './storage';

/**
 * The storage of docs/product.md §3 without its schemas: the plain keys `token` and `type` (stored
 * as strings), writing and clearing. The login page's entry chunk needs only these, and carries no
 * zod (docs/decisions.md "Compression and the login budget"); the JSON keys are read with their
 * schemas by ./storage.ts, which re-exports everything here.
 */

/** Minimal Storage interface, so tests may pass an in-memory one. */
export type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'clear'>;

/** localStorage, or null where there is none (the server, tests without a DOM). */
export function defaultStore(): KeyValueStore | null {
  return typeof localStorage === 'undefined' ? null : localStorage;
}

/** The keys stored as plain strings; the others are JSON. */
export type PlainKey = 'token' | 'type';
export const PLAIN_KEYS: ReadonlySet<StorageKey> = new Set<PlainKey>(['token', 'type']);

/**
 * Reads `token` (any non-empty string) or `type` (any non-empty string, read by
 * {@link sessionTypeOf}: anything but CUSTOMER is staff, docs/product.md §6); null when missing or
 * empty. The same answers as ./storage.ts `STORAGE_SCHEMAS` give (held to them by a unit test).
 */
export function readPlainStorage(key: 'token', store?: KeyValueStore | null): string | null;
export function readPlainStorage(key: 'type', store?: KeyValueStore | null): UserType | null;
export function readPlainStorage(key: PlainKey, store = defaultStore()): string | null {
  const raw = store?.getItem(key);
  if (!raw) return null;
  return key === 'type' ? sessionTypeOf(raw) : raw;
}

/** Writes one key (JSON except for `token` and `type`). */
export function writeStorage<K extends StorageKey>(key: K, value: StorageValue<K>, store = defaultStore()): void {
  store?.setItem(key, PLAIN_KEYS.has(key) ? String(value) : JSON.stringify(value));
}

/** Removes every key (docs/product.md §4: logout clears all local storage). */
export function clearStorage(store = defaultStore()): void {
  store?.clear();
}
