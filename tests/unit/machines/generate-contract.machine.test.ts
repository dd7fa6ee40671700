/**
 * The generation panel's machine (docs/decisions.md "Contract generation screen"): the changed
 * overrides only, the discard question on a dirty form, the signed scan checked before upload.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  changedOverrides,
  generateContractMachine,
  valueFields,
  type LoadedSale,
} from '../../../src/machines/administracion/generate-contract.machine';
import type { ContractDetail, ContractPreview } from '../../../src/schemas/administracion/contracts';

const detail = {
  id: 5,
  number: null,
  kind: 'COMPRAVENTA_CONTADO',
  state: 'EMITIDO',
  sale: { id: 3, number: 'V-000003', titular: 'Ana', agent: null },
  lot: { id: 9, code: 'A-9', subdivision_id: 1, subdivision_name: 'Los Viñedos' },
  template: { id: 2, name: 'Contado', version_number: 1 },
  overrides: {},
  issued_at: null,
  issued_by: null,
  signed_at: null,
  signature_due_on: null,
  signature_overdue: false,
  has_pdf: true,
  signed_scan: null,
  annul_reason: null,
  version: 1,
  events: [],
} as ContractDetail;
const preview: ContractPreview = {
  doc: { type: 'doc', content: [] },
  values: { 'lote.lindero_frente': { type: 'TEXT', text: 'Calle 1' }, 'comprador.direccion': null },
  missing: [{ key: 'comprador.direccion', label: 'Dirección' }],
};

describe('generateContractMachine', () => {
  it('asks the missing values first, then the editable boundaries; sends only what changed (empty → null)', () => {
    expect(valueFields(preview).map((f) => [f.key, f.missing])).toEqual([
      ['comprador.direccion', true],
      ['lote.lindero_frente', false],
    ]);
    expect(
      changedOverrides({
        values: { 'comprador.direccion': ' Jr. Lima 1 ', 'lote.lindero_frente': '', 'lote.medida_fondo': '20' },
        initial: { 'comprador.direccion': '', 'lote.lindero_frente': 'Calle 1', 'lote.medida_fondo': '20' },
      }),
    ).toEqual({ 'comprador.direccion': 'Jr. Lima 1', 'lote.lindero_frente': null });
  });

  it('refuses a scan that is not a PDF or image before any upload; a dirty draft asks before leaving', async () => {
    let uploads = 0;
    const machine = generateContractMachine.provide({
      actors: {
        loadSale: fromPromise(async (): Promise<LoadedSale> => ({
          sale: {
            id: 3,
            number: 'V-000003',
            titular: 'Ana',
            lotCode: 'A-9',
            subdivisionName: 'Los Viñedos',
            status: 'REGISTRADA',
            type: 'CONTADO',
            kind: 'COMPRAVENTA_CONTADO',
          },
          contract: { detail, preview },
          templates: [],
        })),
        uploadScan: fromPromise(async () => {
          uploads += 1;
          return detail;
        }),
      },
    });
    const actor = createActor(machine, { input: { saleId: 3 } }).start();
    await waitFor(actor, (s) => s.matches({ contract: 'idle' }));
    actor.send({ type: 'scan.picked', file: new File(['x'], 'a.txt', { type: 'text/plain' }) });
    expect(actor.getSnapshot().context.scanError).toBe('El archivo no es un PDF ni una imagen JPEG o PNG');
    expect(uploads).toBe(0);

    const draft = createActor(
      generateContractMachine.provide({
        actors: {
          loadSale: fromPromise(async (): Promise<LoadedSale> => ({
            sale: {
              id: 3,
              number: 'V-000003',
              titular: 'Ana',
              lotCode: 'A-9',
              subdivisionName: 'Los Viñedos',
              status: 'REGISTRADA',
              type: 'CONTADO',
              kind: 'COMPRAVENTA_CONTADO',
            },
            contract: { detail: { ...detail, state: 'BORRADOR' }, preview },
            templates: [],
          })),
        },
      }),
      { input: { saleId: 3 } },
    ).start();
    await waitFor(draft, (s) => s.matches({ contract: 'idle' }));
    draft.send({ type: 'value.changed', key: 'comprador.direccion', value: 'Jr. Lima 1' });
    draft.send({ type: 'sale.change' });
    expect(draft.getSnapshot().matches({ contract: 'confirmingDiscard' })).toBe(true);
    draft.send({ type: 'keepEditing' });
    expect(draft.getSnapshot().context.values['comprador.direccion']).toBe('Jr. Lima 1');
    draft.send({ type: 'sale.change' });
    draft.send({ type: 'discard' });
    expect(draft.getSnapshot().matches('search')).toBe(true);
  });
});
