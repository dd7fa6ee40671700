/**
 * The machines of Generar Contrato → Plantillas (docs/domain.md "Contract templates"): the template
 * editor (load, dirty, checks before save, save with the version, 409 stale → "Recargar", 422 per
 * field, publish with confirmation → read-only, new version, discard), "Nueva plantilla" and the
 * "@" menu's catalogue filter.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../../src/api/client';
import { templateEditorMachine, templateSaveProblems } from '../../../src/machines/administracion/template-editor.machine';
import { createBody, starterDocument, templateCreateMachine } from '../../../src/machines/administracion/template-create.machine';
import { variableSuggestionMachine, variableSuggestions } from '../../../src/machines/administracion/variable-suggestion.machine';
import {
  CONTRACT_TEMPLATE_MESSAGES,
  templateDocSchema,
  type ContractTemplate,
  type TemplateDoc,
} from '../../../src/schemas/administracion/contract-templates';
import { STALE_RECORD_MESSAGE } from '../../../src/schemas/versions';

const DOC: TemplateDoc = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Cláusula' }] }] };
const DRAFT: ContractTemplate = {
  id: 3,
  subdivision: { id: 1, name: 'Los Viñedos' },
  kind: 'COMPRAVENTA_PLAZOS',
  name: 'Plazos',
  state: 'BORRADOR',
  version_number: 1,
  content: DOC,
  published_at: null,
  published_by: null,
  version: 4,
};
const withVariable = (key: string): TemplateDoc => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'variable', attrs: { key } }] }],
});

function editor(overrides: Partial<Record<'load' | 'save' | 'publish' | 'newVersion', (input: never) => Promise<ContractTemplate>>> = {}) {
  const calls = { save: vi.fn(), publish: vi.fn(), newVersion: vi.fn() };
  const machine = templateEditorMachine.provide({
    actors: {
      load: fromPromise(async ({ input }) => (overrides.load ? overrides.load(input as never) : { ...DRAFT, id: input.id })),
      save: fromPromise(async ({ input }) => {
        calls.save(input);
        return overrides.save
          ? overrides.save(input as never)
          : { ...DRAFT, name: input.body.name, content: input.body.content, version: input.body.version + 1 };
      }),
      publish: fromPromise(async ({ input }) => {
        calls.publish(input);
        return overrides.publish ? overrides.publish(input as never) : { ...DRAFT, state: 'PUBLICADA', version: (input.version ?? 1) + 1 };
      }),
      newVersion: fromPromise(async ({ input }) => {
        calls.newVersion(input);
        return overrides.newVersion ? overrides.newVersion(input as never) : { ...DRAFT, id: 4, version_number: 2, version: 1 };
      }),
    },
  });
  const actor = createActor(machine).start();
  return { actor, calls };
}

describe('template editor machine', () => {
  it('loads a draft, marks it dirty, and saves with the version read', async () => {
    const { actor, calls } = editor();
    const changed = vi.fn();
    actor.on('changed', changed);
    actor.send({ type: 'template.open', id: 3 });
    await waitFor(actor, (s) => s.matches('editing'));
    expect(actor.getSnapshot().context.docKey).toBe(1);
    actor.send({ type: 'template.contentChanged', content: withVariable('venta.precio') });
    expect(actor.getSnapshot().context.dirty).toBe(true);
    actor.send({ type: 'template.save' });
    await waitFor(actor, (s) => s.matches('editing') && !s.context.dirty);
    expect(calls.save).toHaveBeenCalledWith({ id: 3, body: { version: 4, name: 'Plazos', content: withVariable('venta.precio') } });
    expect(actor.getSnapshot().context.template?.version).toBe(5);
    // Saving does not restart the rich-text editor.
    expect(actor.getSnapshot().context.docKey).toBe(1);
    expect(changed).toHaveBeenCalledTimes(1);
  });

  it('checks the content before saving: unknown variables and variables of another kind are listed, nothing is sent', async () => {
    const { actor, calls } = editor();
    actor.send({ type: 'template.open', id: 3 });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({
      type: 'template.contentChanged',
      content: {
        type: 'doc',
        content: [
          {
            type: 'paragraph',
            content: [
              { type: 'variable', attrs: { key: 'x.y' } },
              { type: 'variable', attrs: { key: 'separacion.monto' } },
            ],
          },
        ],
      },
    });
    actor.send({ type: 'template.nameChanged', value: '  ' });
    actor.send({ type: 'template.save' });
    expect(actor.getSnapshot().context.errors).toEqual({
      name: CONTRACT_TEMPLATE_MESSAGES.nameRequired,
      content: [CONTRACT_TEMPLATE_MESSAGES.unknownVariable('x.y'), CONTRACT_TEMPLATE_MESSAGES.variableNotForKind('separacion.monto')],
    });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(calls.save).not.toHaveBeenCalled();
  });

  it('shows the 422 per field and offers "Recargar" on a stale version', async () => {
    let answer: ApiError = new ApiError(422, 'Los datos no son válidos', { content: ['Variable desconocida: «a.b»'] });
    const { actor } = editor({
      save: async () => {
        throw answer;
      },
    });
    actor.send({ type: 'template.open', id: 3 });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'template.contentChanged', content: DOC });
    actor.send({ type: 'template.save' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.errors.content !== undefined);
    expect(actor.getSnapshot().context.errors.content).toEqual(['Variable desconocida: «a.b»']);

    answer = new ApiError(409, STALE_RECORD_MESSAGE, { version: [STALE_RECORD_MESSAGE] });
    actor.send({ type: 'template.save' });
    await waitFor(actor, (s) => s.matches('stale'));
    expect(actor.getSnapshot().context.error).toBe(STALE_RECORD_MESSAGE);
    actor.send({ type: 'template.reload' });
    await waitFor(actor, (s) => s.matches('editing'));
    expect(actor.getSnapshot().context).toMatchObject({ dirty: false, docKey: 2, error: null });
  });

  it('publishes only after confirming and nothing unsaved, then is read-only; a new version opens the next draft', async () => {
    const { actor, calls } = editor();
    actor.send({ type: 'template.open', id: 3 });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'template.contentChanged', content: DOC });
    actor.send({ type: 'template.publish' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    actor.send({ type: 'template.save' });
    await waitFor(actor, (s) => s.matches('editing') && !s.context.dirty);
    actor.send({ type: 'template.publish' });
    expect(actor.getSnapshot().matches('confirmingPublish')).toBe(true);
    actor.send({ type: 'template.cancelPublish' });
    actor.send({ type: 'template.publish' });
    actor.send({ type: 'template.confirmPublish' });
    await waitFor(actor, (s) => s.matches('readOnly'));
    expect(calls.publish).toHaveBeenCalledWith({ id: 3, version: 5 });
    // Read-only: edits are ignored.
    actor.send({ type: 'template.nameChanged', value: 'Otro' });
    expect(actor.getSnapshot().context.name).toBe('Plazos');
    actor.send({ type: 'template.newVersion' });
    await waitFor(actor, (s) => s.matches('editing'));
    expect(calls.newVersion).toHaveBeenCalledWith({ id: 3, version: 6 });
    expect(actor.getSnapshot().context.template).toMatchObject({ id: 4, version_number: 2 });
  });

  it('opens a published version read-only and keeps it there when a new version is refused', async () => {
    const { actor } = editor({
      load: async () => ({ ...DRAFT, state: 'PUBLICADA' }),
      newVersion: async () => {
        throw new ApiError(409, CONTRACT_TEMPLATE_MESSAGES.draftExists);
      },
    });
    actor.send({ type: 'template.open', id: 3 });
    await waitFor(actor, (s) => s.matches('readOnly'));
    actor.send({ type: 'template.newVersion' });
    await waitFor(actor, (s) => s.matches('readOnly') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe(CONTRACT_TEMPLATE_MESSAGES.draftExists);
  });

  it('asks before discarding unsaved changes', async () => {
    const { actor } = editor();
    actor.send({ type: 'template.open', id: 3 });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'template.nameChanged', value: 'Nuevo' });
    actor.send({ type: 'template.close' });
    expect(actor.getSnapshot().matches('confirmingDiscard')).toBe(true);
    actor.send({ type: 'template.keepEditing' });
    expect(actor.getSnapshot().context.name).toBe('Nuevo');
    actor.send({ type: 'template.close' });
    actor.send({ type: 'template.discard' });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
  });

  it('templateSaveProblems accepts a catalogue document', () => {
    expect(templateSaveProblems({ name: 'x', content: withVariable('venta.precio'), template: DRAFT })).toEqual({});
  });
});

describe('Nueva plantilla machine', () => {
  it('checks the fields, posts the starter document and emits the created version', async () => {
    const created = vi.fn();
    const create = vi.fn(async (body: unknown) => ({ ...DRAFT, ...(body as object) }) as ContractTemplate);
    const actor = createActor(templateCreateMachine.provide({ actors: { create: fromPromise(({ input }) => create(input)) } })).start();
    actor.on('created', created);
    actor.send({ type: 'create.open' });
    actor.send({ type: 'create.submit' });
    expect(actor.getSnapshot().context.errors).toMatchObject({
      subdivision_id: CONTRACT_TEMPLATE_MESSAGES.subdivisionRequired,
      name: CONTRACT_TEMPLATE_MESSAGES.nameRequired,
    });
    actor.send({ type: 'create.changed', field: 'subdivision_id', value: '1' });
    actor.send({ type: 'create.changed', field: 'kind', value: 'ADENDA' });
    actor.send({ type: 'create.changed', field: 'name', value: 'Adenda' });
    actor.send({ type: 'create.submit' });
    await waitFor(actor, (s) => s.matches('closed'));
    expect(create).toHaveBeenCalledWith({ subdivision_id: 1, kind: 'ADENDA', name: 'Adenda', content: starterDocument('ADENDA') });
    expect(created).toHaveBeenCalledTimes(1);
    expect(createBody({ subdivisionId: '1', kind: 'SEPARACION', name: 'x' }).ok).toBe(true);
    expect(templateDocSchema.safeParse(starterDocument('CARTA_RESOLUCION')).success).toBe(true);
  });
});

describe('"@" menu', () => {
  it('filters the catalogue by kind and typed words, accents ignored, in group order', () => {
    expect(variableSuggestions('conyuge', 'SEPARACION').map((v) => v.key)).toEqual([
      'comprador.conyuge_nombre',
      'comprador.conyuge_documento',
    ]);
    expect(variableSuggestions('precio', 'SEPARACION').map((v) => v.key)).toEqual(['separacion.precio_pactado']);
    expect(variableSuggestions('precio letras', 'COMPRAVENTA_CONTADO').map((v) => v.key)).toEqual(['venta.precio_letras']);
    const all = variableSuggestions('', 'COMPRAVENTA_PLAZOS');
    expect(all[0]?.group).toBe('empresa');
    expect(all.some((v) => v.group === 'separacion')).toBe(false);
  });

  it('moves the highlight round the entries and hides', () => {
    const actor = createActor(variableSuggestionMachine).start();
    const items = variableSuggestions('lote medida', 'COMPRAVENTA_CONTADO');
    actor.send({ type: 'suggest.show', query: 'lote medida', items, anchor: { left: 1, top: 2 } });
    actor.send({ type: 'suggest.move', delta: -1 });
    expect(actor.getSnapshot().context.index).toBe(items.length - 1);
    actor.send({ type: 'suggest.move', delta: 1 });
    expect(actor.getSnapshot().context.index).toBe(0);
    actor.send({ type: 'suggest.hide' });
    expect(actor.getSnapshot().matches('hidden')).toBe(true);
  });
});
