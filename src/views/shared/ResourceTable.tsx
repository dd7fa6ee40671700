import '../../styles/resource.css';
import { useRef, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import {
  Button,
  ButtonGroup,
  Checkbox,
  Classes,
  HTMLTable,
  Menu,
  MenuItem,
  PopoverNext,
  type IconName,
  type Intent,
} from '@blueprintjs/core';
import { nextSort, pageCount, sortDirection, type ListColumn } from '../../machines/shared/resource-list.machine';
import { useResourceList, useResourceListEvents, type ResourceListRef } from './resource-hooks';
import { ScrollRegion } from './ScrollRegion';
import { setReturnFocusTarget } from './focus-return';

/** A column of {@link ResourceTable}: the list machine's column plus how a cell renders. */
export interface TableColumn<Row> extends ListColumn<Row> {
  /** Cell content; defaults to `row[key]` as text. */
  render?: (row: Row) => ReactNode;
  /** Right-align numbers and money. */
  align?: 'left' | 'right';
}

/** One entry of a row's actions menu. */
export interface RowAction<Row> {
  text: string;
  icon?: IconName;
  intent?: Intent;
  onClick: (row: Row) => void;
  /** Hide it for some rows (a record that cannot be deleted). */
  hidden?: (row: Row) => boolean;
}

/** Header icon per sort direction. */
const SORT_ICON: Record<'ascending' | 'descending' | 'none', IconName> = {
  ascending: 'sort-asc',
  descending: 'sort-desc',
  none: 'double-caret-vertical',
};

/** Skeleton rows shown while the first page loads. */
const SKELETON_ROWS = 5;

/**
 * The list of a CRUD screen (issue "Configuración", the CRUD pattern): an accessible Blueprint
 * HTMLTable whose sortable headers are buttons (`aria-sort` on the header cell; none → ascending
 * → descending), a row actions menu ("Acciones"), a column chooser ("Columnas", a PopoverNext of
 * checkboxes), skeleton rows while loading, and server paging ("Anterior", "Página X de Y",
 * "Siguiente"). Everything it shows comes from the list machine; every click is an event.
 * Render {@link ListStates} beside it for empty, error and no-permission states.
 */
export function ResourceTable<Row>({
  list,
  columns,
  rowKey,
  rowActions = [],
  caption,
  onRowOpen,
}: {
  list: ResourceListRef<Row>;
  columns: readonly TableColumn<Row>[];
  rowKey: (row: Row) => string | number;
  rowActions?: readonly RowAction<Row>[];
  /**
   * Opens a row: a click on it (not on its buttons, links or fields) or Enter while the row has the
   * focus (rows are then in the tab order). Absent: rows are plain.
   */
  onRowOpen?: (row: Row) => void;
  /** Accessible name of the table (screen readers). */
  caption: string;
}) {
  const rows = useResourceList(list, (s) => s.context.rows);
  const loading = useResourceList(list, (s) => s.matches({ list: 'loading' }) || s.matches({ list: 'debouncing' }));
  const failed = useResourceList(list, (s) => s.matches({ list: 'failure' }));
  const query = useResourceList(list, (s) => s.context.query);
  const total = useResourceList(list, (s) => s.context.total);
  const hidden = useResourceList(list, (s) => s.context.hiddenColumns);
  const { changeSort, changePage, toggleColumn } = useResourceListEvents(list);

  const visible = columns.filter((c) => !hidden.includes(c.key));
  const pages = pageCount(total, query.per_page);
  const showSkeleton = loading && rows.length === 0;
  const hasActions = rowActions.length > 0;

  return (
    <div className="resource-table" aria-busy={loading}>
      <div className="resource-table-tools">
        <PopoverNext
          placement="bottom-end"
          content={
            <div className="resource-table-columns" role="group" aria-label="Columnas visibles">
              {columns.map((c) => (
                <Checkbox
                  key={c.key}
                  label={c.label}
                  checked={!hidden.includes(c.key)}
                  onChange={() => toggleColumn(c.key)}
                  // The last visible column cannot be hidden.
                  disabled={visible.length === 1 && !hidden.includes(c.key)}
                />
              ))}
            </div>
          }
        >
          <Button variant="minimal" icon="column-layout" text="Columnas" />
        </PopoverNext>
      </div>
      {failed ? null : (
        // The table scrolls sideways inside its own box, never the page (docs/decisions.md "No page scrolls sideways").
        <ScrollRegion className="resource-table-scroll" label={`Tabla: ${caption}`}>
          <HTMLTable className="resource-table-grid" striped interactive={!showSkeleton} compact>
            <caption className={Classes.TEXT_MUTED + ' resource-table-caption'}>{caption}</caption>
            <thead>
              <tr>
                {visible.map((c) => {
                  const direction = sortDirection(query.sort, c.key);
                  return (
                    <th
                      key={c.key}
                      scope="col"
                      aria-sort={c.sortable ? direction : undefined}
                      style={c.align === 'right' ? { textAlign: 'right' } : undefined}
                    >
                      {c.sortable ? (
                        <Button
                          variant="minimal"
                          size="small"
                          text={c.label}
                          endIcon={SORT_ICON[direction]}
                          onClick={() => changeSort(nextSort(query.sort, c.key))}
                        />
                      ) : (
                        c.label
                      )}
                    </th>
                  );
                })}
                {hasActions ? (
                  <th scope="col" className="resource-table-actions">
                    <span className={Classes.TEXT_MUTED}>Acciones</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {showSkeleton
                ? Array.from({ length: Math.min(SKELETON_ROWS, query.per_page) }, (_, i) => (
                    <tr key={`skeleton-${i}`} data-testid="skeleton-row">
                      {visible.map((c) => (
                        <td key={c.key}>
                          <span className={Classes.SKELETON}>cargando</span>
                        </td>
                      ))}
                      {hasActions ? <td className="resource-table-actions" /> : null}
                    </tr>
                  ))
                : rows.map((row) => (
                    <tr
                      key={rowKey(row)}
                      {...(onRowOpen
                        ? {
                            tabIndex: 0,
                            className: 'resource-row-openable',
                            onClick: (e: MouseEvent<HTMLTableRowElement>) => {
                              if (!(e.target as HTMLElement).closest('button, a, input, select, textarea, label')) onRowOpen(row);
                            },
                            onKeyDown: (e: KeyboardEvent<HTMLTableRowElement>) => {
                              if (e.key === 'Enter' && e.target === e.currentTarget) {
                                e.preventDefault();
                                onRowOpen(row);
                              }
                            },
                          }
                        : {})}
                    >
                      {visible.map((c) => (
                        <td key={c.key} style={c.align === 'right' ? { textAlign: 'right' } : undefined}>
                          {c.render ? c.render(row) : String((row as Record<string, unknown>)[c.key] ?? '')}
                        </td>
                      ))}
                      {hasActions ? (
                        <td className="resource-table-actions">
                          <RowActionsMenu row={row} actions={rowActions} />
                        </td>
                      ) : null}
                    </tr>
                  ))}
            </tbody>
          </HTMLTable>
        </ScrollRegion>
      )}
      {/* No "0 registros · Página 1 de 1" under the skeleton of a first load: the count is not known yet. */}
      {failed || showSkeleton || (total === 0 && !loading) ? null : (
        <nav className="resource-table-paging" aria-label="Paginación">
          <span className={Classes.TEXT_MUTED}>
            {total} {total === 1 ? 'registro' : 'registros'}
          </span>
          <ButtonGroup>
            <Button icon="chevron-left" text="Anterior" disabled={query.page <= 1 || loading} onClick={() => changePage(query.page - 1)} />
            <span className="resource-table-page" aria-live="polite">
              Página {query.page} de {pages}
            </span>
            <Button
              endIcon="chevron-right"
              text="Siguiente"
              disabled={query.page >= pages || loading}
              onClick={() => changePage(query.page + 1)}
            />
          </ButtonGroup>
        </nav>
      )}
    </div>
  );
}

/**
 * A row's "Acciones" menu. An action opens a dialog, drawer or alert that takes the focus, so the
 * closing menu must not take it back to "Acciones" a moment later (keys typed in the dialog would
 * land on the button): the menu does not return focus itself; instead the button is named as the
 * dialog's trigger (focus-return.ts), and focus comes back to it when the dialog closes
 * (docs/decisions.md "Keyboard and focus").
 */
function RowActionsMenu<Row>({ row, actions }: { row: Row; actions: readonly RowAction<Row>[] }) {
  const button = useRef<HTMLButtonElement>(null);
  return (
    <PopoverNext
      placement="bottom-end"
      shouldReturnFocusOnClose={false}
      content={
        <Menu>
          {actions
            .filter((a) => !a.hidden?.(row))
            .map((a) => (
              <MenuItem
                key={a.text}
                text={a.text}
                icon={a.icon}
                intent={a.intent}
                onClick={() => {
                  setReturnFocusTarget(button.current);
                  a.onClick(row);
                }}
              />
            ))}
        </Menu>
      }
    >
      <Button ref={button} variant="minimal" icon="more" aria-label="Acciones" />
    </PopoverNext>
  );
}
