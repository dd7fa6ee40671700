import type { ApiClient, ApiError } from '../../api/client';
import { createLotImportsApi, type LotImportsApi } from '../../api/proyectos/lot-imports';
import { provideLotImportMachine } from './lot-import.machine';
import { forwardSessionErrors } from '../shared/api-errors';

/**
 * Wires the lot-import dialog's machine (lot-import.machine.ts) to the lot-imports api. The
 * Lotes screen's machines (projects.actors.ts) expose the result as `lotImport`.
 */

/**
 * The provided machine over `api`; session errors (401/402/404) go to `reportApiError`. The api's
 * `preview` / `commit` receive the machine's upload options (progress → `import.progress`, abort).
 */
export function createLotImportMachine(
  api: Pick<LotImportsApi, 'preview' | 'commit'>,
  deps: { reportApiError: (error: ApiError) => void },
) {
  return provideLotImportMachine({
    preview: api.preview,
    commit: api.commit,
    reportApiError: forwardSessionErrors(deps.reportApiError),
  });
}

/** {@link createLotImportMachine} on the app's api client. */
export function createLotImportMachineFor(client: ApiClient, deps: { reportApiError: (error: ApiError) => void }) {
  return createLotImportMachine(createLotImportsApi(client), deps);
}
export type ProvidedLotImportMachine = ReturnType<typeof createLotImportMachineFor>;
