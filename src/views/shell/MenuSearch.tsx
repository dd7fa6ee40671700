import { MenuItem as BlueprintMenuItem, type IconName } from '@blueprintjs/core';
import { Suggest, type ItemRenderer } from '@blueprintjs/select';
import { t } from '../../i18n/labels';
import type { MenuItem } from '../../schemas/session';
import { useLayoutEvents, useMenuSearch, useMenuSearchEvents } from './shell-context';

/** Accessible name of the shortcut search box (e2e tests use it). */
export const MENU_SEARCH_LABEL = 'Buscar en el menú';

const renderItem: ItemRenderer<MenuItem> = (item, { handleClick, handleFocus, modifiers, ref }) => (
  <BlueprintMenuItem
    key={item.ruta}
    ref={ref}
    roleStructure="listoption"
    active={modifiers.active}
    disabled={modifiers.disabled}
    icon={item.icono as IconName}
    text={item.nombre}
    onClick={handleClick}
    onFocus={handleFocus}
  />
);

/**
 * The shortcut search box at the top of the side menu (docs/product.md §2 "Shortcut search box", §5, §9):
 * Blueprint's Suggest driven by the menu-search machine. What is typed goes to the machine, which
 * filters the submodules 250 ms after the last keystroke (blank: all of them); picking one
 * navigates to its route, clears the box and, like a link, closes an overlay or mobile menu. No
 * match: "No se encontraron resultados".
 */
export function MenuSearch() {
  const query = useMenuSearch((s) => s.context.query);
  const results = useMenuSearch((s) => s.context.results);
  const { type, pick, flush } = useMenuSearchEvents();
  const { linkChosen } = useLayoutEvents();
  return (
    <div className="layout-menu-search">
      <Suggest<MenuItem>
        fill
        items={results}
        query={query}
        onQueryChange={type}
        onItemSelect={(item) => {
          pick(item);
          // Like choosing a link: an overlay or mobile menu closes (docs/product.md §2).
          linkChosen();
        }}
        selectedItem={null}
        inputValueRenderer={(item) => item.nombre}
        itemRenderer={renderItem}
        itemsEqual={(a, b) => a.ruta === b.ruta}
        // docs/product.md §9: no submodule at all → "No hay opciones disponibles"; a query matching none →
        // "No se encontraron resultados".
        noResults={
          <BlueprintMenuItem
            disabled
            roleStructure="listoption"
            text={t(query.trim() === '' ? 'emptyOptionsMessage' : 'emptySearchMessage')}
          />
        }
        resetOnQuery
        inputProps={{
          placeholder: 'Buscar…',
          'aria-label': MENU_SEARCH_LABEL,
          leftIcon: 'search',
          type: 'search',
          size: 'large',
          // Blueprint picks the active item on Enter's key-up; filtering on key-down makes that
          // item the first match of what is typed now (the debounce is flushed).
          onKeyDown: (event) => {
            if (event.key === 'Enter') flush();
          },
        }}
        menuProps={{ 'aria-label': 'Submódulos' }}
        popoverProps={{ minimal: true, matchTargetWidth: true, popoverClassName: 'layout-menu-search-popover' }}
      />
    </div>
  );
}
