import { Button, Callout, EditableText, HTMLTable, InputGroup } from '@blueprintjs/core';
import { HTMLSelect } from '../shared/BlueprintEs';
import { useSelector } from '@xstate/react';
import type { FormEvent, ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { StructureOp, SubdivisionDetailMachine } from '../../machines/proyectos/subdivision-detail.machine';

/**
 * Etapas and Manzanas of a subdivision (issue "Proyectos"): small lists with create, rename
 * (click the name) and delete; a block is assigned to a stage with a select. Every change is a
 * `structure.save {op}` on the subdivision-detail machine; a refusal (409 block with lots, 422
 * name) shows above the lists.
 */

type DetailRef = ActorRefFrom<SubdivisionDetailMachine>;

function useStructure(actor: DetailRef) {
  return {
    stages: useSelector(actor, (s) => s.context.stages),
    blocks: useSelector(actor, (s) => s.context.blocks),
    busy: useSelector(actor, (s) => s.matches({ structure: 'saving' }) || s.matches({ structure: 'loading' })),
    error: useSelector(actor, (s) => s.context.structureError),
    save: (op: StructureOp) => actor.send({ type: 'structure.save', op }),
  };
}

/** Reads and clears a one-field form (the text is never component state). */
function takeName(e: FormEvent<HTMLFormElement>): string {
  e.preventDefault();
  const form = e.currentTarget;
  const input = form.elements.namedItem('name') as HTMLInputElement;
  const name = input.value.trim();
  input.value = '';
  return name;
}

function StructureError({ actor }: { actor: DetailRef }) {
  const error = useSelector(actor, (s) => s.context.structureError);
  if (!error) return null;
  return (
    <Callout intent="danger" role="alert" compact>
      {error}{' '}
      <Button
        variant="minimal"
        size="small"
        icon="cross"
        aria-label="Cerrar"
        onClick={() => actor.send({ type: 'structure.dismissError' })}
      />
    </Callout>
  );
}

/** A column of a structure list besides the name and the delete button. */
interface StructureColumn<Item> {
  header: string;
  cell(item: Item): ReactNode;
}

/**
 * One structure list (Etapas or Manzanas): the refusal callout, the "add" form (a name input plus
 * `extraFields`), and a table of `items` whose names are renamed in place (click the name) and
 * deleted with the trash button; "Sin {plural}" when empty.
 * @param noun feminine singular in lower case ("etapa", "manzana") for the form's texts.
 * @param onAdd called with the trimmed, non-empty name and the form (to read `extraFields`).
 * @param onRename called with the trimmed, non-empty typed name (the caller skips unchanged names).
 * @param deleteBlocked why the item may not be deleted (button disabled, reason as its title), or undefined.
 */
function StructureList<Item extends { id: number; name: string }>(props: {
  actor: DetailRef;
  busy: boolean;
  noun: string;
  header: string;
  plural: string;
  items: readonly Item[];
  extraFields?: ReactNode;
  columns?: readonly StructureColumn<Item>[];
  onAdd(name: string, form: HTMLFormElement): void;
  onRename(item: Item, name: string): void;
  deleteLabel(item: Item): string;
  deleteBlocked?(item: Item): string | undefined;
  onDelete(item: Item): void;
}) {
  const {
    actor,
    busy,
    noun,
    header,
    plural,
    items,
    extraFields,
    columns = [],
    onAdd,
    onRename,
    deleteLabel,
    deleteBlocked,
    onDelete,
  } = props;
  return (
    <div className="structure-panel">
      <StructureError actor={actor} />
      <form
        className="structure-add"
        onSubmit={(e) => {
          const form = e.currentTarget;
          const name = takeName(e);
          if (name) onAdd(name, form);
        }}
      >
        <InputGroup name="name" placeholder={`Nueva ${noun}`} aria-label={`Nombre de la nueva ${noun}`} disabled={busy} />
        {extraFields}
        <Button type="submit" icon="plus" text={`Agregar ${noun}`} disabled={busy} />
      </form>
      <HTMLTable compact striped aria-label={plural}>
        <thead>
          <tr>
            <th>{header}</th>
            {columns.map((c) => (
              <th key={c.header}>{c.header}</th>
            ))}
            <th aria-label="Acciones" />
          </tr>
        </thead>
        <tbody>
          {items.map((item) => {
            const blocked = deleteBlocked?.(item);
            return (
              <tr key={item.id}>
                <td>
                  <EditableText defaultValue={item.name} disabled={busy} onConfirm={(name) => name.trim() && onRename(item, name.trim())} />
                </td>
                {columns.map((c) => (
                  <td key={c.header}>{c.cell(item)}</td>
                ))}
                <td>
                  <Button
                    variant="minimal"
                    size="small"
                    icon="trash"
                    intent="danger"
                    aria-label={deleteLabel(item)}
                    disabled={busy || blocked !== undefined}
                    title={blocked}
                    onClick={() => onDelete(item)}
                  />
                </td>
              </tr>
            );
          })}
          {items.length === 0 ? (
            <tr>
              <td colSpan={columns.length + 2} className="bp6-text-muted">
                Sin {plural.toLowerCase()}
              </td>
            </tr>
          ) : null}
        </tbody>
      </HTMLTable>
    </div>
  );
}

/** The Etapas tab: create, rename and delete the subdivision's stages. */
export function StagesPanel({ actor }: { actor: DetailRef }) {
  const { stages, busy, save } = useStructure(actor);
  return (
    <StructureList
      actor={actor}
      busy={busy}
      noun="etapa"
      header="Etapa"
      plural="Etapas"
      items={stages}
      onAdd={(name) => save({ kind: 'createStage', name })}
      onRename={(st, name) => name !== st.name && save({ kind: 'renameStage', id: st.id, name, version: st.version })}
      deleteLabel={(st) => `Eliminar ${st.name}`}
      onDelete={(st) => save({ kind: 'deleteStage', id: st.id })}
    />
  );
}

/**
 * The Manzanas tab: create (with an optional stage), rename, move to a stage and delete the
 * subdivision's blocks; a block with lots cannot be deleted ("Tiene lotes").
 */
export function BlocksPanel({ actor }: { actor: DetailRef }) {
  const { stages, blocks, busy, save } = useStructure(actor);
  const stageOptions = [{ value: '', label: 'Sin etapa' }, ...stages.map((s) => ({ value: String(s.id), label: s.name }))];
  return (
    <StructureList
      actor={actor}
      busy={busy}
      noun="manzana"
      header="Manzana"
      plural="Manzanas"
      items={blocks}
      extraFields={<HTMLSelect name="stage" aria-label="Etapa de la nueva manzana" options={stageOptions} disabled={busy} />}
      columns={[
        {
          header: 'Etapa',
          cell: (b) => (
            <HTMLSelect
              aria-label={`Etapa de la manzana ${b.name}`}
              value={b.stage_id === null ? '' : String(b.stage_id)}
              options={stageOptions}
              disabled={busy}
              onChange={(e) =>
                save({ kind: 'updateBlock', id: b.id, stage_id: e.target.value ? Number(e.target.value) : null, version: b.version })
              }
            />
          ),
        },
        { header: 'Lotes', cell: (b) => b.lots_count },
      ]}
      onAdd={(name, form) => {
        const stage = (form.elements.namedItem('stage') as HTMLSelectElement).value;
        save({ kind: 'createBlock', name, stage_id: stage ? Number(stage) : null });
      }}
      onRename={(b, name) => name.toUpperCase() !== b.name && save({ kind: 'updateBlock', id: b.id, name, version: b.version })}
      deleteLabel={(b) => `Eliminar manzana ${b.name}`}
      deleteBlocked={(b) => (b.lots_count > 0 ? 'Tiene lotes' : undefined)}
      onDelete={(b) => save({ kind: 'deleteBlock', id: b.id })}
    />
  );
}
