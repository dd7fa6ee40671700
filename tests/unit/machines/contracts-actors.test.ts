/**
 * The generation panel's sale loading (src/machines/administracion/contracts.actors.ts): the
 * published templates of the sale's subdivision and kind are asked with a query the server's
 * GET /api/contract-templates accepts (it sorts by name, updated_at or kind only; a sort by
 * version_number was a 422 and the panel said "No se pudo abrir la venta").
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { createContractsMachines } from '../../../src/machines/administracion/contracts.actors';
import { contractTemplatesQuerySchema } from '../../../src/schemas/administracion/contract-templates';
import { listQueryToSearchParams, type ListQuery } from '../../../src/schemas/list';

describe('contracts actors: loadSale', () => {
  it('asks the published templates of the sale with a query GET contract-templates accepts, newest first', async () => {
    const templatesList = vi.fn(async (_q: ListQuery) => ({
      data: [{ id: 8, name: 'Compraventa a plazos', version_number: 2 }],
      meta: { page: 1, per_page: 50, total: 1 },
    }));
    const machines = createContractsMachines({
      contractsApi: { list: vi.fn(async () => ({ data: [], meta: { page: 1, per_page: 20, total: 0 } })) } as never,
      salesApi: {
        list: vi.fn(),
        get: vi.fn(async () => ({
          id: 3,
          number: 'V-000003',
          type: 'FINANCIADO',
          status: 'EN_CUOTAS',
          lot: { id: 9, code: 'MZ A - LT 9', subdivision_name: 'Los Viñedos' },
          holders: [{ id: 1, display_name: 'Carlos Mendoza', role: 'TITULAR' }],
        })) as never,
      },
      lotsApi: { get: vi.fn(async () => ({ id: 9, subdivision_id: 1 })) as never },
      templatesApi: { list: templatesList as never },
      subdivisionOptions: async () => [],
      reportApiError: vi.fn(),
      toaster: { show: vi.fn() },
    });
    const actor = createActor(machines.generate, { input: { saleId: 3 } }).start();
    const snapshot = await waitFor(actor, (s) => s.matches('choosing') || s.matches('failed'));
    expect(snapshot.matches('choosing')).toBe(true);
    expect(snapshot.context.templateId).toBe(8);
    const query = templatesList.mock.calls[0]![0];
    const sent = Object.fromEntries(listQueryToSearchParams(query));
    expect(contractTemplatesQuerySchema.safeParse(sent).success).toBe(true);
    expect(sent).toMatchObject({ subdivision_id: '1', kind: 'COMPRAVENTA_PLAZOS', state: 'PUBLICADA', sort: '-updated_at' });
    actor.stop();
  });
});
