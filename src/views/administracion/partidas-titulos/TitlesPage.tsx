import { use, useMemo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { useSearch } from 'wouter';
import { inspectOption } from '../../../machines/inspect';
import type { TitlesMachines } from '../../../machines/administracion/titles.actors';
import { listQueryFromSearchParams } from '../../../schemas/list';
import { TITLE_STATES, TITLE_STATE_LABELS, type TitleProcess } from '../../../schemas/administracion/titles';
import { useServices } from '../../services';
import { FilterSelect } from '../../shared/FilterSelect';
import { ListStates } from '../../shared/ListStates';
import { ResourceTable, type RowAction } from '../../shared/ResourceTable';
import { ResourceToolbar } from '../../shared/ResourceToolbar';
import { useResourceList } from '../../shared/resource-hooks';
import { TITLE_COLUMNS } from './columns';
import { TitleBoard } from './TitleBoard';
import { TitleCreateDialog } from './TitleCreateDialog';
import { TitleDetailDrawer } from './TitleDetailDrawer';
import { TitleTransitionDialog } from './TitleTransitionDialog';
import '../../../styles/titles.css';

/**
 * Administración → Registros de partidas y títulos (/ADMINISTRACION/RegistrosPartidasTitulos;
 * docs/domain.md "Titles at SUNARP"): the board of processes per state (a card filters the list),
 * the list — sale, lot, titular, state, days in the state, the asiento's deadline with its warning —
 * with search, state and subdivision filters in the URL, sorting, paging and "Exportar", "Nuevo
 * trámite", a process's drawer (a row opens it) and "Cambiar estado".
 */

/** Query parameters the screen reads from the URL as filters. */
export const TITLE_FILTERS = ['state', 'subdivision_id'] as const;

export function TitlesScreen() {
  const machines = use(useServices().machines.titles());
  return <TitlesPage machines={machines} />;
}

export function TitlesPage({ machines }: { machines: TitlesMachines }) {
  const search = useSearch();
  const initialQuery = useMemo(
    () => listQueryFromSearchParams(search, { allowedFilters: TITLE_FILTERS }),
    // The URL is read once, when the screen opens; afterwards the list keeps it in sync.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const page = useActorRef(machines.page, {
    input: { list: { columns: TITLE_COLUMNS, exportName: 'tramites-de-titulos', query: initialQuery } },
    ...inspectOption(),
  });
  const list = useSelector(page, (s) => s.context.list);
  const create = useSelector(page, (s) => s.context.create);
  const detail = useSelector(page, (s) => s.context.detail);
  const transition = useSelector(page, (s) => s.context.transition);
  const subdivisions = useSelector(
    useSelector(page, (s) => s.context.subdivisions),
    (s) => s.context.value,
  );
  const board = useSelector(page, (s) => s.context.board);
  const boardLoading = useSelector(page, (s) => s.matches('loading'));
  const boardError = useSelector(page, (s) => s.context.boardError);
  const stateFilter = useResourceList(list, (s) => s.context.query.filters.state);

  const rowActions: RowAction<TitleProcess>[] = [
    { text: 'Ver detalle', icon: 'eye-open', onClick: (r) => detail.send({ type: 'detail.open', id: r.id }) },
    {
      text: 'Cambiar estado',
      icon: 'exchange',
      hidden: (r) => r.next_states.length === 0,
      onClick: (r) => transition.send({ type: 'transition.open', process: r }),
    },
  ];

  return (
    <section className="titles-page" aria-labelledby="titles-title">
      <h1 id="titles-title" className="bp6-heading titles-page-title">
        Registros de partidas y títulos
      </h1>
      <TitleBoard
        board={board}
        loading={boardLoading}
        error={boardError}
        selected={stateFilter}
        onSelect={(state) => page.send({ type: 'board.select', state })}
        onRetry={() => page.send({ type: 'board.retry' })}
      />
      <ResourceToolbar
        list={list}
        onNew={() => create.send({ type: 'create.open' })}
        newLabel="Nuevo trámite"
        filters={
          <>
            <FilterSelect
              list={list}
              field="state"
              label="Estado"
              allLabel="Todos los estados"
              options={TITLE_STATES.map((s) => ({ value: s, label: TITLE_STATE_LABELS[s] }))}
            />
            <FilterSelect
              list={list}
              field="subdivision_id"
              label="Lotización"
              allLabel="Todas las lotizaciones"
              options={subdivisions.map((s) => ({ value: String(s.id), label: s.name }))}
            />
          </>
        }
      />
      <ResourceTable<TitleProcess>
        list={list}
        columns={TITLE_COLUMNS}
        rowKey={(r) => r.id}
        caption="Trámites de títulos"
        rowActions={rowActions}
        onRowOpen={(r) => detail.send({ type: 'detail.open', id: r.id })}
      />
      <ListStates list={list} />
      <TitleCreateDialog actor={create} />
      <TitleDetailDrawer actor={detail} onMove={(p) => transition.send({ type: 'transition.open', process: p })} />
      <TitleTransitionDialog actor={transition} />
    </section>
  );
}
