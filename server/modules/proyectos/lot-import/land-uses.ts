import { landUseKey, synonymLandUse } from '../../../../src/lib/proyectos/land-use-words';
import { MAX_IMPORT_USE_VALUES, type ImportUseSource, type ImportUseValue, type LandUse } from '../../../../src/schemas/proyectos/projects';
import type { ParsedLot } from './types';

/**
 * The land-use values of a file that are not a use's own name (docs/import.md "Land use"): each
 * lot's value (`land_use_label`) takes the user's choice sent with the request, else the one
 * remembered for the subdivision, else the synonyms' use (src/lib/proyectos/land-use-words.ts),
 * else none — the preview lists it and the commit refuses the file until it has one. Pure.
 */

/** Uses by value key ({@link landUseKey}): the request's and the subdivision's remembered ones. */
export interface LandUseChoices {
  /** Sent with this request (multipart field `land_uses`). */
  chosen?: Readonly<Record<string, LandUse>>;
  /** Chosen on an earlier import of the subdivision (table `lot_import_land_uses`). */
  remembered?: Readonly<Record<string, LandUse>>;
}

const own = (record: Readonly<Record<string, LandUse>> | undefined, key: string): LandUse | null =>
  record && Object.hasOwn(record, key) ? record[key]! : null;

/** The use of a value key and where it comes from: chosen, else remembered, else a synonym, else none. */
export function landUseOfValue(key: string, choices: LandUseChoices = {}): { use: LandUse | null; source: ImportUseSource } {
  const chosen = own(choices.chosen, key);
  if (chosen) return { use: chosen, source: 'CHOSEN' };
  const remembered = own(choices.remembered, key);
  if (remembered) return { use: remembered, source: 'REMEMBERED' };
  const synonym = synonymLandUse(key);
  return synonym ? { use: synonym, source: 'SYNONYM' } : { use: null, source: 'UNMAPPED' };
}

/** Gives every lot with a value its use ({@link landUseOfValue}); lots with a use's own name or none are left as read. */
export function resolveLandUses(lots: readonly ParsedLot[], choices: LandUseChoices = {}): void {
  for (const lot of lots) if (lot.land_use_label !== null) lot.land_use = landUseOfValue(landUseKey(lot.land_use_label), choices).use;
}

/** A value of the file with its key (what is compared and remembered). */
export interface FileUseValue extends ImportUseValue {
  key: string;
  source: ImportUseSource;
}

/**
 * Every distinct value of `lots` (grouped by key, labelled with its first spelling) with its lot
 * count, use and source; those without a use first, then by lots (most first) and label.
 */
export function fileUseValues(lots: readonly ParsedLot[], choices: LandUseChoices = {}): FileUseValue[] {
  const byKey = new Map<string, FileUseValue>();
  for (const lot of lots) {
    if (lot.land_use_label === null) continue;
    const key = landUseKey(lot.land_use_label);
    const found = byKey.get(key);
    if (found) found.lots += 1;
    else byKey.set(key, { key, label: lot.land_use_label, lots: 1, ...landUseOfValue(key, choices) });
  }
  return [...byKey.values()].sort(
    (a, b) => Number(a.use !== null) - Number(b.use !== null) || b.lots - a.lots || a.label.localeCompare(b.label, 'es'),
  );
}

/**
 * The preview's list of values ({@link fileUseValues}), at most {@link MAX_IMPORT_USE_VALUES}
 * (those without a use first, so they are always the ones shown), with how many are left out and
 * how many have no use in the whole file.
 */
export function listUseValues(
  lots: readonly ParsedLot[],
  choices: LandUseChoices = {},
): { useValues: ImportUseValue[]; useValuesMore: number; useValuesUnmapped: number } {
  const values = fileUseValues(lots, choices);
  return {
    useValues: values.slice(0, MAX_IMPORT_USE_VALUES).map(({ label, lots: count, use, source }) => ({ label, lots: count, use, source })),
    useValuesMore: Math.max(0, values.length - MAX_IMPORT_USE_VALUES),
    useValuesUnmapped: values.filter((v) => v.use === null).length,
  };
}
