/**
 * /ADMINISTRACION/GenerarContrato, tab "Plantillas" (GenerarContratoPage) over its real machines
 * with fake api calls: creating a template opens it in the Tiptap editor, "@" inserts a variable
 * chip, a 422 on `content` is shown above the document, publishing makes it read-only, and "Nueva
 * versión" opens the next draft (docs/domain.md "Contract templates").
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import { ApiError } from '../../src/api/client';
import type { ContractTemplatesApi } from '../../src/api/administracion/contract-templates';
import { ServicesProvider, type ViewServices } from '../../src/views/services';
import { createContractTemplatesMachines } from '../../src/machines/administracion/contract-templates.actors';
import { GenerarContratoPage } from '../../src/views/administracion/generar-contrato/GenerarContratoPage';
import { CONTRACT_TEMPLATE_MESSAGES, templateDocSchema, type ContractTemplate } from '../../src/schemas/administracion/contract-templates';
import type { ListQuery } from '../../src/schemas/list';

// ProseMirror measures the caret with layout APIs jsdom does not implement: zero-size stand-ins.
beforeAll(() => {
  const rect = { x: 0, y: 0, top: 0, left: 0, right: 0, bottom: 0, width: 0, height: 0, toJSON: () => ({}) } as DOMRect;
  const rects = Object.assign([rect], { item: () => rect }) as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect = () => rect;
  Range.prototype.getClientRects = () => rects;
  HTMLElement.prototype.getClientRects ??= () => rects;
  document.elementFromPoint ??= () => null;
});

const page = <T,>(rows: T[], q: ListQuery) => ({ data: rows, meta: { page: q.page, per_page: q.per_page, total: rows.length } });

const DRAFT: ContractTemplate = {
  id: 7,
  subdivision: { id: 2, name: 'Los Viñedos' },
  kind: 'COMPRAVENTA_CONTADO',
  name: 'Compraventa contado',
  state: 'BORRADOR',
  version_number: 1,
  content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Conste por el presente' }] }] },
  published_at: null,
  published_by: null,
  version: 1,
};

beforeEach(() => window.history.replaceState(null, '', '/ADMINISTRACION/GenerarContrato'));

function setup(overrides: Partial<ContractTemplatesApi> = {}) {
  const api: ContractTemplatesApi = {
    list: vi.fn(async (q: ListQuery) => page([{ ...DRAFT, content: null }], q)),
    get: vi.fn(async () => DRAFT),
    create: vi.fn(async (body) => ({ ...DRAFT, id: 9, name: body.name, kind: body.kind, content: body.content })),
    update: vi.fn(async (id, body) => ({
      ...DRAFT,
      id,
      name: body.name ?? DRAFT.name,
      content: body.content ?? DRAFT.content,
      version: body.version + 1,
    })),
    publish: vi.fn(async (id, body) => ({
      ...DRAFT,
      id,
      state: 'PUBLICADA',
      published_at: '2026-11-20T17:00:00.000Z',
      published_by: { id: 1, name: 'Carlos Ramos' },
      version: body.version + 1,
    })),
    newVersion: vi.fn(async () => ({ ...DRAFT, id: 10, version_number: 2, version: 1 })),
    ...overrides,
  };
  const toaster = { show: vi.fn() };
  const machines = createContractTemplatesMachines({
    templatesApi: api,
    subdivisionOptions: async () => [{ id: 2, name: 'Los Viñedos' }] as never,
    reportApiError: vi.fn(),
    toaster,
  });
  // Tab "Generar" mounts the generation panel, whose machines load with their module: kept loading here.
  const contractsModule = new Promise<never>(() => {});
  const services = { machines: { contracts: () => contractsModule } } as unknown as ViewServices;
  render(
    <ServicesProvider value={services}>
      <OverlaysProvider>
        <GenerarContratoPage machines={machines} />
      </OverlaysProvider>
    </ServicesProvider>,
  );
  return { api, toaster, user: userEvent.setup() };
}

const documentBox = () => screen.findByRole('textbox', { name: 'Contenido de la plantilla' });

describe('Generar Contrato → Plantillas', () => {
  it('lists the latest version of each template with its state and version, and keeps the Generar tab honest', async () => {
    const { api, user } = setup();
    const row = (await screen.findByText('Compraventa contado')).closest('tr')!;
    expect(within(row).getByText('v1')).toBeTruthy();
    expect(within(row).getByText('Borrador')).toBeTruthy();
    expect(vi.mocked(api.list).mock.calls[0]?.[0].filters).toMatchObject({ latest: 'true' });
    await user.click(screen.getByRole('tab', { name: 'Generar' }));
    expect(screen.getByRole('tab', { name: 'Generar' }).getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByLabelText('Cargando')).toBeTruthy();
  });

  it('creates a template and inserts a variable chip with "@"', async () => {
    const { api, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Nueva plantilla' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nueva plantilla' });
    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));
    expect(within(dialog).getByText(CONTRACT_TEMPLATE_MESSAGES.subdivisionRequired)).toBeTruthy();
    await user.selectOptions(within(dialog).getByLabelText('Lotización'), 'Los Viñedos');
    await user.selectOptions(within(dialog).getByLabelText('Tipo de documento'), 'Separación (arras confirmatorias)');
    await user.type(within(dialog).getByLabelText('Nombre'), 'Separación Los Viñedos');
    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));
    await waitFor(() => expect(api.create).toHaveBeenCalled());
    const body = vi.mocked(api.create).mock.calls[0]![0];
    expect(body).toMatchObject({ subdivision_id: 2, kind: 'SEPARACION', name: 'Separación Los Viñedos' });
    expect(templateDocSchema.safeParse(body.content).success).toBe(true);

    const doc = await documentBox();
    expect(screen.getByRole('heading', { name: 'Separación Los Viñedos' })).toBeTruthy();
    await user.type(doc, 'Arras: @arras');
    const listbox = await screen.findByRole('listbox', { name: 'Variables' });
    expect(within(listbox).getByRole('option', { name: /Monto de la separación \(arras\)/ })).toBeTruthy();
    // Sale variables are not offered to a SEPARACION template.
    expect(within(listbox).queryByRole('option', { name: /^Precio/ })).toBeNull();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    const chip = doc.querySelector('[data-variable="separacion.monto"]');
    expect(chip?.textContent).toBe('Monto de la separación (arras)');

    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(api.update).toHaveBeenCalled());
    const saved = vi.mocked(api.update).mock.calls[0]![1];
    expect(saved.version).toBe(1);
    expect(templateDocSchema.safeParse(saved.content).success).toBe(true);
    expect(JSON.stringify(saved.content)).toContain('"key":"separacion.monto"');
  });

  it('shows a 422 on the content (an unknown variable) above the document', async () => {
    const message = CONTRACT_TEMPLATE_MESSAGES.unknownVariable('empresa.inventada');
    const { user } = setup({
      update: vi.fn(async () => {
        throw new ApiError(422, 'Los datos no son válidos', { content: [message] });
      }),
    });
    await user.click(await screen.findByText('Compraventa contado'));
    const doc = await documentBox();
    await user.type(doc, ' más texto');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    const alert = await screen.findByText(message);
    expect(alert.closest('[role="alert"]')).toBeTruthy();
    expect(doc.getAttribute('aria-invalid')).toBe('true');
  });

  it('publishes after confirming, which makes it read-only, and starts a new version', async () => {
    const { api, user } = setup();
    await user.click(await screen.findByText('Compraventa contado'));
    await documentBox();
    await user.click(screen.getByRole('button', { name: 'Publicar' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(within(confirm).getByText('¿Publicar la versión 1?')).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Publicar' }));
    await waitFor(() => expect(api.publish).toHaveBeenCalledWith(7, { version: 1 }));
    expect(await screen.findByText(/Versión publicada: solo lectura/)).toBeTruthy();
    expect(screen.queryByRole('toolbar', { name: 'Formato del documento' })).toBeNull();
    expect((await documentBox()).getAttribute('contenteditable')).toBe('false');
    expect(screen.queryByRole('button', { name: 'Guardar' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Nueva versión' }));
    await waitFor(() => expect(api.newVersion).toHaveBeenCalledWith(7, { version: 2 }));
    expect(await screen.findByText('Versión 2')).toBeTruthy();
    expect(screen.getByRole('toolbar', { name: 'Formato del documento' })).toBeTruthy();
    expect((await documentBox()).getAttribute('contenteditable')).toBe('true');
  });

  it('asks before leaving a draft with unsaved changes', async () => {
    const { user } = setup();
    await user.click(await screen.findByText('Compraventa contado'));
    await user.type(await documentBox(), ' cambio');
    await user.click(screen.getByRole('button', { name: 'Volver a la lista' }));
    expect(await screen.findByText('¿Descartar los cambios?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Descartar' }));
    expect(await screen.findByRole('table')).toBeTruthy();
  });
});
