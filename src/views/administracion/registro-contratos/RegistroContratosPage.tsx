import '../../../styles/contracts.css';
import { use, useEffect, useMemo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { useSearch } from 'wouter';
import { inspectOption } from '../../../machines/inspect';
import type { ContractsMachines } from '../../../machines/administracion/contracts.actors';
import { listQueryFromSearchParams } from '../../../schemas/list';
import type { Contract } from '../../../schemas/administracion/contracts';
import { ListStates } from '../../shared/ListStates';
import { ResourceTable, type RowAction } from '../../shared/ResourceTable';
import { ResourceToolbar } from '../../shared/ResourceToolbar';
import { useResourceListEvents } from '../../shared/resource-hooks';
import { useServices } from '../../services';
import { contractColumns } from './columns';
import { ContractDrawer } from './ContractDrawer';
import { CONTRACT_FILTERS, ContractFilters } from './ContractFilters';

/** Administración → Registro de Contratos (docs/decisions.md "Registro de Contratos"). */
export function RegistroContratosScreen() {
  const machines = use(useServices().machines.contracts());
  return <RegistroContratosPage machines={machines} />;
}

/** Every contract with filters, the signature-overdue tag, the drawer (history, scan, annul) and the Excel export. */
export function RegistroContratosPage({ machines }: { machines: Pick<ContractsMachines, 'list' | 'detail' | 'subdivisions'> }) {
  const { today } = useServices();
  const search = useSearch();
  const columns = useMemo(() => contractColumns(today()), [today]);
  const initialQuery = useMemo(
    () => {
      const parsed = listQueryFromSearchParams(search, { allowedFilters: CONTRACT_FILTERS });
      return { ...parsed, sort: parsed.sort ?? '-created_at' };
    },
    // The URL is read once, when the screen opens; afterwards the list keeps it in sync.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const list = useActorRef(machines.list, {
    input: { columns, exportName: 'registro-contratos', query: initialQuery },
    ...inspectOption(),
  });
  const detail = useActorRef(machines.detail, inspectOption());
  const subdivisions = useSelector(useActorRef(machines.subdivisions, inspectOption()), (s) => s.context.value);
  const { refresh } = useResourceListEvents(list);
  // A contract signed or annulled in the drawer: the list shows it as it is now.
  useEffect(() => {
    const subscription = detail.on('changed', () => refresh());
    return () => subscription.unsubscribe();
  }, [detail, refresh]);
  const rowActions: RowAction<Contract>[] = [
    { text: 'Ver', icon: 'eye-open', onClick: (c) => detail.send({ type: 'detail.open', id: c.id }) },
  ];
  return (
    <section className="comercio-page" aria-labelledby="registro-contratos-title">
      <h1 id="registro-contratos-title" className="bp6-heading comercio-page-title">
        Registro de Contratos
      </h1>
      <ResourceToolbar list={list} filters={<ContractFilters list={list} subdivisions={subdivisions} />} />
      <ResourceTable<Contract> list={list} columns={columns} rowKey={(c) => c.id} caption="Contratos" rowActions={rowActions} />
      <ListStates list={list} />
      <ContractDrawer actor={detail} today={today()} />
    </section>
  );
}
