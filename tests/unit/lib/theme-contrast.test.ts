/**
 * Colour contrast of the theme (docs/decisions.md "Colour contrast (WCAG 2.2 AA)"): every pair of
 * colours the theme puts together — primary button text on its background (rest, hover, active),
 * text, headings and muted text on cards, the ground and hovered rows, the footer, links, the
 * highlighted menu item, status tags, the focus ring against the surfaces — for every preset ×
 * primary colour × surface × light/dark, at WCAG 2.2 AA: 4.5:1 for text (§1.4.3), 3:1 for focus
 * indicators (§1.4.11). The ratio is computed here with the formula of the standard, apart from the
 * one the theme uses to pick its shades (src/lib/contrast.ts), so the check does not trust the code
 * it checks.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  PRESET_NAMES,
  PRIMARY_NAMES,
  SURFACE_NAMES,
  themeContrastPairs,
  themeTokens,
  themeVariables,
  type ContrastPair,
} from '../../../src/lib/theme';
import { DEFAULT_STYLES, type StyleSettings } from '../../../src/schemas/session';
import { LOT_STATUS_COLOR, lotStatusTextColor } from '../../../src/views/proyectos/lot-status';
import { LOT_STATUSES } from '../../../src/schemas/proyectos/projects';

/**
 * WCAG 2.2 contrast ratio of two `#rrggbb` colours: (L1 + 0.05) / (L2 + 0.05) with L the relative
 * luminance (sRGB channels linearised: c/12.92 up to 0.04045, else ((c + 0.055)/1.055)^2.4;
 * L = 0.2126 R + 0.7152 G + 0.0722 B). WCAG 2.2 §1.4.3 and §1.4.11, "contrast ratio" and
 * "relative luminance" in the glossary. NaN unless both are opaque `#rrggbb`.
 */
function wcagContrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    if (!/^#[0-9a-f]{6}$/i.test(hex)) return Number.NaN; // not an opaque colour: fails every check
    const [r, g, b] = [1, 3, 5].map((i) => {
      const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const every: StyleSettings[] = PRESET_NAMES.flatMap((preset) =>
  PRIMARY_NAMES.flatMap((primary) =>
    [null, ...SURFACE_NAMES].flatMap((surface) =>
      [false, true].map((darkTheme) => ({ ...DEFAULT_STYLES, preset, primary, surface, darkTheme })),
    ),
  ),
);

const label = (s: StyleSettings) => `${s.preset}/${s.primary}/${s.surface ?? 'default'}/${s.darkTheme ? 'dark' : 'light'}`;

describe('theme colour contrast, WCAG 2.2 AA (docs/decisions.md "Colour contrast (WCAG 2.2 AA)")', () => {
  it('the formula matches known ratios (white/black 21:1, #767676 on white 4.54:1)', () => {
    expect(wcagContrast('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(wcagContrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(wcagContrast('#10b981', '#ffffff')).toBeCloseTo(2.54, 2);
  });

  it('every pair of every preset × primary × surface × light/dark meets its minimum', () => {
    const failures: string[] = [];
    let checked = 0;
    for (const styles of every) {
      for (const pair of themeContrastPairs(styles)) {
        checked++;
        const ratio = wcagContrast(pair.foreground, pair.background);
        if (!(ratio >= pair.min)) {
          failures.push(`${label(styles)} ${pair.what}: ${pair.foreground} on ${pair.background} = ${ratio.toFixed(2)} < ${pair.min}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(every.length * 10);
    expect(failures.slice(0, 40), `${failures.length} pairs below WCAG AA`).toEqual([]);
  });

  it('the pairs are the colours the CSS variables carry', () => {
    for (const styles of [DEFAULT_STYLES, { ...DEFAULT_STYLES, primary: 'yellow', surface: 'soho', darkTheme: true }]) {
      const vars = Object.values(themeVariables(styles));
      // Table rows are Blueprint's own tint over the ground or a card, not a variable of ours.
      const backgrounds = [...vars, ...themeTokens(styles).tableRows];
      const pairs: ContrastPair[] = themeContrastPairs(styles);
      for (const pair of pairs) {
        expect(vars).toContain(pair.foreground);
        expect(backgrounds).toContain(pair.background);
      }
    }
  });

  it("the stylesheets' fallbacks (pages before the theme is applied: login, landing) are the default theme's values", () => {
    const vars = themeVariables(DEFAULT_STYLES);
    const root = path.resolve(import.meta.dirname, '../../..');
    let checked = 0;
    for (const file of ['src/styles/theme.css', 'src/styles/app.css', 'src/styles/shell.css']) {
      const css = readFileSync(path.join(root, file), 'utf8');
      for (const [, name, fallback] of css.matchAll(/var\((--p-[a-z0-9-]+),\s*([^)]+)\)/g)) {
        expect(vars[name!], `${file}: ${name}`).toBe(fallback!.trim());
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('lot status tags (src/views/proyectos/lot-status.ts) read at 4.5:1 on their status colour', () => {
    for (const status of LOT_STATUSES) {
      const ratio = wcagContrast(lotStatusTextColor(status), LOT_STATUS_COLOR[status]);
      expect(ratio, status).toBeGreaterThanOrEqual(4.5);
    }
  });
});
