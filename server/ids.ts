import Sqids from 'sqids';

/**
 * Opaque ids for browser routes and subdivision API paths (docs/api.md "Business resources": sqids with the
 * company's alphabet, decoded on the server). The alphabet comes from `ID_ALPHABET` (config
 * `idAlphabet`), a shuffled set of at least 16 unique characters; changing it breaks links
 * already shared, so it is fixed per installation.
 */
export interface OpaqueIds {
  /** `id` (positive integer) → key such as "k3Xq9aPz". */
  encode(id: number): string;
  /** Key → id, or null when the key is not one this installation issued (callers answer 404). */
  decode(key: string): number | null;
}

/** Default alphabet (a fixed shuffle of [a-zA-Z0-9]). */
export const DEFAULT_ID_ALPHABET = 'Xk2mQ9vTzLr4cN7pYbG1sHdW8fJ3aRx6eUgK5nPtB0wCyMhSq';

/** Minimum key length, so small ids do not look small. */
const MIN_LENGTH = 8;

/**
 * Builds the encoder for `alphabet`.
 * @throws Error from sqids when the alphabet is shorter than 3 characters or repeats one.
 */
export function createOpaqueIds(alphabet: string = DEFAULT_ID_ALPHABET): OpaqueIds {
  const sqids = new Sqids({ alphabet, minLength: MIN_LENGTH });
  return {
    encode: (id) => sqids.encode([id]),
    decode: (key) => {
      if (!/^[A-Za-z0-9]{1,40}$/.test(key)) return null;
      const numbers = sqids.decode(key);
      if (numbers.length !== 1) return null;
      const id = numbers[0]!;
      // sqids decodes several spellings to the same number; only the canonical one is valid.
      if (!Number.isSafeInteger(id) || id < 1 || sqids.encode([id]) !== key) return null;
      return id;
    },
  };
}
