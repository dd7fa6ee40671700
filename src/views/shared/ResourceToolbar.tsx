import '../../styles/resource.css';
import type { ReactNode } from 'react';
import { Button, Callout, InputGroup, Menu, MenuItem, Navbar, NavbarGroup, PopoverNext } from '@blueprintjs/core';
import { useResourceList, useResourceListEvents, type ResourceListRef } from './resource-hooks';

/**
 * The bar above a CRUD list (issue "Configuración", the CRUD pattern): "Buscar…" (each keystroke
 * is `list.searchTyped`; the machine waits 300 ms), a slot for the screen's filters, the export
 * menu ("Exportar a Excel" / "Exportar a CSV" of the current view, loading while it runs) and
 * "Nuevo" when the screen passes `onNew` (leave it out when the user may not create).
 */
export function ResourceToolbar<Row>({
  list,
  filters,
  onNew,
  newLabel = 'Nuevo',
  canExport = true,
  extraActions,
}: {
  list: ResourceListRef<Row>;
  /** The screen's filter controls (each sends `list.filterChanged`). */
  filters?: ReactNode;
  onNew?: () => void;
  newLabel?: string;
  canExport?: boolean;
  /** More buttons beside "Nuevo" (e.g. "Importar"). */
  extraActions?: ReactNode;
}) {
  const searchText = useResourceList(list, (s) => s.context.searchText);
  const exporting = useResourceList(list, (s) => s.matches({ export: 'exporting' }));
  const exportError = useResourceList(list, (s) => s.context.exportError);
  const { typeSearch, exportAs } = useResourceListEvents(list);

  return (
    <div className="resource-toolbar">
      <Navbar className="resource-toolbar-bar">
        <NavbarGroup align="left" className="resource-toolbar-left">
          <InputGroup
            type="search"
            leftIcon="search"
            placeholder="Buscar…"
            aria-label="Buscar"
            value={searchText}
            onValueChange={typeSearch}
          />
          {filters}
        </NavbarGroup>
        <NavbarGroup align="right" className="resource-toolbar-right">
          {canExport ? (
            <PopoverNext
              placement="bottom-end"
              disabled={exporting}
              content={
                <Menu>
                  <MenuItem icon="th" text="Exportar a Excel" onClick={() => exportAs('xlsx')} />
                  <MenuItem icon="document" text="Exportar a CSV" onClick={() => exportAs('csv')} />
                </Menu>
              }
            >
              <Button icon="export" text="Exportar" endIcon="caret-down" loading={exporting} />
            </PopoverNext>
          ) : null}
          {extraActions}
          {onNew ? <Button icon="plus" intent="primary" text={newLabel} onClick={onNew} /> : null}
        </NavbarGroup>
      </Navbar>
      {exportError ? (
        <Callout intent="danger" compact className="resource-toolbar-error">
          {exportError}
        </Callout>
      ) : null}
    </div>
  );
}
