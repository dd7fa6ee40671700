/**
 * Stand-in for `@blueprintjs/icons`' own `iconNames` module in the browser build (vite.config.ts
 * `blueprintIconNames`). Blueprint's module builds its name tables at start-up from the full list of
 * ~700 icon names (12 KB gzip of the entry chunk, plus change-case to run over all of them) only to
 * answer two questions: "is this a known icon name?" (`IconNamesSet.has`, checked before an icon's
 * paths are loaded) and "what is the name of IconNames.SQUARE?" (one use, in EntityTitle). Parcela
 * loads each icon's paths on demand (src/lib/icons.ts), so this module answers both from the name
 * itself: any kebab-case name counts as known (an unknown one then fails in the loader, which logs
 * it), and `IconNames.X` maps PascalCase or UPPER_SNAKE keys to the kebab-case name, as Blueprint's
 * tables do (`IconNames.ChevronDown` and `IconNames.CHEVRON_DOWN` are both 'chevron-down').
 * Not used by the tests, which run Blueprint's own module.
 */

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** 'ChevronDown' or 'CHEVRON_DOWN' → 'chevron-down'; 'Add2' → 'add2'. */
function kebabOf(key: string): string {
  if (/^[A-Z0-9_]+$/.test(key)) return key.toLowerCase().replace(/_/g, '-');
  return key.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

/** The kebab-case icon name of a PascalCase or UPPER_SNAKE key (Blueprint's `IconNames`). */
export const IconNames: Record<string, string> = new Proxy(
  {},
  { get: (_target, key) => (typeof key === 'string' ? kebabOf(key) : undefined) },
);

/** Answers whether a string is a well-formed icon name (Blueprint's `IconNamesSet`). */
export const IconNamesSet: Pick<ReadonlySet<string>, 'has'> = { has: (name: string) => typeof name === 'string' && KEBAB.test(name) };
