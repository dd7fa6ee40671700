import { Suspense, use, useMemo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { Spinner, Tab, Tabs } from '@blueprintjs/core';
import { useSearch } from 'wouter';
import { listQueryFromSearchParams } from '../../../schemas/list';
import type { ContractTemplatesMachines } from '../../../machines/administracion/contract-templates.actors';
import type { GenerarContratoTab } from '../../../machines/administracion/contract-templates-page.machine';
import { inspectOption } from '../../../machines/inspect';
import { OutsideTabPanel } from '../../shared/BlueprintEs';
import { useServices } from '../../services';
import { TEMPLATE_COLUMNS, TEMPLATE_FILTERS, TemplatesTab } from './TemplatesTab';
import { GenerateContractPanel, saleIdFromSearch } from './generar/GenerateContractPanel';
import '../../../styles/contract-templates.css';

const TABS_ID = 'generar-contrato-tabs';

/** /ADMINISTRACION/GenerarContrato (screen table entry `generarContrato`): the screen's machines read once, then the page. */
export function GenerarContratoScreen() {
  const machines = use(useServices().machines.contractTemplates());
  return <GenerarContratoPage machines={machines} />;
}

/**
 * Administración → Generar Contrato: tab "Plantillas" (the contract templates of each subdivision
 * and kind, their versions and the editor) and tab "Generar" (a sale's contract: draft, preview,
 * missing values, issue, signed scan — GenerateContractPanel).
 * The page machine owns the tab, the list, "Nueva plantilla" and the editor.
 */
export function GenerarContratoPage({ machines }: { machines: ContractTemplatesMachines }) {
  const search = useSearch();
  const initialQuery = useMemo(
    () => {
      // The parser always sets `sort` (undefined when the address has none): the list's own order is by name.
      const query = listQueryFromSearchParams(search, { allowedFilters: TEMPLATE_FILTERS });
      return { ...query, sort: query.sort ?? 'name' };
    },
    // The URL is read once, when the screen opens; afterwards the list keeps it in sync.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  // A link naming a sale (?venta=, from Ventas or the sale stepper) opens the "Generar" tab on that
  // sale. Read once, with the list's query: the templates list writes its own query to the address
  // as soon as it loads, before the lazily loaded panel would read it.
  const linkedSaleId = useMemo(
    () => saleIdFromSearch(search),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const page = useActorRef(machines.page, {
    input: {
      list: { columns: TEMPLATE_COLUMNS, exportName: 'plantillas-contrato', query: initialQuery },
      tab: linkedSaleId !== null ? 'generar' : 'plantillas',
    },
    ...inspectOption(),
  });
  const tab = useSelector(page, (s) => s.context.tab);
  return (
    <section className="templates-page" aria-labelledby="generar-contrato-title">
      <h1 id="generar-contrato-title" className="bp6-heading templates-page-title">
        Generar Contrato
      </h1>
      <Tabs id={TABS_ID} selectedTabId={tab} onChange={(id) => page.send({ type: 'page.tabChanged', tab: id as GenerarContratoTab })}>
        <Tab id="plantillas" title="Plantillas" />
        <Tab id="generar" title="Generar" />
      </Tabs>
      <OutsideTabPanel tabsId={TABS_ID} selectedTabId={tab}>
        {tab === 'plantillas' ? (
          <TemplatesTab page={page} />
        ) : (
          <Suspense fallback={<Spinner aria-label="Cargando" />}>
            <GenerateContractPanel saleId={linkedSaleId} />
          </Suspense>
        )}
      </OutsideTabPanel>
    </section>
  );
}
