/**
 * Theme data and CSS variables of the theme configurator (issue "Shell"; docs/product.md §2 "Theme
 * configurator", §3 layoutConfig, §9 defaults; docs/product.md §2). Pure functions: the
 * theme machine decides, a view applies the variables to <html> over Blueprint's own theme.
 */
import type { StyleSettings } from '../schemas/session';
import { AA_NON_TEXT, AA_TEXT, contrastRatio, mixHex } from './contrast';

/** Shade steps of every palette: 50, 100 … 900, 950. */
export const SHADES = [50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 950] as const;
export type Shade = (typeof SHADES)[number];
type Palette = readonly [string, string, string, string, string, string, string, string, string, string, string];

/** Surface palettes (docs/product.md §2): Tailwind's slate…stone and Sakai's soho, viva, ocean (values from the issue). */
export const SURFACE_PALETTES: Record<string, Palette> = {
  slate: ['#f8fafc', '#f1f5f9', '#e2e8f0', '#cbd5e1', '#94a3b8', '#64748b', '#475569', '#334155', '#1e293b', '#0f172a', '#020617'],
  gray: ['#f9fafb', '#f3f4f6', '#e5e7eb', '#d1d5db', '#9ca3af', '#6b7280', '#4b5563', '#374151', '#1f2937', '#111827', '#030712'],
  zinc: ['#fafafa', '#f4f4f5', '#e4e4e7', '#d4d4d8', '#a1a1aa', '#71717a', '#52525b', '#3f3f46', '#27272a', '#18181b', '#09090b'],
  neutral: ['#fafafa', '#f5f5f5', '#e5e5e5', '#d4d4d4', '#a3a3a3', '#737373', '#525252', '#404040', '#262626', '#171717', '#0a0a0a'],
  stone: ['#fafaf9', '#f5f5f4', '#e7e5e4', '#d6d3d1', '#a8a29e', '#78716c', '#57534e', '#44403c', '#292524', '#1c1917', '#0c0a09'],
  soho: ['#f4f4f4', '#e8e9e9', '#d2d2d4', '#bbbcbe', '#a5a5a9', '#8e8f93', '#77787d', '#616268', '#4a4b52', '#34343d', '#1d1e27'],
  viva: ['#f3f3f3', '#e7e7e8', '#cfd0d0', '#b7b8b9', '#9fa1a1', '#87898a', '#6e7173', '#565a5b', '#3e4244', '#262b2c', '#0e1315'],
  ocean: ['#fbfcfc', '#f7f9f8', '#eff3f2', '#dadedd', '#b1b7b6', '#828787', '#5f7274', '#415b61', '#29444e', '#183240', '#0c1920'],
};

/** Primary colours (docs/product.md §2, in its order); noir uses the surface palette (docs/product.md §2). */
export const PRIMARY_NAMES = [
  'noir',
  'emerald',
  'green',
  'lime',
  'orange',
  'amber',
  'yellow',
  'teal',
  'cyan',
  'sky',
  'blue',
  'indigo',
  'violet',
  'purple',
  'fuchsia',
  'pink',
  'rose',
] as const;
export type PrimaryName = (typeof PRIMARY_NAMES)[number];

/** Tailwind CSS 3.3 palettes of the primary colours (50…950). */
export const PRIMARY_PALETTES: Record<Exclude<PrimaryName, 'noir'>, Palette> = {
  emerald: ['#ecfdf5', '#d1fae5', '#a7f3d0', '#6ee7b7', '#34d399', '#10b981', '#059669', '#047857', '#065f46', '#064e3b', '#022c22'],
  green: ['#f0fdf4', '#dcfce7', '#bbf7d0', '#86efac', '#4ade80', '#22c55e', '#16a34a', '#15803d', '#166534', '#14532d', '#052e16'],
  lime: ['#f7fee7', '#ecfccb', '#d9f99d', '#bef264', '#a3e635', '#84cc16', '#65a30d', '#4d7c0f', '#3f6212', '#365314', '#1a2e05'],
  orange: ['#fff7ed', '#ffedd5', '#fed7aa', '#fdba74', '#fb923c', '#f97316', '#ea580c', '#c2410c', '#9a3412', '#7c2d12', '#431407'],
  amber: ['#fffbeb', '#fef3c7', '#fde68a', '#fcd34d', '#fbbf24', '#f59e0b', '#d97706', '#b45309', '#92400e', '#78350f', '#451a03'],
  yellow: ['#fefce8', '#fef9c3', '#fef08a', '#fde047', '#facc15', '#eab308', '#ca8a04', '#a16207', '#854d0e', '#713f12', '#422006'],
  teal: ['#f0fdfa', '#ccfbf1', '#99f6e4', '#5eead4', '#2dd4bf', '#14b8a6', '#0d9488', '#0f766e', '#115e59', '#134e4a', '#042f2e'],
  cyan: ['#ecfeff', '#cffafe', '#a5f3fc', '#67e8f9', '#22d3ee', '#06b6d4', '#0891b2', '#0e7490', '#155e75', '#164e63', '#083344'],
  sky: ['#f0f9ff', '#e0f2fe', '#bae6fd', '#7dd3fc', '#38bdf8', '#0ea5e9', '#0284c7', '#0369a1', '#075985', '#0c4a6e', '#082f49'],
  blue: ['#eff6ff', '#dbeafe', '#bfdbfe', '#93c5fd', '#60a5fa', '#3b82f6', '#2563eb', '#1d4ed8', '#1e40af', '#1e3a8a', '#172554'],
  indigo: ['#eef2ff', '#e0e7ff', '#c7d2fe', '#a5b4fc', '#818cf8', '#6366f1', '#4f46e5', '#4338ca', '#3730a3', '#312e81', '#1e1b4b'],
  violet: ['#f5f3ff', '#ede9fe', '#ddd6fe', '#c4b5fd', '#a78bfa', '#8b5cf6', '#7c3aed', '#6d28d9', '#5b21b6', '#4c1d95', '#2e1065'],
  purple: ['#faf5ff', '#f3e8ff', '#e9d5ff', '#d8b4fe', '#c084fc', '#a855f7', '#9333ea', '#7e22ce', '#6b21a8', '#581c87', '#3b0764'],
  fuchsia: ['#fdf4ff', '#fae8ff', '#f5d0fe', '#f0abfc', '#e879f9', '#d946ef', '#c026d3', '#a21caf', '#86198f', '#701a75', '#4a044e'],
  pink: ['#fdf2f8', '#fce7f3', '#fbcfe8', '#f9a8d4', '#f472b6', '#ec4899', '#db2777', '#be185d', '#9d174d', '#831843', '#500724'],
  rose: ['#fff1f2', '#ffe4e6', '#fecdd3', '#fda4af', '#fb7185', '#f43f5e', '#e11d48', '#be123c', '#9f1239', '#881337', '#4c0519'],
};

export const SURFACE_NAMES = ['slate', 'gray', 'zinc', 'neutral', 'stone', 'soho', 'viva', 'ocean'] as const;
export type SurfaceName = (typeof SURFACE_NAMES)[number];
export const PRESET_NAMES = ['Aura', 'Lara', 'Nora'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

/** What users see differ between presets (docs/product.md §2, from @primeuix/themes 4.3). */
export interface PresetTokens {
  transition: string;
  /**
   * Focus ring width in px: 2 in every preset (WCAG 2.2 §2.4.7 and §1.4.11, docs/decisions.md "Colour
   * contrast (WCAG 2.2 AA)"; PrimeUIX draws Aura's at 1 px and none with Lara).
   */
  focusRingWidth: number;
  focusRingOffset: number;
  formFieldPadding: string;
  contentRadius: string;
  dialogRadius: string;
  popoverRadius: string;
  menuItemPadding: string;
  /**
   * Light-mode surface shades of text, muted text, hover background and borders. Text and muted text
   * are the lightest wished shades: a darker one is taken where the surface palette needs it for
   * 4.5:1 (see {@link themeTokens}).
   */
  light: { text: Shade; muted: Shade; hover: Shade; border: Shade };
}

export const PRESETS: Record<PresetName, PresetTokens> = {
  Aura: {
    transition: '0.2s',
    focusRingWidth: 2,
    focusRingOffset: 2,
    formFieldPadding: '0.5rem 0.75rem',
    contentRadius: '6px',
    dialogRadius: '12px',
    popoverRadius: '6px',
    menuItemPadding: '0.5rem 0.75rem',
    light: { text: 700, muted: 500, hover: 100, border: 200 },
  },
  Lara: {
    transition: '0.2s',
    focusRingWidth: 2,
    focusRingOffset: 2,
    formFieldPadding: '0.625rem 0.75rem',
    contentRadius: '6px',
    dialogRadius: '12px',
    popoverRadius: '6px',
    menuItemPadding: '0.625rem 1rem',
    light: { text: 700, muted: 500, hover: 100, border: 200 },
  },
  Nora: {
    transition: '0s',
    focusRingWidth: 2,
    focusRingOffset: 2,
    formFieldPadding: '0.5rem 0.75rem',
    contentRadius: '2px',
    dialogRadius: '2px',
    popoverRadius: '2px',
    menuItemPadding: '0.5rem 0.75rem',
    light: { text: 900, muted: 600, hover: 200, border: 400 },
  },
};

const shadeIndex = (shade: Shade) => SHADES.indexOf(shade);
const pick = (palette: Palette, shade: Shade): string => palette[shadeIndex(shade)] ?? palette[5];

/** `#rrggbb` at an opacity, as rgba(). */
export function withAlpha(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

/** The surface palette in use: the chosen one, else slate in light and zinc in dark (docs/product.md §2). */
export function surfacePalette(styles: Pick<StyleSettings, 'surface' | 'darkTheme'>): Palette {
  const fallback = styles.darkTheme ? SURFACE_PALETTES.zinc : SURFACE_PALETTES.slate;
  return (styles.surface ? SURFACE_PALETTES[styles.surface] : undefined) ?? fallback!;
}

/** Tailwind CSS 3.3 red (50…950): the danger intent of status tags (success is green, warning amber). */
const RED: Palette = [
  '#fef2f2',
  '#fee2e2',
  '#fecaca',
  '#fca5a5',
  '#f87171',
  '#ef4444',
  '#dc2626',
  '#b91c1c',
  '#991b1b',
  '#7f1d1d',
  '#450a0a',
];

/** The grey Blueprint tints striped (15 %) and hovered (30 %) table rows with, light and dark (blueprint.css). */
const BLUEPRINT_TABLE_TINT = '#8f99a8';
const BLUEPRINT_TABLE_TINT_DARK = '#5f6b7c';

/** Intents of Blueprint's tags (`none`: a tag without intent). */
export const TAG_INTENTS = ['primary', 'success', 'warning', 'danger', 'none'] as const;
export type TagIntent = (typeof TAG_INTENTS)[number];

/** Colours of one tag intent: the minimal (tinted) tag and the filled one. */
export interface TagColours {
  background: string;
  text: string;
  solidBackground: string;
  solidText: string;
}

/**
 * The theme's colours by role, every one an opaque `#rrggbb` (what {@link themeVariables} writes and
 * {@link themeContrastPairs} checks).
 */
export interface ThemeTokens {
  primary: string;
  primaryHover: string;
  primaryActive: string;
  /** Text on primary, primary-hover and primary-active backgrounds (primary buttons). */
  primaryContrast: string;
  highlightBackground: string;
  highlightText: string;
  ground: string;
  card: string;
  hover: string;
  /**
   * Blueprint's striped and hovered table rows (its grey at 15 % and 30 %) over the ground and over
   * cards, as opaque colours: text, muted text and links must read on them too.
   */
  tableRows: string[];
  border: string;
  text: string;
  heading: string;
  muted: string;
  link: string;
  focusRing: string;
  tags: Record<TagIntent, TagColours>;
}

/** The palette's shades from `from` on, towards dark (`1`) or light (`-1`). */
function shadesFrom(palette: Palette, from: Shade, step: 1 | -1): string[] {
  const out: string[] = [];
  for (let i = shadeIndex(from); i >= 0 && i < palette.length; i += step) out.push(palette[i]!);
  return out;
}

/**
 * The first candidate that meets `min` against every background; if none does, the one whose worst
 * ratio is highest (never happens with the palettes above: the contrast test checks every theme).
 */
function readable(candidates: readonly string[], backgrounds: readonly string[], min: number): string {
  const worst = (c: string) => Math.min(...backgrounds.map((b) => contrastRatio(c, b)));
  return candidates.find((c) => worst(c) >= min) ?? [...candidates].sort((a, b) => worst(b) - worst(a))[0]!;
}

/** Next shade of `colour` in `palette` towards dark (`1`) or light (`-1`), or itself at the end. */
function nextShade(palette: Palette, colour: string, step: 1 | -1): string {
  const i = palette.indexOf(colour);
  return palette[i + step] ?? colour;
}

/** Minimal and filled tag colours of one intent's palette over the card background. */
function tagColours(palette: Palette, card: string, dark: boolean): TagColours {
  const background = dark ? mixHex(pick(palette, 400), card, 0.2) : pick(palette, 100);
  const text = dark
    ? readable(shadesFrom(palette, 300, -1), [background], AA_TEXT)
    : readable(shadesFrom(palette, 700, 1), [background], AA_TEXT);
  const solidBackground = readable(shadesFrom(palette, 600, 1), ['#ffffff'], AA_TEXT);
  return { background, text, solidBackground, solidText: '#ffffff' };
}

/**
 * The theme's colours (issue "Shell"; docs/product.md §2; docs/decisions.md "Colour contrast (WCAG 2.2
 * AA)"). Shades are chosen by WCAG contrast, so every preset × primary × surface × light/dark meets AA:
 * - light: the primary is the lightest shade from 500 on with white text at ≥ 4.5:1 (600 or 700 for
 *   most palettes: emerald 700), hover and active the next two darker shades; highlight 50 with the
 *   first shade from 700 on that reads on it; text, muted text and links darken from the preset's
 *   shade until they read on cards, the ground and hovered rows;
 * - dark: the primary is the first shade from 400 towards light that reads as text on cards and the
 *   ground, with dark surface text on it; hover and active the next two lighter shades; highlight
 *   is the primary at 16 % over the card (opaque), with white at 87 % over it;
 * - "noir" takes the surface palette as primary (950 in light, 50 in dark);
 * - the focus ring is the primary (or the next shade that does) at ≥ 3:1 on cards, the ground and
 *   hovered rows;
 * - status tags: tinted (minimal) and filled colours per intent, primary from the primary palette,
 *   success green, warning amber, danger red, none from the surface palette.
 * Unknown names fall back to emerald / slate.
 */
export function themeTokens(styles: StyleSettings): ThemeTokens {
  const surface = surfacePalette(styles);
  const dark = styles.darkTheme;
  const preset = PRESETS[styles.preset] ?? PRESETS.Aura;
  const noir = styles.primary === 'noir';
  const palette: Palette = noir ? surface : (PRIMARY_PALETTES[styles.primary as Exclude<PrimaryName, 'noir'>] ?? PRIMARY_PALETTES.emerald);

  const card = dark ? pick(surface, 900) : '#ffffff';
  const ground = dark ? pick(surface, 950) : pick(surface, 100);
  const hover = dark ? pick(surface, 800) : pick(surface, preset.light.hover);
  const border = dark ? pick(surface, 700) : pick(surface, preset.light.border);
  const tableTint = dark ? BLUEPRINT_TABLE_TINT_DARK : BLUEPRINT_TABLE_TINT;
  const tableRows = [ground, card].flatMap((under) => [mixHex(tableTint, under, 0.15), mixHex(tableTint, under, 0.3)]);
  const surfaces = [card, ground, hover, ...tableRows];

  let primary: string, primaryHover: string, primaryActive: string, primaryContrast: string;
  let highlightBackground: string, highlightText: string;
  if (noir) {
    primary = dark ? pick(surface, 50) : pick(surface, 950);
    primaryHover = dark ? pick(surface, 100) : pick(surface, 900);
    primaryActive = dark ? pick(surface, 200) : pick(surface, 800);
    primaryContrast = dark ? pick(surface, 950) : '#ffffff';
    highlightBackground = primary;
    highlightText = primaryContrast;
  } else if (dark) {
    primary = readable(shadesFrom(palette, 400, -1), [card, ground], AA_TEXT);
    primaryHover = nextShade(palette, primary, -1);
    primaryActive = nextShade(palette, primaryHover, -1);
    primaryContrast = readable([pick(surface, 900), pick(surface, 950), '#000000'], [primary], AA_TEXT);
    highlightBackground = mixHex(primary, card, 0.16);
    highlightText = mixHex('#ffffff', highlightBackground, 0.87);
  } else {
    primary = readable(shadesFrom(palette, 500, 1), ['#ffffff', card], AA_TEXT);
    primaryHover = nextShade(palette, primary, 1);
    primaryActive = nextShade(palette, primaryHover, 1);
    primaryContrast = '#ffffff';
    highlightBackground = pick(palette, 50);
    highlightText = readable(shadesFrom(palette, 700, 1), [highlightBackground, card], AA_TEXT);
  }
  const towardsText: 1 | -1 = dark ? -1 : 1;
  const muted = readable(shadesFrom(surface, dark ? 400 : preset.light.muted, towardsText), surfaces, AA_TEXT);
  // Text stays at least a shade darker than muted text where the palette made muted text darker.
  const textFrom = SHADES[Math.max(shadeIndex(preset.light.text), surface.indexOf(muted) + 1)] ?? 950;
  const text = dark ? '#ffffff' : readable(shadesFrom(surface, textFrom, 1), surfaces, AA_TEXT);
  const heading = dark ? '#ffffff' : pick(surface, 900);
  const fromPrimary = (p: Palette) => shadesFrom(p, SHADES[Math.max(0, p.indexOf(primary))]!, towardsText);
  const link = readable(fromPrimary(palette), noir ? surfaces : [...surfaces, highlightBackground], AA_TEXT);
  const focusRing = readable(fromPrimary(palette), [card, ground, hover], AA_NON_TEXT);
  const tags: Record<TagIntent, TagColours> = {
    primary: tagColours(palette, card, dark),
    success: tagColours(PRIMARY_PALETTES.green, card, dark),
    warning: tagColours(PRIMARY_PALETTES.amber, card, dark),
    danger: tagColours(RED, card, dark),
    none: tagColours(surface, card, dark),
  };
  return {
    primary,
    primaryHover,
    primaryActive,
    primaryContrast,
    highlightBackground,
    highlightText,
    ground,
    card,
    hover,
    tableRows,
    border,
    text,
    heading,
    muted,
    link,
    focusRing,
    tags,
  };
}

/**
 * CSS custom properties for a theme (names follow PrimeUIX's `--p-*` tokens so the original's
 * vocabulary carries over; the colours are {@link themeTokens}). `--p-link-color`,
 * `--p-heading-color` and `--p-tag-*` are Parcela's own.
 * @returns a map of variable name → value, to set on document.documentElement.
 */
export function themeVariables(styles: StyleSettings): Record<string, string> {
  const surface = surfacePalette(styles);
  const preset = PRESETS[styles.preset] ?? PRESETS.Aura;
  const noir = styles.primary === 'noir';
  const primaryPalette: Palette = noir
    ? surface
    : (PRIMARY_PALETTES[styles.primary as Exclude<PrimaryName, 'noir'>] ?? PRIMARY_PALETTES.emerald);
  const t = themeTokens(styles);

  const vars: Record<string, string> = {};
  SHADES.forEach((shade, i) => {
    vars[`--p-primary-${shade}`] = primaryPalette[i]!;
    vars[`--p-surface-${shade}`] = surface[i]!;
  });
  vars['--p-surface-0'] = '#ffffff';
  Object.assign(vars, {
    '--p-primary-color': t.primary,
    '--p-primary-hover-color': t.primaryHover,
    '--p-primary-active-color': t.primaryActive,
    '--p-primary-contrast-color': t.primaryContrast,
    '--p-highlight-background': t.highlightBackground,
    '--p-highlight-color': t.highlightText,
    '--p-ground-background': t.ground,
    '--p-content-background': t.card,
    '--p-text-color': t.text,
    '--p-heading-color': t.heading,
    '--p-text-muted-color': t.muted,
    '--p-link-color': t.link,
    '--p-content-hover-background': t.hover,
    '--p-content-border-color': t.border,
    '--p-transition-duration': preset.transition,
    '--p-focus-ring-width': `${preset.focusRingWidth}px`,
    '--p-focus-ring-offset': `${preset.focusRingOffset}px`,
    '--p-focus-ring-color': t.focusRing,
    '--p-form-field-padding': preset.formFieldPadding,
    '--p-content-border-radius': preset.contentRadius,
    '--p-dialog-border-radius': preset.dialogRadius,
    '--p-popover-border-radius': preset.popoverRadius,
    '--p-menu-item-padding': preset.menuItemPadding,
  });
  for (const intent of TAG_INTENTS) {
    const c = t.tags[intent];
    vars[`--p-tag-${intent}-background`] = c.background;
    vars[`--p-tag-${intent}-color`] = c.text;
    vars[`--p-tag-${intent}-solid-background`] = c.solidBackground;
    vars[`--p-tag-${intent}-solid-color`] = c.solidText;
  }
  return vars;
}

/** One pair of colours the theme puts together and the WCAG 2.2 AA minimum it must meet. */
export interface ContrastPair {
  /** What the pair is, in words (test messages). */
  what: string;
  foreground: string;
  background: string;
  /** 4.5 for text (§1.4.3), 3 for focus indicators (§1.4.11). */
  min: number;
}

/**
 * Every text/background and indicator/background pair of a theme, from {@link themeTokens} — the
 * same values {@link themeVariables} writes (pure; docs/decisions.md "Colour contrast (WCAG 2.2 AA)").
 * The unit test checks them for every preset × primary × surface × light/dark. Text is 4.5:1
 * (WCAG 2.2 §1.4.3: primary buttons at rest, hover and active; text, headings and muted text on
 * cards, the ground (the footer), hovered menu rows and Blueprint's striped and hovered table rows;
 * links on the same; minimal primary buttons; the highlighted
 * menu item; status tags, tinted and filled); the focus ring is 3:1 (§1.4.11) against cards, the
 * ground and hovered rows (its 2 px offset puts it on the surface, not on the control).
 */
export function themeContrastPairs(styles: StyleSettings): ContrastPair[] {
  const t = themeTokens(styles);
  const pairs: ContrastPair[] = [];
  const add = (what: string, foreground: string, backgrounds: Record<string, string>, min = AA_TEXT) => {
    for (const [where, background] of Object.entries(backgrounds)) pairs.push({ what: `${what} ${where}`, foreground, background, min });
  };
  const surfaces: Record<string, string> = { 'on cards': t.card, 'on the ground': t.ground, 'on hovered menu rows': t.hover };
  t.tableRows.forEach((row, i) => {
    surfaces[`on ${i % 2 ? 'hovered' : 'striped'} table rows ${i < 2 ? 'on the ground' : 'in cards'}`] = row;
  });
  add('primary button text', t.primaryContrast, { 'at rest': t.primary, hovered: t.primaryHover, pressed: t.primaryActive });
  add('text', t.text, surfaces);
  add('heading', t.heading, { 'on cards': t.card, 'on the ground': t.ground });
  add('muted text', t.muted, surfaces);
  add('link', t.link, surfaces);
  add('minimal primary button text', t.primary, { 'on cards': t.card });
  add('highlighted menu item', t.highlightText, { 'on its highlight': t.highlightBackground });
  for (const intent of TAG_INTENTS) {
    const c = t.tags[intent];
    add(`${intent} tag text`, c.text, { 'on its tint': c.background });
    add(`${intent} filled tag text`, c.solidText, { 'on its fill': c.solidBackground });
  }
  add('focus ring', t.focusRing, { 'on cards': t.card, 'on the ground': t.ground, 'on hovered menu rows': t.hover }, AA_NON_TEXT);
  return pairs;
}
