import { assertEvent, assign, fromPromise, raise, setup, type AnyActorRef } from 'xstate';
import type { ApiError } from '../../api/client';
import type { SubdivisionsApi } from '../../api/proyectos/subdivisions';
import { PLAN_CONTENT_TYPES, PLAN_MAX_BYTES, type Subdivision } from '../../schemas/proyectos/projects';
import { placeholder } from '../shared/placeholder';
import { errorMessage, forwardSessionErrors } from '../shared/api-errors';

/**
 * The plan image of one subdivision (issue "Proyectos": "plan image upload"). `plan_url` is an
 * authenticated /api path, so an `<img src>` cannot load it: the machine fetches it as a Blob
 * through the api client and owns the object URL (created on load, revoked when replaced and when
 * the actor stops). Upload: PNG/JPEG ≤ 5 MB ({@link PLAN_MAX_BYTES}), checked before sending (the
 * server checks the bytes again: its 422 is shown).
 *
 * Input `{ key, planUrl }`. States: empty (no plan) | loading → shown | failure; upload region:
 * `plan.upload {file}` → uploading → (new plan_url) loading, `uploaded(subdivision)`.
 */

export interface PlanImageContext {
  key: string;
  planUrl: string | null;
  /** Told `list.refresh` after an upload (the subdivisions list, whose row shows the plan), if given. */
  list: AnyActorRef | null;
  /** Object URL of the loaded image (revoked on change / stop). */
  objectUrl: string | null;
  error: string | null;
  uploadError: string | null;
}

export type PlanImageEvent =
  { type: 'plan.upload'; file: File } | { type: 'plan.retry' } | { type: 'plan.urlChanged'; planUrl: string | null };

/** Spanish refusal of a file the server would refuse, or null. */
export function planFileError(file: { type: string; size: number }): string | null {
  if (!(PLAN_CONTENT_TYPES as readonly string[]).includes(file.type)) return 'El plano debe ser una imagen PNG o JPEG';
  if (file.size > PLAN_MAX_BYTES) return 'El plano no debe superar 5 MB';
  return null;
}

const revoke = (url: string | null) => {
  if (url) URL.revokeObjectURL(url);
};

export const planImageMachine = setup({
  types: {
    context: {} as PlanImageContext,
    events: {} as PlanImageEvent,
    input: {} as { key: string; planUrl: string | null; list?: AnyActorRef | null },
  },
  actors: {
    /** GET the plan bytes → an object URL. */
    load: placeholder<string, { planUrl: string }>('load'),
    /** POST the plan → the updated subdivision. */
    upload: placeholder<Subdivision, { key: string; file: File }>('upload'),
  },
  actions: {
    uploaded: (_, _s: Subdivision) => {},
    reportApiError: (_, _e: ApiError) => {},
  },
  guards: { hasPlan: ({ context }) => context.planUrl !== null },
}).createMachine({
  id: 'planImage',
  context: ({ input }) => ({
    key: input.key,
    planUrl: input.planUrl,
    list: input.list ?? null,
    objectUrl: null,
    error: null,
    uploadError: null,
  }),
  exit: ({ context }) => revoke(context.objectUrl),
  type: 'parallel',
  states: {
    image: {
      initial: 'checking',
      on: { 'plan.urlChanged': { target: '.checking', actions: assign(({ event }) => ({ planUrl: event.planUrl })) } },
      states: {
        checking: { always: [{ guard: 'hasPlan', target: 'loading' }, { target: 'empty' }] },
        empty: {},
        loading: {
          invoke: {
            src: 'load',
            input: ({ context }) => ({ planUrl: context.planUrl! }),
            onDone: {
              target: 'shown',
              actions: assign(({ context, event }) => {
                revoke(context.objectUrl);
                return { objectUrl: event.output, error: null };
              }),
            },
            onError: { target: 'failure', actions: assign(({ event }) => ({ error: errorMessage(event.error) })) },
          },
        },
        shown: {},
        failure: { on: { 'plan.retry': 'loading' } },
      },
    },
    upload: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'plan.upload': [
              {
                guard: ({ event }) => planFileError(event.file) !== null,
                actions: assign(({ event }) => ({ uploadError: planFileError(event.file) })),
              },
              { target: 'uploading', actions: assign({ uploadError: null }) },
            ],
          },
        },
        uploading: {
          invoke: {
            src: 'upload',
            input: ({ context, event }) => {
              assertEvent(event, 'plan.upload');
              return { key: context.key, file: event.file };
            },
            onDone: {
              target: 'idle',
              actions: [
                { type: 'uploaded', params: ({ event }) => event.output },
                raise(({ event }) => ({ type: 'plan.urlChanged' as const, planUrl: event.output.plan_url })),
                // The list's row shows the new plan: machine to machine, through the ref in the input.
                ({ context }) => context.list?.send({ type: 'list.refresh' }),
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                assign(({ event }) => ({ uploadError: errorMessage(event.error) })),
                { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
              ],
            },
          },
        },
      },
    },
  },
});
export type PlanImageMachine = typeof planImageMachine;

/** Provided with the subdivisions api (the object URL comes from the Blob). */
export function createPlanImageMachine(deps: {
  subdivisionsApi: Pick<SubdivisionsApi, 'planBlob' | 'uploadPlan'>;
  reportApiError: (e: ApiError) => void;
  toaster?: { show(m: { severity: 'success'; summary: string }): void };
}): PlanImageMachine {
  return planImageMachine.provide({
    actors: {
      load: fromPromise(async ({ input }) => URL.createObjectURL(await deps.subdivisionsApi.planBlob(input.planUrl))),
      upload: fromPromise(({ input }) => deps.subdivisionsApi.uploadPlan(input.key, input.file, input.file.name)),
    },
    actions: {
      uploaded: () => deps.toaster?.show({ severity: 'success', summary: 'Plano actualizado' }),
      reportApiError: (_, e) => forwardSessionErrors(deps.reportApiError)(e),
    },
  });
}
