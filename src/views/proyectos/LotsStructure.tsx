import { Button, Callout, EditableText, HTMLSelect, HTMLTable, InputGroup } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
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
      {error} <Button variant="minimal" size="small" icon="cross" aria-label="Cerrar" onClick={() => actor.send({ type: 'structure.dismissError' })} />
    </Callout>
  );
}

export function StagesPanel({ actor }: { actor: DetailRef }) {
  const { stages, busy, save } = useStructure(actor);
  return (
    <div className="structure-panel">
      <StructureError actor={actor} />
      <form
        className="structure-add"
        onSubmit={(e) => {
          const name = takeName(e);
          if (name) save({ kind: 'createStage', name });
        }}
      >
        <InputGroup name="name" placeholder="Nueva etapa" aria-label="Nombre de la nueva etapa" disabled={busy} />
        <Button type="submit" icon="plus" text="Agregar etapa" disabled={busy} />
      </form>
      <HTMLTable compact striped aria-label="Etapas">
        <thead>
          <tr>
            <th>Etapa</th>
            <th aria-label="Acciones" />
          </tr>
        </thead>
        <tbody>
          {stages.map((st) => (
            <tr key={st.id}>
              <td>
                <EditableText
                  defaultValue={st.name}
                  disabled={busy}
                  onConfirm={(name) => name.trim() && name.trim() !== st.name && save({ kind: 'renameStage', id: st.id, name: name.trim() })}
                />
              </td>
              <td>
                <Button variant="minimal" size="small" icon="trash" intent="danger" aria-label={`Eliminar ${st.name}`} disabled={busy} onClick={() => save({ kind: 'deleteStage', id: st.id })} />
              </td>
            </tr>
          ))}
          {stages.length === 0 ? (
            <tr>
              <td colSpan={2} className="bp6-text-muted">
                Sin etapas
              </td>
            </tr>
          ) : null}
        </tbody>
      </HTMLTable>
    </div>
  );
}

export function BlocksPanel({ actor }: { actor: DetailRef }) {
  const { stages, blocks, busy, save } = useStructure(actor);
  const stageOptions = [{ value: '', label: 'Sin etapa' }, ...stages.map((s) => ({ value: String(s.id), label: s.name }))];
  return (
    <div className="structure-panel">
      <StructureError actor={actor} />
      <form
        className="structure-add"
        onSubmit={(e) => {
          const stageSelect = e.currentTarget.elements.namedItem('stage') as HTMLSelectElement;
          const stage = stageSelect.value;
          const name = takeName(e);
          if (name) save({ kind: 'createBlock', name, stage_id: stage ? Number(stage) : null });
        }}
      >
        <InputGroup name="name" placeholder="Nueva manzana" aria-label="Nombre de la nueva manzana" disabled={busy} />
        <HTMLSelect name="stage" aria-label="Etapa de la nueva manzana" options={stageOptions} disabled={busy} />
        <Button type="submit" icon="plus" text="Agregar manzana" disabled={busy} />
      </form>
      <HTMLTable compact striped aria-label="Manzanas">
        <thead>
          <tr>
            <th>Manzana</th>
            <th>Etapa</th>
            <th>Lotes</th>
            <th aria-label="Acciones" />
          </tr>
        </thead>
        <tbody>
          {blocks.map((b) => (
            <tr key={b.id}>
              <td>
                <EditableText
                  defaultValue={b.name}
                  disabled={busy}
                  onConfirm={(name) => name.trim() && name.trim().toUpperCase() !== b.name && save({ kind: 'updateBlock', id: b.id, name: name.trim() })}
                />
              </td>
              <td>
                <HTMLSelect
                  aria-label={`Etapa de la manzana ${b.name}`}
                  value={b.stage_id === null ? '' : String(b.stage_id)}
                  options={stageOptions}
                  disabled={busy}
                  onChange={(e) => save({ kind: 'updateBlock', id: b.id, stage_id: e.target.value ? Number(e.target.value) : null })}
                />
              </td>
              <td>{b.lots_count}</td>
              <td>
                <Button
                  variant="minimal"
                  size="small"
                  icon="trash"
                  intent="danger"
                  aria-label={`Eliminar manzana ${b.name}`}
                  disabled={busy || b.lots_count > 0}
                  title={b.lots_count > 0 ? 'Tiene lotes' : undefined}
                  onClick={() => save({ kind: 'deleteBlock', id: b.id })}
                />
              </td>
            </tr>
          ))}
          {blocks.length === 0 ? (
            <tr>
              <td colSpan={4} className="bp6-text-muted">
                Sin manzanas
              </td>
            </tr>
          ) : null}
        </tbody>
      </HTMLTable>
    </div>
  );
}
