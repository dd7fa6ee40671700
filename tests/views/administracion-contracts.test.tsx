/**
 * Administración → Generar Contrato, tab "Generar" (docs/decisions.md "Contract generation
 * screen"): the panel over its real machines (createContractsMachines) with fake api calls —
 * create the draft, the missing value asked and saved, issue (the PDF downloads), the signed scan.
 */
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import type { ContractsApi } from '../../src/api/administracion/contracts';
import type { ContractDetail, ContractPreview } from '../../src/schemas/administracion/contracts';
import { createContractsMachines } from '../../src/machines/administracion/contracts.actors';
import { GenerateContractPanelView } from '../../src/views/administracion/generar-contrato/generar/GenerateContractPanel';

const draft: ContractDetail = {
  id: 5,
  number: null,
  kind: 'COMPRAVENTA_PLAZOS',
  state: 'BORRADOR',
  sale: { id: 3, number: 'V-000003', titular: 'Carlos Mendoza', agent: null },
  lot: { id: 9, code: 'MZ A - LT 9', subdivision_id: 1, subdivision_name: 'Los Viñedos' },
  template: { id: 2, name: 'Compraventa a plazos', version_number: 1 },
  overrides: {},
  issued_at: null,
  issued_by: null,
  signed_at: null,
  signature_due_on: null,
  signature_overdue: false,
  has_pdf: false,
  signed_scan: null,
  annul_reason: null,
  version: 1,
  events: [],
};
const doc = (missing: boolean) => ({
  type: 'doc',
  content: [
    { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'CONTRATO DE COMPRAVENTA' }] },
    {
      type: 'paragraph',
      content: [
        { type: 'text', text: 'El comprador Carlos Mendoza, domiciliado en ' },
        missing ? { type: 'variable', attrs: { key: 'comprador.direccion' } } : { type: 'text', text: 'Av. Los Pinos 123' },
      ],
    },
    { type: 'pageBreak' },
    { type: 'paragraph', content: [{ type: 'text', text: '<script>alert(1)</script>' }] },
  ],
});
const previewMissing: ContractPreview = {
  doc: doc(true),
  values: { 'comprador.nombre': { type: 'TEXT', text: 'Carlos Mendoza' }, 'comprador.direccion': null },
  missing: [{ key: 'comprador.direccion', label: 'Dirección del comprador' }],
};
const previewFull: ContractPreview = {
  doc: doc(false),
  values: { 'comprador.direccion': { type: 'TEXT', text: 'Av. Los Pinos 123' } },
  missing: [],
};

function setup() {
  const pdf = new Blob(['%PDF-1.4'], { type: 'application/pdf' });
  let current = draft;
  const contractsApi = {
    list: vi.fn(async () => ({ data: [], meta: { page: 1, per_page: 20, total: 0 } })),
    get: vi.fn(async () => current),
    create: vi.fn(async () => current),
    update: vi.fn(async () => {
      current = { ...draft, overrides: { 'comprador.direccion': 'Av. Los Pinos 123' }, version: 2 };
      return current;
    }),
    preview: vi.fn(async () => (current.version === 1 ? previewMissing : previewFull)),
    issue: vi.fn(async () => {
      current = { ...current, state: 'EMITIDO', number: 'C-2026-000001', has_pdf: true, version: 3 };
      return current;
    }),
    annul: vi.fn(),
    uploadSignedScan: vi.fn(async () => {
      current = { ...current, state: 'FIRMADO', signed_scan: { name: 'firmado.pdf', content_type: 'application/pdf' }, version: 4 };
      return current;
    }),
    pdf: vi.fn(async () => pdf),
    signedScan: vi.fn(async () => pdf),
  } as unknown as ContractsApi;
  const saleBlob = vi.fn();
  const machines = createContractsMachines({
    contractsApi,
    salesApi: {
      list: vi.fn(async () => ({ data: [], meta: { page: 1, per_page: 10, total: 0 } })),
      get: vi.fn(async () => ({
        id: 3,
        number: 'V-000003',
        type: 'FINANCIADO',
        status: 'REGISTRADA',
        lot: { id: 9, code: 'MZ A - LT 9', subdivision_name: 'Los Viñedos', area_m2: 120 },
        holders: [{ id: 1, display_name: 'Carlos Mendoza', document_number: '45454545', role: 'TITULAR', share_percent: '100.00' }],
      })) as never,
    },
    lotsApi: { get: vi.fn(async () => ({ id: 9, subdivision_id: 1 })) as never },
    templatesApi: {
      list: vi.fn(async () => ({
        data: [
          {
            id: 2,
            name: 'Compraventa a plazos',
            version_number: 1,
            subdivision: { id: 1, name: 'Los Viñedos' },
            kind: 'COMPRAVENTA_PLAZOS',
            state: 'PUBLICADA',
          },
        ],
        meta: { page: 1, per_page: 50, total: 1 },
      })) as never,
    },
    subdivisionOptions: async () => [],
    saveBlob: saleBlob,
    reportApiError: vi.fn(),
    toaster: { show: vi.fn() },
  });
  const view = (node: ReactNode) => render(<OverlaysProvider>{node}</OverlaysProvider>);
  view(<GenerateContractPanelView machines={machines} saleId={3} />);
  return { contractsApi, saleBlob, user: userEvent.setup() };
}

describe('GenerateContractPanel', () => {
  it('creates the draft, asks the missing value, issues (the PDF downloads) and takes the signed scan', async () => {
    const { contractsApi, saleBlob, user } = setup();
    expect(await screen.findByRole('heading', { name: 'Venta V-000003' })).toBeTruthy();
    expect((screen.getByLabelText('Plantilla') as HTMLSelectElement).value).toBe('2');
    await user.click(screen.getByRole('button', { name: 'Crear borrador' }));
    expect(contractsApi.create).toHaveBeenCalledWith({ sale_id: 3, template_id: 2 });

    // The preview on A4 pages, the missing value marked and asked; data shown as text, never as HTML.
    expect(await screen.findByRole('article', { name: 'Página 1 de 2' })).toBeTruthy();
    expect(screen.getByText('Falta: Dirección del comprador')).toBeTruthy();
    expect(screen.getByText('<script>alert(1)</script>')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Emitir' }) as HTMLButtonElement).disabled).toBe(true);
    await user.type(screen.getByLabelText('Dirección del comprador'), 'Av. Los Pinos 123');
    await user.click(screen.getByRole('button', { name: 'Guardar datos' }));
    expect(contractsApi.update).toHaveBeenCalledWith(5, { version: 1, overrides: { 'comprador.direccion': 'Av. Los Pinos 123' } });
    expect(await screen.findByText(/Av\. Los Pinos 123/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Emitir' }));
    expect(await screen.findByText('C-2026-000001')).toBeTruthy();
    expect(contractsApi.issue).toHaveBeenCalledWith(5, { version: 2 });
    await waitFor(() => expect(saleBlob).toHaveBeenCalledWith(expect.any(Blob), 'C-2026-000001.pdf'));

    // The signed PDF goes up → FIRMADO.
    const input = screen.getByLabelText('Subir contrato firmado') as HTMLInputElement;
    await user.upload(input, new File(['%PDF-1.4'], 'firmado.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText('Firmado')).toBeTruthy();
    expect(contractsApi.uploadSignedScan).toHaveBeenCalledWith(5, expect.any(File), 'firmado.pdf');
  });

  it('shows a 422 on the field it names', async () => {
    const { contractsApi, user } = setup();
    const { ApiError } = await import('../../src/api/http');
    (contractsApi.update as ReturnType<typeof vi.fn>).mockRejectedValueOnce(
      new ApiError(422, 'Datos no válidos', { 'overrides.comprador.direccion': ['Cada dato admite como máximo 2000 caracteres'] }),
    );
    await user.click(await screen.findByRole('button', { name: 'Crear borrador' }));
    await user.type(await screen.findByLabelText('Dirección del comprador'), 'x');
    await user.click(screen.getByRole('button', { name: 'Guardar datos' }));
    expect(await screen.findByText('Cada dato admite como máximo 2000 caracteres')).toBeTruthy();
  });
});

describe('RegistroContratosPage', () => {
  it('lists the contracts with the overdue tag and filters by state', async () => {
    const { createActor, createMachine } = await import('xstate');
    const { ServicesProvider } = await import('../../src/views/services');
    const { RegistroContratosPage } = await import('../../src/views/administracion/registro-contratos/RegistroContratosPage');
    const overdue = {
      ...draft,
      id: 7,
      number: 'C-2026-000007',
      state: 'EMITIDO',
      signature_overdue: true,
      signature_due_on: '2026-11-10',
      has_pdf: true,
    };
    const list = vi.fn(async () => ({ data: [overdue], meta: { page: 1, per_page: 20, total: 1 } }));
    const machines = createContractsMachines({
      contractsApi: { list, get: vi.fn(async () => overdue) } as unknown as ContractsApi,
      salesApi: { list: vi.fn(), get: vi.fn() },
      lotsApi: { get: vi.fn() },
      templatesApi: { list: vi.fn() },
      subdivisionOptions: async () => [{ id: 1, name: 'Los Viñedos' }],
      reportApiError: vi.fn(),
      toaster: { show: vi.fn() },
    });
    const session = createActor(createMachine({ context: { permissions: [] } })).start();
    const services = { session, machines: {}, navigate: vi.fn(), toaster: { show: vi.fn() }, today: () => '2026-11-22' } as never;
    render(
      <ServicesProvider value={services}>
        <OverlaysProvider>
          <RegistroContratosPage machines={machines} />
        </OverlaysProvider>
      </ServicesProvider>,
    );
    const table = await screen.findByRole('table', { name: 'Contratos' });
    expect(await within(table).findByText('C-2026-000007')).toBeTruthy();
    expect(within(table).getByText('Firma pendiente · 12 días')).toBeTruthy();
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Estado'), 'FIRMADO');
    await waitFor(() =>
      expect(list).toHaveBeenLastCalledWith(expect.objectContaining({ filters: expect.objectContaining({ state: 'FIRMADO' }) })),
    );
  });
});
