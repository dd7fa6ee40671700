import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashing with scrypt (docs/architecture.md). Stored format:
 * `scrypt$<logN>$<r>$<p>$<salt base64>$<hash base64>`; verification reads the parameters from the
 * stored string, so raising SCRYPT_LOG_N keeps old hashes valid.
 */

const KEY_LENGTH = 32;
const SALT_BYTES = 16;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number, keyLength: number): Promise<Buffer> {
  const N = 2 ** logN;
  // scrypt needs 128·N·r bytes; leave headroom so Node does not reject the call.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/**
 * Hashes `password` with a random 16-byte salt.
 * @param logN cost as log2(N) (config SCRYPT_LOG_N; 17 in production, 12 in tests).
 * @returns the stored string `scrypt$logN$r$p$salt$hash`.
 */
export async function hashPassword(password: string, logN: number): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, logN, BLOCK_SIZE, PARALLELISM, KEY_LENGTH);
  return ['scrypt', logN, BLOCK_SIZE, PARALLELISM, salt.toString('base64'), hash.toString('base64')].join('$');
}

/**
 * Checks `password` against a stored hash in constant time.
 * @returns false for a wrong password or a malformed stored value (never throws for those).
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [logN, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![logN, r, p].every((n) => Number.isInteger(n) && n > 0) || logN > 24) return false;
  const salt = Buffer.from(parts[4] ?? '', 'base64');
  const expected = Buffer.from(parts[5] ?? '', 'base64');
  if (salt.length === 0 || expected.length === 0) return false;
  const actual = await derive(password, salt, logN, r, p, expected.length);
  return timingSafeEqual(actual, expected);
}

const dummyHashes = new Map<number, Promise<string>>();

/**
 * A valid hash of a random password at cost `logN`, computed once per cost. Login verifies against
 * it when the account does not exist, so both cases cost the same scrypt work (no user enumeration
 * by timing).
 */
export function dummyPasswordHash(logN: number): Promise<string> {
  let hash = dummyHashes.get(logN);
  if (!hash) {
    hash = hashPassword(randomBytes(16).toString('hex'), logN);
    dummyHashes.set(logN, hash);
  }
  return hash;
}
