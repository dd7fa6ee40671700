import type { ReactElement } from 'react';
import { Button, NonIdealState } from '@blueprintjs/core';
import { useResourceList, useResourceListEvents, type ResourceListRef } from './resource-hooks';

/**
 * The non-ideal states of a CRUD list (issue "Configuración", the CRUD pattern), from the list
 * machine: empty ("No hay registros", with a hint when a search or filter is on), a failure with
 * its Spanish message and "Reintentar", and a 403 as "Sin permiso". Renders nothing otherwise.
 * @param emptyAction e.g. a "Nuevo" button for the empty state.
 */
export function ListStates<Row>({ list, emptyAction }: { list: ResourceListRef<Row>; emptyAction?: ReactElement }) {
  const empty = useResourceList(list, (s) => s.matches({ list: { ready: 'empty' } }));
  const failed = useResourceList(list, (s) => s.matches({ list: 'failure' }));
  const error = useResourceList(list, (s) => s.context.error);
  const status = useResourceList(list, (s) => s.context.errorStatus);
  const filtered = useResourceList(list, (s) => Boolean(s.context.query.q) || Object.keys(s.context.query.filters).length > 0);
  const { retry } = useResourceListEvents(list);

  if (failed && status === 403) {
    return <NonIdealState icon="lock" title="Sin permiso" description={error ?? 'No tiene permiso para ver esta información.'} />;
  }
  if (failed) {
    return (
      <NonIdealState
        icon="error"
        title="No se pudo cargar la lista"
        description={error ?? undefined}
        action={<Button icon="refresh" text="Reintentar" intent="primary" onClick={retry} />}
      />
    );
  }
  if (empty) {
    return (
      <NonIdealState
        icon="inbox"
        title="No hay registros"
        description={filtered ? 'Ningún registro coincide con la búsqueda o los filtros.' : undefined}
        action={filtered ? undefined : emptyAction}
      />
    );
  }
  return null;
}
