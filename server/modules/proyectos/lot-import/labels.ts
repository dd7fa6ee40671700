/**
 * Lot labels written on plans (docs/import.md "Rótulos"). Accepted spellings (case-insensitive,
 * MTEXT formatting removed):
 * - one text with block and number: "A-12", "MZ A - LT 12", "MZ. A LT. 12", "Mz A / Lt 12",
 *   "MANZANA A LOTE 12";
 * - two texts in the same lot: "MZ A" (or "MANZANA A") and "LT 12" (or "LOTE 12").
 * Anything else (dimension texts "8.00", street names, "PARQUE") is not a label.
 */

/** What one text says. */
export type Label = { kind: 'full'; block: string; number: string } | { kind: 'block'; block: string } | { kind: 'lot'; number: string };

const BLOCK = '([A-ZÑ0-9]+(?:-[A-ZÑ0-9]+)?)';
const NUMBER = '([0-9]+[A-Z]?(?:-[A-Z0-9]+)?)';
const MZ = '(?:MZA?|MANZANA)\\.?';
const LT = '(?:LTE?|LOTE)\\.?';
const FULL_PREFIXED = new RegExp(`^${MZ}\\s*${BLOCK}\\s*[-,/]?\\s*${LT}\\s*${NUMBER}$`);
const FULL_SHORT = /^([A-ZÑ][A-ZÑ0-9]*(?:-[A-ZÑ0-9]+)?)\s*-\s*([0-9]+[A-Z]?)$/;
const BLOCK_ONLY = new RegExp(`^${MZ}\\s*${BLOCK}$`);
const LOT_ONLY = new RegExp(`^${LT}\\s*${NUMBER}$`);

/** Plain text of a DXF TEXT/MTEXT value: formatting codes ({\fArial;…}, \P, %%c…) removed. */
export function plainText(raw: string): string {
  return raw
    .replace(/\\[PpNn]/g, ' ')
    .replace(/\\[A-Za-z][^;\\{}]*;/g, '')
    .replace(/\\[LlOoKk]/g, '')
    .replace(/[{}]/g, '')
    .replace(/%%[a-zA-Z]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Reads a label from a text, or null when it is not one. */
export function parseLabel(raw: string): Label | null {
  const text = plainText(raw).toUpperCase();
  if (!text) return null;
  let m = FULL_PREFIXED.exec(text);
  if (m) return { kind: 'full', block: m[1]!, number: m[2]! };
  m = FULL_SHORT.exec(text);
  if (m) return { kind: 'full', block: m[1]!, number: m[2]! };
  m = BLOCK_ONLY.exec(text);
  if (m) return { kind: 'block', block: m[1]! };
  m = LOT_ONLY.exec(text);
  if (m) return { kind: 'lot', number: m[1]! };
  return null;
}
