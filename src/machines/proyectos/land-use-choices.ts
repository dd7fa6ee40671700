import type { ImportPreview, ImportUseChoice, ImportUseSource, LandUse } from '../../schemas/proyectos/projects';

/**
 * The mapping step of the lot-import dialog (docs/import.md "Land use"): the file's land-use values
 * that are not a use's own name, as the preview lists them, with the use the user picks for each.
 * The choices live in the lot-import machine's context (`landUseChoices`, by the value's label as
 * listed) and go with the next preview and the commit as `land_uses`; "Importar" waits until every
 * value has a use. Pure helpers, shared by the machine and the view.
 */

/** The user's use per listed value (its `label` as the preview lists it). */
export type LandUseChoices = Readonly<Record<string, LandUse>>;

/** One row of the mapping step: a value of the file, its lots, its use now and where that use comes from. */
export interface LandUseRow {
  label: string;
  lots: number;
  /** The user's choice, else the preview's use; null while the value has none. */
  use: LandUse | null;
  /** `CHOSEN` once the user picked a use here (or sent one before), else the preview's source. */
  source: ImportUseSource;
}

/** The preview's values with the user's choices applied, in the preview's order. */
export function landUseRows(preview: Pick<ImportPreview, 'use_values'> | null, choices: LandUseChoices): LandUseRow[] {
  return (preview?.use_values ?? []).map((value) => {
    const chosen = Object.hasOwn(choices, value.label) ? choices[value.label]! : null;
    if (chosen) return { label: value.label, lots: value.lots, use: chosen, source: 'CHOSEN' };
    return { label: value.label, lots: value.lots, use: value.use, source: value.source ?? (value.use ? 'SYNONYM' : 'UNMAPPED') };
  });
}

/**
 * How many values of the file still have no use: the listed ones without a choice, plus those the
 * preview left out of its list (`use_values_unmapped` counts them all).
 */
export function landUsesPending(
  preview: Pick<ImportPreview, 'use_values' | 'use_values_unmapped'> | null,
  choices: LandUseChoices,
): number {
  const listed = preview?.use_values ?? [];
  const listedUnmapped = listed.filter((v) => v.use === null).length;
  const unlisted = Math.max(0, (preview?.use_values_unmapped ?? listedUnmapped) - listedUnmapped);
  return landUseRows(preview, choices).filter((row) => row.use === null).length + unlisted;
}

/** The choices as the request's `land_uses` (src/schemas importUseChoiceSchema), in label order. */
export function toLandUseChoices(choices: LandUseChoices): ImportUseChoice[] {
  return Object.keys(choices)
    .sort()
    .map((label) => ({ label, use: choices[label]! }));
}

/** `choices` with `label` set to `use` (null removes the choice: the preview's use stands again). */
export function chooseLandUse(choices: LandUseChoices, label: string, use: LandUse | null): LandUseChoices {
  const rest = Object.fromEntries(Object.entries(choices).filter(([key]) => key !== label));
  return use ? { ...rest, [label]: use } : rest;
}
