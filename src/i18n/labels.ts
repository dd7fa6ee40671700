import { en } from './en';
import { es, type LabelKey, type Labels } from './es';

/**
 * The UI label catalogues (docs/architecture.md;
 * docs/product.md §9 labels). `t(key)` reads Spanish unless a locale is given.
 */
export type Locale = 'es' | 'en';

/** Every catalogue, by locale. */
export const CATALOGUES: Readonly<Record<Locale, Labels>> = { es, en };

/** The default locale (docs/product.md §1). */
export const DEFAULT_LOCALE: Locale = 'es';

/** The label `key` in `locale` (Spanish by default). */
export function t(key: LabelKey, locale: Locale = DEFAULT_LOCALE): string {
  return CATALOGUES[locale][key];
}

export type { LabelKey, Labels };
