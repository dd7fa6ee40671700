/**
 * Peruvian banks and the CCI (Código de Cuenta Interbancario), shared by the browser (the bank
 * picker, the CCI field's messages) and the server (the same checks in the request schemas).
 * Pure data and functions: no imports.
 *
 * The CCI is 20 digits: entity (3), branch (3), account (12), two check digits. The first check
 * digit covers entity + branch (digits 1–6), the second the account (digits 7–18). Each is a
 * weighted 1-2 modulo 10: from the left, digits are multiplied by 1, 2, 1, 2…; a two-digit product
 * counts as the sum of its digits; the check digit is (10 − sum mod 10) mod 10.
 *
 * Sources (docs/decisions.md "Bank accounts and wallets"): the CCI validation algorithm published
 * by d24 / dLocal for Peruvian cash-outs (docs.d24.com, "Countries validations → Peru": check
 * digits computed over `cci.substring(0, 6)` and `cci.substring(6, 18)`, factor starting at 1),
 * the same weights in the public TypeScript converter of BCP and BBVA account numbers to CCI
 * (`calculateCheckDigit`: `index % 2 === 0 ? 1 : 2`, digit sum, `(10 - sum % 10) % 10`), and the
 * worked example 011-366-000100032542-21 of Localpayment's Peru bank-account validations, which
 * this function reproduces (tests/unit/schemas/finanzas-banks.test.ts). The BCRP's CCE
 * (Cámara de Compensación Electrónica) assigns the entity codes; ASBANC publishes the scheme.
 */

/** A bank of the catalogue. */
export interface PeruvianBank {
  /** Our code (UPPER_SNAKE), stored in `bank_accounts.bank` and sent on the wire. */
  code: string;
  /** Spanish name shown in the picker and the table. */
  name: string;
  /** The entity code: the CCI's first three digits. */
  cciCode: string;
}

/**
 * The catalogue, in the order the picker shows it (the most used first). The entity codes of BCP,
 * Interbank, Scotiabank, BBVA, Banco de la Nación, BanBif and Mibanco are confirmed by the sources
 * above; the others are the CCE's participant codes as commonly published — check them against the
 * CCE's current list before relying on them for a new bank.
 */
export const PERUVIAN_BANKS = [
  { code: 'BCP', name: 'BCP', cciCode: '002' },
  { code: 'BBVA', name: 'BBVA', cciCode: '011' },
  { code: 'INTERBANK', name: 'Interbank', cciCode: '003' },
  { code: 'SCOTIABANK', name: 'Scotiabank', cciCode: '009' },
  { code: 'BANBIF', name: 'BanBif', cciCode: '038' },
  { code: 'BANCO_NACION', name: 'Banco de la Nación', cciCode: '018' },
  { code: 'PICHINCHA', name: 'Banco Pichincha', cciCode: '035' },
  { code: 'MIBANCO', name: 'Mibanco', cciCode: '049' },
  { code: 'BANCOM', name: 'Banco de Comercio', cciCode: '023' },
  { code: 'GNB', name: 'Banco GNB', cciCode: '053' },
  { code: 'CITIBANK', name: 'Citibank', cciCode: '007' },
  { code: 'CAJA_PIURA', name: 'Caja Piura', cciCode: '801' },
  { code: 'CAJA_TRUJILLO', name: 'Caja Trujillo', cciCode: '802' },
  { code: 'CAJA_AREQUIPA', name: 'Caja Arequipa', cciCode: '803' },
  { code: 'CAJA_SULLANA', name: 'Caja Sullana', cciCode: '805' },
  { code: 'CAJA_CUSCO', name: 'Caja Cusco', cciCode: '806' },
  { code: 'CAJA_HUANCAYO', name: 'Caja Huancayo', cciCode: '808' },
] as const satisfies readonly PeruvianBank[];

/** A bank's code. */
export type BankCode = (typeof PERUVIAN_BANKS)[number]['code'];

/** Every bank code, for enums and CHECK constraints. */
export const BANK_CODES: readonly BankCode[] = PERUVIAN_BANKS.map((b) => b.code);

/** The bank of `code`, or undefined. */
export function bankByCode(code: string): PeruvianBank | undefined {
  return PERUVIAN_BANKS.find((b) => b.code === code);
}

/** Spanish name of a bank code (the code itself when unknown: a backend may know more banks). */
export function bankName(code: string): string {
  return bankByCode(code)?.name ?? code;
}

/** Length of a CCI in digits. */
export const CCI_LENGTH = 20;

/**
 * The weighted 1-2 modulo-10 check digit of `digits` (see the module's comment).
 * @param digits a string of decimal digits (not checked)
 * @returns 0–9
 */
export function cciCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    const product = Number(digits[i]) * (i % 2 === 0 ? 1 : 2);
    sum += product > 9 ? product - 9 : product;
  }
  return (10 - (sum % 10)) % 10;
}

/**
 * The two check digits of a CCI's first 18 digits (entity + branch + account).
 * @param first18 18 decimal digits (not checked)
 * @returns two digits, e.g. "21"
 */
export function cciCheckDigits(first18: string): string {
  return `${cciCheckDigit(first18.slice(0, 6))}${cciCheckDigit(first18.slice(6, 18))}`;
}

/** Spanish messages of the CCI field, one per way it can be wrong. */
export const CCI_MESSAGES = {
  length: 'El CCI debe tener 20 dígitos (solo números)',
  bankCode: (bank: PeruvianBank) => `El CCI de ${bank.name} empieza por ${bank.cciCode}`,
  checkDigits: 'Los dígitos de control del CCI no son correctos: revise el número',
} as const;

/** Keeps the digits of a typed CCI or account number (spaces and hyphens dropped). */
export function digitsOnly(value: string): string {
  return value.replace(/[\s-]/g, '');
}

/**
 * What is wrong with a CCI for a bank, in Spanish, or null when it is right: not 20 digits (after
 * dropping spaces and hyphens), not starting with the bank's entity code, wrong check digits
 * (checked in that order; the bank code only when `bankCode` names a bank of the catalogue).
 */
export function cciError(cci: string, bankCode?: string): string | null {
  const digits = digitsOnly(cci);
  if (!new RegExp(`^\\d{${CCI_LENGTH}}$`).test(digits)) return CCI_MESSAGES.length;
  const bank = bankCode === undefined ? undefined : bankByCode(bankCode);
  if (bank && !digits.startsWith(bank.cciCode)) return CCI_MESSAGES.bankCode(bank);
  if (cciCheckDigits(digits.slice(0, 18)) !== digits.slice(18)) return CCI_MESSAGES.checkDigits;
  return null;
}
