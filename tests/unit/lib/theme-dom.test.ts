/**
 * lib/theme-dom (docs/product.md §4 "dark is applied through an app-dark class on the document root … a view
 * transition is used when supported"; docs/product.md §2): CSS variables on <html>, app-dark on <html>,
 * Blueprint's bp6-dark on <body>, document.startViewTransition only when light/dark changes.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyThemeToDocument } from '../../../src/lib/theme-dom';
import { themeVariables } from '../../../src/lib/theme';
import { DEFAULT_STYLES } from '../../../src/schemas/session';

afterEach(() => {
  document.documentElement.removeAttribute('style');
  document.documentElement.classList.remove('app-dark');
  document.body.classList.remove('bp6-dark');
  Reflect.deleteProperty(document, 'startViewTransition');
});

describe('applyThemeToDocument', () => {
  it('sets every variable of themeVariables on <html>', () => {
    const styles = { ...DEFAULT_STYLES, primary: 'indigo', preset: 'Nora' as const };
    applyThemeToDocument(styles);
    for (const [name, value] of Object.entries(themeVariables(styles))) {
      expect(document.documentElement.style.getPropertyValue(name)).toBe(value);
    }
    // Indigo 500 reads at 4.47:1 under white text: the primary is indigo 600 (docs/decisions.md "Colour contrast (WCAG 2.2 AA)").
    expect(document.documentElement.style.getPropertyValue('--p-primary-color')).toBe('#4f46e5');
  });

  it('toggles app-dark on <html> and bp6-dark on <body>', () => {
    applyThemeToDocument({ ...DEFAULT_STYLES, darkTheme: true });
    expect(document.documentElement.classList.contains('app-dark')).toBe(true);
    expect(document.body.classList.contains('bp6-dark')).toBe(true);
    applyThemeToDocument(DEFAULT_STYLES);
    expect(document.documentElement.classList.contains('app-dark')).toBe(false);
    expect(document.body.classList.contains('bp6-dark')).toBe(false);
  });

  it('goes through document.startViewTransition when dark mode changes, and only then', () => {
    const startViewTransition = vi.fn((callback: () => void) => callback());
    Object.defineProperty(document, 'startViewTransition', { value: startViewTransition, configurable: true, writable: true });
    applyThemeToDocument({ ...DEFAULT_STYLES, darkTheme: true });
    expect(startViewTransition).toHaveBeenCalledTimes(1);
    expect(document.documentElement.classList.contains('app-dark')).toBe(true);
    applyThemeToDocument({ ...DEFAULT_STYLES, darkTheme: true, primary: 'rose' });
    expect(startViewTransition).toHaveBeenCalledTimes(1);
    expect(document.documentElement.style.getPropertyValue('--p-primary-color')).toBe('#fb7185');
  });
});
