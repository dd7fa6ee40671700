import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import type { SubdivisionsApi } from '../../api/proyectos/subdivisions';
import type { Block, Stage, Subdivision } from '../../schemas/proyectos/projects';
import { placeholder } from '../shared/placeholder';
import { errorMessage, forwardSessionErrors } from '../shared/api-errors';

/**
 * The header of /PROYECTOS/Lotes/{name}/{key}: the subdivision (counts per status, sold area) and
 * its stages (etapas) and blocks (manzanas) with small create / rename / delete actions.
 *
 * Input `{ key }`. `subdivision`: loading → ready | failure (a 404 also goes to the session, which
 * shows the not-found page like other screens); `detail.reload` after any change to lots.
 * `structure`: loading → ready ⇄ saving (`structure.save {op}`) | failure; a refused op (409: a
 * block with lots, 422 a bad name) shows `structureError` and reloads nothing.
 */

/** One change to stages or blocks; `version` is the version shown (a stale one is a 409, src/schemas/versions.ts). */
export type StructureOp =
  | { kind: 'createStage'; name: string }
  | { kind: 'renameStage'; id: number; name: string; version?: number }
  | { kind: 'deleteStage'; id: number }
  | { kind: 'createBlock'; name: string; stage_id: number | null }
  | { kind: 'updateBlock'; id: number; name?: string; stage_id?: number | null; version?: number }
  | { kind: 'deleteBlock'; id: number };

export interface SubdivisionDetailContext {
  key: string;
  subdivision: Subdivision | null;
  error: string | null;
  stages: Stage[];
  blocks: Block[];
  structureError: string | null;
}

export type SubdivisionDetailEvent =
  { type: 'detail.reload' } | { type: 'detail.retry' } | { type: 'structure.save'; op: StructureOp } | { type: 'structure.dismissError' };

export const subdivisionDetailMachine = setup({
  types: { context: {} as SubdivisionDetailContext, events: {} as SubdivisionDetailEvent, input: {} as { key: string } },
  actors: {
    loadSubdivision: placeholder<Subdivision, { key: string }>('loadSubdivision'),
    loadStructure: placeholder<{ stages: Stage[]; blocks: Block[] }, { key: string }>('loadStructure'),
    runOp: placeholder<unknown, { key: string; op: StructureOp }>('runOp'),
  },
  actions: {
    reportApiError: (_, _e: ApiError) => {},
    changed: () => {},
  },
}).createMachine({
  id: 'subdivisionDetail',
  type: 'parallel',
  context: ({ input }) => ({ key: input.key, subdivision: null, error: null, stages: [], blocks: [], structureError: null }),
  states: {
    subdivision: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'loadSubdivision',
            input: ({ context }) => ({ key: context.key }),
            onDone: { target: 'ready', actions: assign(({ event }) => ({ subdivision: event.output, error: null })) },
            onError: {
              target: 'failure',
              actions: [
                assign(({ event }) => ({ error: errorMessage(event.error) })),
                { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
              ],
            },
          },
        },
        ready: { on: { 'detail.reload': 'reloading' } },
        /** Reloads while the header stays shown. */
        reloading: {
          invoke: {
            src: 'loadSubdivision',
            input: ({ context }) => ({ key: context.key }),
            onDone: { target: 'ready', actions: assign(({ event }) => ({ subdivision: event.output })) },
            onError: { target: 'ready', actions: { type: 'reportApiError', params: ({ event }) => event.error as ApiError } },
          },
        },
        failure: { on: { 'detail.retry': 'loading' } },
      },
    },
    structure: {
      initial: 'loading',
      on: { 'detail.reload': '.loading' },
      states: {
        loading: {
          invoke: {
            src: 'loadStructure',
            input: ({ context }) => ({ key: context.key }),
            onDone: { target: 'ready', actions: assign(({ event }) => ({ stages: event.output.stages, blocks: event.output.blocks })) },
            onError: { target: 'failure', actions: assign(({ event }) => ({ structureError: errorMessage(event.error) })) },
          },
        },
        ready: {
          on: {
            'structure.save': { target: 'saving', actions: assign({ structureError: null }) },
            'structure.dismissError': { actions: assign({ structureError: null }) },
          },
        },
        saving: {
          invoke: {
            src: 'runOp',
            input: ({ context, event }) => {
              assertEvent(event, 'structure.save');
              return { key: context.key, op: event.op };
            },
            onDone: { target: 'loading', actions: 'changed' },
            onError: {
              target: 'ready',
              actions: [
                assign(({ event }) => ({ structureError: errorMessage(event.error) })),
                { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
              ],
            },
          },
        },
        failure: { on: { 'detail.retry': 'loading' } },
      },
    },
  },
});
export type SubdivisionDetailMachine = typeof subdivisionDetailMachine;

/** Runs one stage/block change through the api. */
export function runStructureOp(api: SubdivisionsApi, key: string, op: StructureOp): Promise<unknown> {
  switch (op.kind) {
    case 'createStage':
      return api.createStage(key, { name: op.name });
    case 'renameStage':
      return api.updateStage(op.id, { name: op.name, version: op.version });
    case 'deleteStage':
      return api.removeStage(op.id);
    case 'createBlock':
      return api.createBlock(key, { name: op.name, stage_id: op.stage_id });
    case 'updateBlock': {
      const { id, kind: _kind, ...body } = op;
      return api.updateBlock(id, body);
    }
    case 'deleteBlock':
      return api.removeBlock(op.id);
  }
}

/** Provided with the subdivisions api. `reportApiError` receives only 401/402/404. */
export function createSubdivisionDetailMachine(deps: { subdivisionsApi: SubdivisionsApi; reportApiError: (e: ApiError) => void }) {
  const api = deps.subdivisionsApi;
  return subdivisionDetailMachine.provide({
    actors: {
      loadSubdivision: fromPromise(({ input }) => api.get(input.key)),
      loadStructure: fromPromise(async ({ input }) => {
        const [stages, blocks] = await Promise.all([api.stages(input.key), api.blocks(input.key)]);
        return { stages, blocks: [...blocks].sort((a, b) => a.name.localeCompare(b.name, 'es', { numeric: true })) };
      }),
      runOp: fromPromise(({ input }) => runStructureOp(api, input.key, input.op)),
    },
    actions: {
      reportApiError: (_, e) => forwardSessionErrors(deps.reportApiError)(e),
    },
  });
}
