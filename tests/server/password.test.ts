import { describe, expect, it } from 'vitest';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../server/auth/password';
import { generateSecret, hashToken } from '../../server/auth/tokens';

/** scrypt hashes and token secrets (server/auth). */

describe('password hashing', () => {
  it('stores scrypt$logN$r$p$salt$hash and verifies with the stored parameters', async () => {
    const stored = await hashPassword('Parcela#2026', 12);
    expect(stored).toMatch(/^scrypt\$12\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(await verifyPassword('Parcela#2026', stored)).toBe(true);
    expect(await verifyPassword('parcela#2026', stored)).toBe(false);
    expect(await hashPassword('Parcela#2026', 12)).not.toBe(stored);
    // A hash made at another cost still verifies.
    expect(await verifyPassword('x', await hashPassword('x', 10))).toBe(true);
  });

  it('treats malformed stored values as a mismatch', async () => {
    for (const stored of ['', 'bcrypt$xx', 'scrypt$a$8$1$c2FsdA==$aGFzaA==', 'scrypt$30$8$1$c2FsdA==$aGFzaA==', 'scrypt$12$8$1$$']) {
      expect(await verifyPassword('x', stored)).toBe(false);
    }
  });

  it('caches one dummy hash per cost', async () => {
    expect(await dummyPasswordHash(11)).toBe(await dummyPasswordHash(11));
  });
});

describe('token secrets', () => {
  it('are 64 hex characters stored as their SHA-256', () => {
    const { raw, hash } = generateSecret();
    expect(raw).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(hashToken(raw));
    expect(hash).not.toBe(raw);
  });
});
