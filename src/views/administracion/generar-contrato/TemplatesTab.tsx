import { Classes, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { ContractTemplatesPageMachine } from '../../../machines/administracion/contract-templates-page.machine';
import {
  CONTRACT_KINDS,
  CONTRACT_KIND_LABELS,
  type ContractKind,
  type ContractTemplate,
} from '../../../schemas/administracion/contract-templates';
import { formatDate } from '../../../lib/dates';
import { FilterSelect } from '../../shared/FilterSelect';
import { ListStates } from '../../shared/ListStates';
import { ResourceTable, type TableColumn } from '../../shared/ResourceTable';
import { ResourceToolbar } from '../../shared/ResourceToolbar';
import { useResourceList } from '../../shared/resource-hooks';
import { NewTemplateDialog } from './NewTemplateDialog';
import { TemplateEditorPanel } from './TemplateEditorPanel';
import { TemplateStateTag } from './TemplateStateTag';

/** Query parameters of the list read from the address. */
export const TEMPLATE_FILTERS = ['subdivision_id', 'kind'] as const;

const kindLabel = (kind: string) => CONTRACT_KIND_LABELS[kind as ContractKind] ?? kind;

/** Columns of the templates' list (the latest version of each family). */
export const TEMPLATE_COLUMNS: TableColumn<ContractTemplate>[] = [
  { key: 'name', label: 'Nombre', sortable: true, render: (t) => t.name },
  { key: 'subdivision', label: 'Lotización', render: (t) => t.subdivision.name, exportValue: (t) => t.subdivision.name },
  { key: 'kind', label: 'Tipo de documento', sortable: true, render: (t) => kindLabel(t.kind), exportValue: (t) => kindLabel(t.kind) },
  { key: 'version_number', label: 'Versión', align: 'right', render: (t) => `v${t.version_number}` },
  { key: 'state', label: 'Estado', render: (t) => <TemplateStateTag state={t.state} />, exportValue: (t) => t.state },
  {
    key: 'updated_at',
    label: 'Actualizada',
    sortable: true,
    render: (t) => (t.updated_at ? formatDate(t.updated_at.slice(0, 10)) : '—'),
    exportValue: (t) => t.updated_at ?? '',
  },
];

/**
 * Tab "Plantillas": the list of templates (latest version of each subdivision and kind, filters
 * Lotización and Tipo, the state and the version number), "Nueva plantilla", and — while one is
 * open — its editor in place of the list.
 */
export function TemplatesTab({ page }: { page: ActorRefFrom<ContractTemplatesPageMachine> }) {
  const list = useSelector(page, (s) => s.context.list);
  const create = useSelector(page, (s) => s.context.create);
  const editor = useSelector(page, (s) => s.context.editor);
  const subdivisions = useSelector(
    useSelector(page, (s) => s.context.subdivisions),
    (s) => s.context.value,
  );
  const editorOpen = useSelector(editor, (s) => !s.matches('closed'));
  const filters = useResourceList(list, (s) => s.context.query.filters);

  if (editorOpen) return <TemplateEditorPanel editor={editor} />;
  return (
    <>
      <ResourceToolbar
        list={list}
        canExport={false}
        newLabel="Nueva plantilla"
        onNew={() =>
          create.send({
            type: 'create.open',
            subdivisionId: filters.subdivision_id,
            kind: (CONTRACT_KINDS as readonly string[]).includes(filters.kind ?? '') ? (filters.kind as ContractKind) : undefined,
          })
        }
        filters={
          <>
            <FilterSelect
              list={list}
              field="subdivision_id"
              label="Lotización"
              allLabel="Todas las lotizaciones"
              options={subdivisions.map((s) => ({ value: String(s.id), label: s.name }))}
            />
            <FilterSelect
              list={list}
              field="kind"
              label="Tipo de documento"
              allLabel="Todos los tipos"
              options={CONTRACT_KINDS.map((k) => ({ value: k, label: CONTRACT_KIND_LABELS[k] }))}
            />
          </>
        }
      />
      <p className={Classes.TEXT_MUTED}>
        Se muestra la última versión de cada plantilla. Solo una versión <Tag minimal>Publicada</Tag> genera contratos.
      </p>
      <ResourceTable<ContractTemplate>
        list={list}
        columns={TEMPLATE_COLUMNS}
        rowKey={(t) => t.id}
        caption="Plantillas de contrato"
        onRowOpen={(t) => editor.send({ type: 'template.open', id: t.id })}
        rowActions={[{ text: 'Abrir', icon: 'document-open', onClick: (t) => editor.send({ type: 'template.open', id: t.id }) }]}
      />
      <ListStates list={list} />
      <NewTemplateDialog actor={create} subdivisions={subdivisions} />
    </>
  );
}
