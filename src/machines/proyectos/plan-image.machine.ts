import { fromPromise } from 'xstate';
import type { ApiError } from '../../api/client';
import type { SubdivisionsApi } from '../../api/proyectos/subdivisions';
import { PLAN_CONTENT_TYPES, PLAN_MAX_BYTES, type Subdivision } from '../../schemas/proyectos/projects';
import { forwardSessionErrors } from '../shared/api-errors';
import { createRecordImageMachine } from '../shared/record-image.machine';

/**
 * The plan image of one subdivision (issue "Proyectos": "plan image upload"). `plan_url` is an
 * authenticated /api path, so an `<img src>` cannot load it: the machine fetches it as a Blob
 * through the api client and owns the object URL (created on load, revoked when replaced and when
 * the actor stops). Upload: PNG/JPEG ≤ 5 MB ({@link PLAN_MAX_BYTES}), checked before sending (the
 * server checks the bytes again: its 422 is shown).
 *
 * The machine is the shared one of record images (../shared/record-image.machine.ts): input
 * `{ target: key, url: plan_url, list }`, events `image.upload {file}`, `image.retry`.
 */

/** Spanish refusal of a file the server would refuse, or null. */
export function planFileError(file: { type: string; size: number }): string | null {
  if (!(PLAN_CONTENT_TYPES as readonly string[]).includes(file.type)) return 'El plano debe ser una imagen PNG o JPEG';
  if (file.size > PLAN_MAX_BYTES) return 'El plano no debe superar 5 MB';
  return null;
}

/** The plan's machine: ../shared/record-image.machine.ts over a subdivision (its key) and its `plan_url`. */
export const planImageMachine = createRecordImageMachine<string, Subdivision>({
  id: 'planImage',
  fileError: planFileError,
  urlOf: (s) => s.plan_url,
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
      load: fromPromise(async ({ input }) => URL.createObjectURL(await deps.subdivisionsApi.planBlob(input.url))),
      upload: fromPromise(({ input }) => deps.subdivisionsApi.uploadPlan(input.target, input.file, input.file.name)),
    },
    actions: {
      uploaded: () => deps.toaster?.show({ severity: 'success', summary: 'Plano actualizado' }),
      reportApiError: (_, e) => forwardSessionErrors(deps.reportApiError)(e),
    },
  });
}
