import { describe, expect, it } from 'vitest';
import {
  CCI_MESSAGES,
  PERUVIAN_BANKS,
  bankByCode,
  bankName,
  cciCheckDigit,
  cciCheckDigits,
  cciError,
} from '../../../src/schemas/finanzas/banks';
import { createBankAccountRequestSchema, updateBankAccountRequestSchema } from '../../../src/schemas/finanzas/bank-accounts';
import { createWalletRequestSchema, WALLET_MESSAGES } from '../../../src/schemas/finanzas/wallets';

/** The bank catalogue and the CCI rule (src/schemas/finanzas/banks.ts), shared by the editor and the server. */

describe('CCI check digits', () => {
  it("reproduces the published example 011-366-000100032542-21 (Localpayment's Peru validations)", () => {
    expect(cciCheckDigits('011366000100032542')).toBe('21');
    expect(cciError('01136600010003254221', 'BBVA')).toBeNull();
  });

  it('weights digits 1, 2, 1, 2… from the left, sums the digits of two-digit products, and takes (10 − sum mod 10) mod 10', () => {
    // 0·1 + 1·2 + 1·1 + 3·2 + 6·1 + (6·2 = 12 → 1 + 2) = 18 → 2
    expect(cciCheckDigit('011366')).toBe(2);
    expect(cciCheckDigit('000000')).toBe(0);
    expect(cciCheckDigit('5')).toBe(5);
    expect(cciCheckDigit('09')).toBe(1); // 0 + (18 → 9) = 9 → 1
  });

  it('says what is wrong: length, the bank code, the check digits (in that order)', () => {
    expect(cciError('0113660001000325422', 'BBVA')).toBe(CCI_MESSAGES.length);
    expect(cciError('0113660001000325422a', 'BBVA')).toBe(CCI_MESSAGES.length);
    expect(cciError('01136600010003254221', 'BCP')).toBe(CCI_MESSAGES.bankCode(bankByCode('BCP')!));
    expect(cciError('01136600010003254212', 'BBVA')).toBe(CCI_MESSAGES.checkDigits);
    expect(cciError('011-366-000100032542-21', 'BBVA')).toBeNull();
    expect(cciError('01136600010003254221')).toBeNull();
  });

  it('has one entity code per bank, three digits each, and Spanish names', () => {
    const codes = PERUVIAN_BANKS.map((b) => b.cciCode);
    expect(new Set(codes).size).toBe(codes.length);
    for (const bank of PERUVIAN_BANKS) expect(bank.cciCode).toMatch(/^\d{3}$/);
    expect(bankName('BANCO_NACION')).toBe('Banco de la Nación');
    expect(bankName('OTRO')).toBe('OTRO');
  });
});

describe('request schemas', () => {
  const body = { bank: 'BBVA', kind: 'AHORROS', currency: 'PEN', number: '0011-0366-0100032542', cci: '01136600010003254221', holder: 'X' };

  it('keeps digits only and defaults active to true', () => {
    expect(createBankAccountRequestSchema.parse(body)).toMatchObject({ number: '001103660100032542', active: true });
  });

  it('puts the bank-code error on cci when both are sent, creating and updating', () => {
    for (const schema of [createBankAccountRequestSchema, updateBankAccountRequestSchema]) {
      const result = schema.safeParse({ ...body, bank: 'INTERBANK' });
      expect(result.success).toBe(false);
      expect(result.error?.issues).toEqual([
        expect.objectContaining({ path: ['cci'], message: CCI_MESSAGES.bankCode(bankByCode('INTERBANK')!) }),
      ]);
    }
  });

  it('refuses unknown keys and a phone that is not a Peruvian mobile', () => {
    expect(createBankAccountRequestSchema.safeParse({ ...body, extra: 1 }).success).toBe(false);
    const wallet = createWalletRequestSchema.safeParse({ kind: 'YAPE', phone: '812345678', holder: 'X' });
    expect(wallet.error?.issues.map((i) => i.message)).toEqual([WALLET_MESSAGES.phone]);
    expect(createWalletRequestSchema.parse({ kind: 'PLIN', phone: '912 345 678', holder: 'X' }).phone).toBe('912345678');
  });
});
