import { Button, Icon, SegmentedControl } from '@blueprintjs/core';
import { Drawer } from '../shared/BlueprintEs';
import {
  PRESET_NAMES,
  PRIMARY_NAMES,
  PRIMARY_PALETTES,
  SURFACE_NAMES,
  SURFACE_PALETTES,
  type PresetName,
  type PrimaryName,
  type SurfaceName,
} from '../../lib/theme';
import type { StyleSettings } from '../../schemas/session';
import { useTheme, useThemeEvents } from './shell-context';

/** Title of the config sidebar. */
export const THEME_CONFIGURATOR_TITLE = 'Configuración del tema';

/** Menu mode options in Spanish (docs/product.md §2: Fijo = static, Sobreponer = overlay). */
const MENU_MODES: readonly { value: StyleSettings['menuMode']; label: string }[] = [
  { value: 'static', label: 'Fijo' },
  { value: 'overlay', label: 'Sobreponer' },
];

/**
 * Spanish names of the swatches, their accessible names and tooltips (the palette codes of
 * docs/product.md §2 stay the stored values; docs/decisions.md "Accessible names and ARIA references").
 */
export const PRIMARY_LABELS: Readonly<Record<PrimaryName, string>> = {
  noir: 'Negro',
  emerald: 'Esmeralda',
  green: 'Verde',
  lime: 'Lima',
  orange: 'Naranja',
  amber: 'Ámbar',
  yellow: 'Amarillo',
  teal: 'Verde azulado',
  cyan: 'Cian',
  sky: 'Celeste',
  blue: 'Azul',
  indigo: 'Índigo',
  violet: 'Violeta',
  purple: 'Púrpura',
  fuchsia: 'Fucsia',
  pink: 'Rosa',
  rose: 'Rosa rojizo',
};
export const SURFACE_LABELS: Readonly<Record<SurfaceName, string>> = {
  slate: 'Pizarra',
  gray: 'Gris',
  zinc: 'Cinc',
  neutral: 'Neutro',
  stone: 'Piedra',
  soho: 'Soho',
  viva: 'Viva',
  ocean: 'Océano',
};

/** The colour a primary swatch shows: shade 500 (noir: black). */
function primarySwatch(name: string): string {
  if (name === 'noir') return '#020617';
  return PRIMARY_PALETTES[name as keyof typeof PRIMARY_PALETTES][5];
}

/**
 * The theme configurator, the "config sidebar" (docs/product.md §2 "Theme configurator", §8; docs/product.md §2
 * "Presets"): a drawer from the right with the primary colour swatches (the 17 names, noir first),
 * the surface swatches (the 8 palettes), the preset (Aura / Lara / Nora), the menu mode ("Fijo" /
 * "Sobreponer") and "Guardar". Each choice is applied at once by the theme machine; "Guardar" saves
 * (staff) and closes.
 */
export function ThemeConfigurator() {
  const open = useTheme((s) => s.matches({ configurator: 'open' }));
  const saving = useTheme((s) => s.matches({ persistence: 'savingFromConfigurator' }));
  const styles = useTheme((s) => s.context.styles);
  const events = useThemeEvents();

  return (
    <Drawer isOpen={open} onClose={events.closeConfigurator} position="right" size="22rem" className="theme-configurator">
      <div className="theme-configurator-inner" role="dialog" aria-modal="true" aria-labelledby="theme-configurator-title">
        <header className="theme-configurator-header">
          <Icon icon="color-fill" aria-hidden="true" />
          <h2 id="theme-configurator-title">{THEME_CONFIGURATOR_TITLE}</h2>
          <Button variant="minimal" icon="cross" aria-label="Cerrar" onClick={events.closeConfigurator} />
        </header>
        <div className="theme-configurator-body">
          <section aria-labelledby="theme-primary-title" className="theme-configurator-section">
            <h3 id="theme-primary-title">Color primario</h3>
            <div className="theme-swatches" role="group" aria-labelledby="theme-primary-title">
              {PRIMARY_NAMES.map((name) => (
                <button
                  key={name}
                  type="button"
                  className={['theme-swatch', styles.primary === name ? 'is-selected' : null].filter(Boolean).join(' ')}
                  style={{ backgroundColor: primarySwatch(name) }}
                  title={PRIMARY_LABELS[name]}
                  aria-label={PRIMARY_LABELS[name]}
                  aria-pressed={styles.primary === name}
                  onClick={() => events.choosePrimary(name)}
                />
              ))}
            </div>
          </section>
          <section aria-labelledby="theme-surface-title" className="theme-configurator-section">
            <h3 id="theme-surface-title">Superficie</h3>
            <div className="theme-swatches" role="group" aria-labelledby="theme-surface-title">
              {SURFACE_NAMES.map((name) => (
                <button
                  key={name}
                  type="button"
                  className={['theme-swatch', styles.surface === name ? 'is-selected' : null].filter(Boolean).join(' ')}
                  style={{ backgroundColor: SURFACE_PALETTES[name]![5] }}
                  title={SURFACE_LABELS[name]}
                  aria-label={SURFACE_LABELS[name]}
                  aria-pressed={styles.surface === name}
                  onClick={() => events.chooseSurface(name)}
                />
              ))}
            </div>
          </section>
          <section aria-labelledby="theme-preset-title" className="theme-configurator-section">
            <h3 id="theme-preset-title">Estilo</h3>
            <SegmentedControl
              aria-labelledby="theme-preset-title"
              fill
              intent="primary"
              value={styles.preset}
              options={PRESET_NAMES.map((name) => ({ value: name, label: name }))}
              onValueChange={(value) => events.choosePreset(value as PresetName)}
            />
          </section>
          <section aria-labelledby="theme-menu-mode-title" className="theme-configurator-section">
            <h3 id="theme-menu-mode-title">Modo de menú</h3>
            <SegmentedControl
              aria-labelledby="theme-menu-mode-title"
              fill
              intent="primary"
              value={styles.menuMode}
              options={MENU_MODES.map(({ value, label }) => ({ value, label }))}
              onValueChange={(value) => events.chooseMenuMode(value as StyleSettings['menuMode'])}
            />
          </section>
        </div>
        <footer className="theme-configurator-footer">
          <Button intent="primary" icon="floppy-disk" text="Guardar" fill loading={saving} onClick={events.save} />
        </footer>
      </div>
    </Drawer>
  );
}
