/**
 * Peruvian identity documents (SUNAT catalogue 06, docs/domain.md "Catalogues").
 * Pure functions shared by the web app and the server.
 */

/** SUNAT catalogue 06 codes accepted at registration: 1 DNI, 4 CE, 6 RUC, 7 Pasaporte. */
export const DOCUMENT_TYPES = [
  { code: '1', label: 'DNI' },
  { code: '4', label: 'Carné de extranjería' },
  { code: '6', label: 'RUC' },
  { code: '7', label: 'Pasaporte' },
] as const;
export type DocumentTypeCode = (typeof DOCUMENT_TYPES)[number]['code'];

/**
 * RUC check digit (SUNAT mod-11): weights 5,4,3,2,7,6,5,4,3,2 over the first ten digits,
 * digit = 11 − (sum mod 11), where 10 → 0 and 11 → 1.
 * @param ruc any string; @returns true only for 11 digits whose last one is the check digit.
 */
export function isValidRuc(ruc: string): boolean {
  if (!/^(10|15|16|17|20)\d{9}$/.test(ruc)) return false;
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((acc, w, i) => acc + w * Number(ruc[i]), 0);
  const rest = 11 - (sum % 11);
  const check = rest === 10 ? 0 : rest === 11 ? 1 : rest;
  return check === Number(ruc[10]);
}

/**
 * Validates a document number for its SUNAT type.
 * @returns null when valid, else the Spanish field message.
 */
export function documentNumberError(type: string, value: string): string | null {
  switch (type) {
    case '1':
      return /^\d{8}$/.test(value) ? null : 'El DNI debe tener 8 dígitos';
    case '4':
      return /^[A-Za-z0-9]{8,12}$/.test(value) ? null : 'El carné de extranjería debe tener entre 8 y 12 caracteres alfanuméricos';
    case '6':
      return isValidRuc(value) ? null : 'El RUC no es válido (11 dígitos con dígito verificador)';
    case '7':
      return /^[A-Za-z0-9]{6,12}$/.test(value) ? null : 'El pasaporte debe tener entre 6 y 12 caracteres alfanuméricos';
    default:
      return 'Tipo de documento no válido';
  }
}
