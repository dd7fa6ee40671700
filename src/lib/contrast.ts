/**
 * Colour contrast as WCAG 2.2 defines it (docs/decisions.md "Colour contrast (WCAG 2.2 AA)"):
 * relative luminance of sRGB colours and the contrast ratio (L1 + 0.05) / (L2 + 0.05), with the
 * AA thresholds of §1.4.3 (text 4.5:1) and §1.4.11 (large text, UI component boundaries and focus
 * indicators 3:1). The theme picks its shades with these (src/lib/theme.ts).
 */

/** WCAG 2.2 §1.4.3: normal text against its background. */
export const AA_TEXT = 4.5;
/** WCAG 2.2 §1.4.3 (large text) and §1.4.11 (UI component boundaries, focus indicators, graphics). */
export const AA_NON_TEXT = 3;

function channels(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** WCAG relative luminance of a `#rrggbb` colour (0 black … 1 white). */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two `#rrggbb` colours, 1 … 21 (order does not matter). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * `foreground` at `alpha` over an opaque `background`, as the opaque `#rrggbb` the eye sees (plain
 * sRGB compositing, what browsers do for `rgba()` over a solid colour).
 */
export function mixHex(foreground: string, background: string, alpha: number): string {
  const f = channels(foreground);
  const b = channels(background);
  return `#${f
    .map((c, i) => Math.round(c * alpha + b[i]! * (1 - alpha)))
    .map((c) => c.toString(16).padStart(2, '0'))
    .join('')}`;
}
