/**
 * Theme data and CSS variables of the theme configurator (issue "Shell"; docs/product.md §2 "Theme
 * configurator", §3 layoutConfig, §9 defaults; docs/product.md §2). Pure functions: the
 * theme machine decides, a view applies the variables to <html> over Blueprint's own theme.
 */
import type { StyleSettings } from '../schemas/session';

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
  /** Focus ring width in px (0: no ring). */
  focusRingWidth: number;
  focusRingOffset: number;
  formFieldPadding: string;
  contentRadius: string;
  dialogRadius: string;
  popoverRadius: string;
  menuItemPadding: string;
  /** Light-mode surface shades of text, muted text, hover background and borders. */
  light: { text: Shade; muted: Shade; hover: Shade; border: Shade };
}

export const PRESETS: Record<PresetName, PresetTokens> = {
  Aura: {
    transition: '0.2s',
    focusRingWidth: 1,
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
    focusRingWidth: 0,
    focusRingOffset: 0,
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

/**
 * CSS custom properties for a theme (names follow PrimeUIX's `--p-*` tokens so the original's
 * vocabulary carries over). Light: primary 500 / hover 600 / active 700, highlight 50 on 700.
 * Dark: primary 400 / hover 300 / active 200, highlight primary 400 at 16 %. "noir" takes the
 * surface palette as primary (950 in light, 50 in dark). Unknown names fall back to emerald / slate.
 * @returns a map of variable name → value, to set on document.documentElement.
 */
export function themeVariables(styles: StyleSettings): Record<string, string> {
  const surface = surfacePalette(styles);
  const dark = styles.darkTheme;
  const preset = PRESETS[styles.preset] ?? PRESETS.Aura;
  const noir = styles.primary === 'noir';
  const primaryPalette: Palette = noir
    ? surface
    : (PRIMARY_PALETTES[styles.primary as Exclude<PrimaryName, 'noir'>] ?? PRIMARY_PALETTES.emerald);

  const vars: Record<string, string> = {};
  SHADES.forEach((shade, i) => {
    vars[`--p-primary-${shade}`] = primaryPalette[i]!;
    vars[`--p-surface-${shade}`] = surface[i]!;
  });
  vars['--p-surface-0'] = '#ffffff';

  let primary: string, hover: string, active: string, contrast: string, highlightBg: string, highlightText: string;
  if (noir) {
    primary = dark ? pick(surface, 50) : pick(surface, 950);
    hover = dark ? pick(surface, 100) : pick(surface, 900);
    active = dark ? pick(surface, 200) : pick(surface, 800);
    contrast = dark ? pick(surface, 950) : '#ffffff';
    highlightBg = dark ? pick(surface, 50) : pick(surface, 950);
    highlightText = dark ? pick(surface, 950) : '#ffffff';
  } else if (dark) {
    primary = pick(primaryPalette, 400);
    hover = pick(primaryPalette, 300);
    active = pick(primaryPalette, 200);
    contrast = pick(surface, 900);
    highlightBg = withAlpha(pick(primaryPalette, 400), 0.16);
    highlightText = 'rgba(255, 255, 255, 0.87)';
  } else {
    primary = pick(primaryPalette, 500);
    hover = pick(primaryPalette, 600);
    active = pick(primaryPalette, 700);
    contrast = '#ffffff';
    highlightBg = pick(primaryPalette, 50);
    highlightText = pick(primaryPalette, 700);
  }
  Object.assign(vars, {
    '--p-primary-color': primary,
    '--p-primary-hover-color': hover,
    '--p-primary-active-color': active,
    '--p-primary-contrast-color': contrast,
    '--p-highlight-background': highlightBg,
    '--p-highlight-color': highlightText,
    '--p-ground-background': dark ? pick(surface, 950) : pick(surface, 100),
    '--p-content-background': dark ? pick(surface, 900) : '#ffffff',
    '--p-text-color': dark ? '#ffffff' : pick(surface, preset.light.text),
    '--p-text-muted-color': dark ? pick(surface, 400) : pick(surface, preset.light.muted),
    '--p-content-hover-background': dark ? pick(surface, 800) : pick(surface, preset.light.hover),
    '--p-content-border-color': dark ? pick(surface, 700) : pick(surface, preset.light.border),
    '--p-transition-duration': preset.transition,
    '--p-focus-ring-width': `${preset.focusRingWidth}px`,
    '--p-focus-ring-offset': `${preset.focusRingOffset}px`,
    '--p-focus-ring-color': preset.focusRingWidth > 0 ? primary : 'transparent',
    '--p-form-field-padding': preset.formFieldPadding,
    '--p-content-border-radius': preset.contentRadius,
    '--p-dialog-border-radius': preset.dialogRadius,
    '--p-popover-border-radius': preset.popoverRadius,
    '--p-menu-item-padding': preset.menuItemPadding,
  });
  return vars;
}
