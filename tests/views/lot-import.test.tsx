/**
 * ImportLotsDialog over its real machine (lot-import.machine.ts, provided as the app does through
 * lot-import.actors.ts) with a fake lot-imports api: the preview shown, errors block "Importar",
 * the DXF layer chooser previews again, "Importar" commits and calls onImported, a refused import
 * lists its issues, the upload shows its progress ("Subiendo… 45 %") then "Comprobando archivo…".
 */
import { formatArea } from '../../src/lib/money';
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import { createLotImportMachine } from '../../src/machines/proyectos/lot-import.actors';
import { ImportRejectedError } from '../../src/api/proyectos/lot-imports';
import { createActor } from 'xstate';
import { ImportLotsDialog } from '../../src/views/proyectos/ImportLotsDialog';
import type { ImportIssue, ImportLotRow, ImportPreview } from '../../src/schemas/proyectos/projects';
import type { ImportChoices, UploadOptions } from '../../src/api/proyectos/lot-imports';

const lot = (n: number, action: ImportLotRow['action'] = 'CREATE'): ImportLotRow => ({
  block: 'A',
  number: String(n),
  code: `MZ A - LT ${n}`,
  area_m2: 160 + n,
  drawn_area_m2: 160 + n,
  perimeter_m: 52,
  price_per_m2: null,
  has_polygon: true,
  action,
});

function preview(overrides: Partial<ImportPreview> = {}): ImportPreview {
  const lots = overrides.lots ?? [lot(1), lot(2), lot(3, 'UPDATE')];
  const issues = overrides.issues ?? [];
  const errors = issues.filter((i) => i.severity === 'ERROR').length;
  return {
    format: 'DXF',
    layers: [
      { name: 'LOTES', closed_polylines: 3, open_polylines: 0, texts: 3 },
      { name: 'MANZANAS', closed_polylines: 1, open_polylines: 0, texts: 1 },
    ],
    layer: 'LOTES',
    lots,
    issues,
    summary: {
      create: lots.filter((l) => l.action === 'CREATE').length,
      update: lots.filter((l) => l.action === 'UPDATE').length,
      errors,
      warnings: issues.length - errors,
    },
    can_import: errors === 0,
    ...overrides,
  };
}

const OVERLAP: ImportIssue = {
  severity: 'ERROR',
  location: 'capa LOTES, polilínea cerca de (278031.50, 8687992.25)',
  lot_code: 'MZ A - LT 4',
  field: null,
  message: 'El lote MZ A - LT 4 se superpone con MZ A - LT 3',
};

function setup(api: { preview?: ReturnType<typeof vi.fn>; commit?: ReturnType<typeof vi.fn> } = {}) {
  const fakes = {
    preview: api.preview ?? vi.fn(() => Promise.resolve(preview())),
    commit: api.commit ?? vi.fn(() => Promise.resolve({ created: 2, updated: 1 })),
  };
  const onImported = vi.fn();
  const onClose = vi.fn();
  const machine = createLotImportMachine(fakes as never, { reportApiError: vi.fn() });
  // As the Lotes screen's machine does: the actor runs, is opened, and its `imported` is listened to.
  const actor = createActor(machine, { input: { key: 'k3Xq9aPz' } }).start();
  actor.send({ type: 'import.open', key: 'k3Xq9aPz' });
  actor.on('imported', (event) => onImported({ created: event.created, updated: event.updated }));
  render(
    <OverlaysProvider>
      <ImportLotsDialog actor={actor} isOpen onClose={onClose} />
    </OverlaysProvider>,
  );
  return { ...fakes, onImported, onClose, user: userEvent.setup() };
}

const dxf = () => new File(['0\nSECTION\n'], 'lotizacion.dxf', { type: 'application/dxf' });
const chooseFile = async (user: ReturnType<typeof userEvent.setup>, file: File) =>
  user.upload(screen.getByLabelText('Archivo de lotes'), file);
const importButton = () => screen.getByRole('button', { name: /Importar/ });

describe('ImportLotsDialog', () => {
  it('shows the preview (summary, lots, layers) and imports: commit then onImported', async () => {
    const { user, preview: previewFn, commit, onImported } = setup();
    expect(importButton()).toHaveProperty('disabled', true);
    const file = dxf();
    await chooseFile(user, file);
    const table = await screen.findByRole('table', { name: 'Lotes del archivo' });
    expect(previewFn).toHaveBeenCalledWith('k3Xq9aPz', file, null, expect.anything(), { resolutions: [], landUses: [] });
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(within(table).getByText('MZ A - LT 3').closest('tr')?.textContent).toContain('Actualizar');
    expect(screen.getByText('Crear: 2')).toBeTruthy();
    expect(screen.getByText('Actualizar: 1')).toBeTruthy();
    expect((screen.getByRole('combobox', { name: 'Capa del DXF con los lotes' }) as HTMLSelectElement).value).toBe('LOTES');
    expect(importButton()).toHaveProperty('disabled', false);

    await user.click(importButton());
    await screen.findByText('Se crearon 2 lotes y se actualizaron 1.');
    expect(commit).toHaveBeenCalledWith('k3Xq9aPz', file, 'LOTES', expect.anything(), { resolutions: [], landUses: [] });
    expect(onImported).toHaveBeenCalledWith({ created: 2, updated: 1 });
  });

  it("shows the lots per stage the file names, new stages marked, and each lot's stage", async () => {
    const stages = [
      { name: 'Etapa 1', lots: 1, action: 'EXISTING' as const },
      { name: 'Etapa 2', lots: 2, action: 'CREATE' as const },
    ];
    const base = preview();
    const lots = base.lots.map((lot, i) => ({ ...lot, stage: i === 0 ? 'Etapa 1' : 'Etapa 2' }));
    const { user } = setup({ preview: vi.fn(() => Promise.resolve({ ...base, lots, stages })) });
    await chooseFile(user, dxf());
    const summary = await screen.findByLabelText('Etapas del archivo');
    expect(summary.textContent).toBe('Etapa 1: 1 loteEtapa 2: 2 lotes (nueva)');
    const table = screen.getByRole('table', { name: 'Lotes del archivo' });
    expect(within(table).getAllByText('Etapa 2')).toHaveLength(2);
  });

  it("shows the lots per land use, uses not for sale marked, and each lot's use", async () => {
    const uses = [
      { use: 'VIVIENDA' as const, lots: 2 },
      { use: 'CLUB_HOUSE' as const, lots: 1 },
    ];
    const base = preview();
    const lots = base.lots.map((lot, i) => ({ ...lot, land_use: i === 0 ? ('CLUB_HOUSE' as const) : ('VIVIENDA' as const) }));
    const { user } = setup({ preview: vi.fn(() => Promise.resolve({ ...base, lots, uses })) });
    await chooseFile(user, dxf());
    const summary = await screen.findByLabelText('Usos del suelo del archivo');
    expect(summary.textContent).toBe('Vivienda: 2 lotesClub house: 1 lote (no vendible)');
    const table = screen.getByRole('table', { name: 'Lotes del archivo' });
    expect(within(table).getAllByText('Vivienda')).toHaveLength(2);
    expect(within(table).getByText('Club house')).toBeTruthy();
  });

  it('land uses in the engineers\' words: lists each value with its lots and source; "Importar" waits for a use for each; the commit sends them', async () => {
    const base = preview();
    const use_values = [
      { label: 'Zona reservada', lots: 2, use: null, source: 'UNMAPPED' as const },
      { label: 'POZO', lots: 1, use: 'OTROS_USOS' as const, source: 'SYNONYM' as const },
      { label: 'Strip mall', lots: 1, use: 'COMERCIO' as const, source: 'REMEMBERED' as const },
    ];
    const { user, commit } = setup({
      preview: vi.fn(() => Promise.resolve({ ...base, use_values, use_values_more: 0, use_values_unmapped: 1 })),
    });
    await chooseFile(user, dxf());
    const panel = await screen.findByRole('region', { name: 'Usos del archivo' });
    const table = within(panel).getByRole('table', { name: 'Valores de uso del archivo' });
    const row = (label: string) => within(table).getByText(`«${label}»`).closest('tr')!;
    expect(
      within(row('Zona reservada'))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toContain('2 lotes');
    expect(within(row('Zona reservada')).getByText('Sin asignar')).toBeTruthy();
    expect(within(row('POZO')).getByText('Sinónimo')).toBeTruthy();
    expect(within(row('Strip mall')).getByText('Recordado')).toBeTruthy();
    const zone = within(panel).getByRole('combobox', { name: 'Uso de «Zona reservada»' }) as HTMLSelectElement;
    expect(zone.value).toBe('');
    expect((within(panel).getByRole('combobox', { name: 'Uso de «POZO»' }) as HTMLSelectElement).value).toBe('OTROS_USOS');
    expect(within(panel).getByRole('status').textContent).toBe('Elija el uso de un valor para poder importar.');
    expect(importButton()).toHaveProperty('disabled', true);

    await user.selectOptions(zone, 'Otros usos (aportes) — no vendible');
    expect(zone.value).toBe('OTROS_USOS');
    expect(within(row('Zona reservada')).getByText('Elegido')).toBeTruthy();
    expect(within(panel).queryByRole('status')).toBeNull();
    expect(importButton()).toHaveProperty('disabled', false);
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Uso de «Strip mall»' }), 'Comercio');
    await user.click(importButton());
    await screen.findByText('Se crearon 2 lotes y se actualizaron 1.');
    expect(commit).toHaveBeenCalledWith('k3Xq9aPz', expect.any(File), 'LOTES', expect.anything(), {
      resolutions: [],
      landUses: [
        { label: 'Strip mall', use: 'COMERCIO' },
        { label: 'Zona reservada', use: 'OTROS_USOS' },
      ],
    });
  });

  it('shows duplicated codes side by side; choosing and re-checking sends the choices (issue 13 item 5)', async () => {
    const duplicates = [
      {
        code: 'MZ A - LT 2',
        candidates: [
          { position: 2, location: 'fila 3', area_m2: 130, drawn_area_m2: null, stage: 'Etapa 1', land_use: null },
          { position: 3, location: 'fila 4', area_m2: 131.5, drawn_area_m2: null, stage: 'Etapa 2', land_use: 'VIVIENDA' as const },
        ],
      },
    ];
    const base = preview();
    const refused = { ...base, can_import: false, duplicates, summary: { ...base.summary, errors: 1 } };
    const previewFn = vi.fn((_k: string, _f: File, _l: string | null, _o: UploadOptions, { resolutions = [] }: ImportChoices) =>
      Promise.resolve(resolutions.length ? { ...base, duplicates } : refused),
    );
    const { user } = setup({ preview: previewFn });
    await chooseFile(user, dxf());
    const panel = await screen.findByRole('region', { name: 'Códigos repetidos' });
    const group = within(panel).getByRole('table', { name: 'Candidatos de MZ A - LT 2' });
    expect(within(group).getByText(formatArea(131.5))).toBeTruthy();
    expect(within(group).getByText('Etapa 2')).toBeTruthy();
    const recheck = within(panel).getByRole('button', { name: 'Volver a comprobar' });
    expect(recheck).toHaveProperty('disabled', true);

    await user.selectOptions(within(panel).getByLabelText('Elección para MZ A - LT 2, fila 4'), 'RENAME');
    expect(await within(panel).findByText('Indique un número de lote válido para cada lote a renombrar.')).toBeTruthy();
    await user.type(within(panel).getByLabelText('Nuevo número de lote para MZ A - LT 2, fila 4'), '2b');
    expect(importButton()).toHaveProperty('disabled', true);
    await user.click(recheck);
    await waitFor(() => expect(importButton()).toHaveProperty('disabled', false));
    expect(previewFn).toHaveBeenLastCalledWith('k3Xq9aPz', expect.any(File), 'LOTES', expect.anything(), {
      resolutions: [{ position: 3, code: 'MZ A - LT 2', action: 'RENAME', number: '2B' }],
      landUses: [],
    });
  });

  it('shows the upload progress, then "Comprobando archivo…" while the server checks the file', async () => {
    let resolve: (p: ImportPreview) => void = () => {};
    let options: UploadOptions = {};
    const { user } = setup({
      preview: vi.fn((_key: string, _file: File, _layer: string | null, o: UploadOptions) => {
        options = o;
        return new Promise<ImportPreview>((r) => (resolve = r));
      }),
    });
    await chooseFile(user, dxf());
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain('Subiendo… 0 %');
    act(() => options.onProgress!(0.456));
    expect(screen.getByRole('status').textContent).toContain('Subiendo… 45 %');
    const bar = within(screen.getByRole('status')).getByRole('progressbar', { name: 'Subiendo archivo' });
    expect(bar.getAttribute('aria-valuenow')).toBe('46');
    expect(importButton()).toHaveProperty('disabled', true);
    act(() => options.onProgress!(1));
    expect(screen.getByRole('status').textContent).toContain('Comprobando archivo…');
    const busy = within(screen.getByRole('status')).getByRole('progressbar', { name: 'Procesando archivo' });
    expect(busy.getAttribute('aria-valuenow')).toBeNull();
    resolve(preview());
    await screen.findByRole('table', { name: 'Lotes del archivo' });
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('closing the dialog during the upload aborts it', async () => {
    let options: UploadOptions = {};
    const onClose = vi.fn();
    const machine = createLotImportMachine(
      {
        preview: vi.fn((_key: string, _file: File, _layer: string | null, o: UploadOptions) => {
          options = o;
          return new Promise<ImportPreview>(() => {});
        }),
        commit: vi.fn(),
      } as never,
      { reportApiError: vi.fn() },
    );
    const actor = createActor(machine, { input: { key: 'k3Xq9aPz' } }).start();
    actor.send({ type: 'import.open', key: 'k3Xq9aPz' });
    const ui = (isOpen: boolean) => (
      <OverlaysProvider>
        <ImportLotsDialog actor={actor} isOpen={isOpen} onClose={onClose} />
      </OverlaysProvider>
    );
    const { rerender } = render(ui(true));
    const user = userEvent.setup();
    await chooseFile(user, dxf());
    await screen.findByText('Subiendo… 0 %');
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(onClose).toHaveBeenCalled();
    // The screen's machine cancels the import when its dialog closes (lots-page.machine.ts).
    actor.send({ type: 'import.cancel' });
    rerender(ui(false));
    expect(options.signal?.aborted).toBe(true);
  });

  it('lists errors with their location and keeps Importar disabled', async () => {
    const { user, commit } = setup({ preview: vi.fn(() => Promise.resolve(preview({ issues: [OVERLAP] }))) });
    await chooseFile(user, dxf());
    const issues = await screen.findByRole('table', { name: 'Lista de problemas' });
    expect(within(issues).getByText(OVERLAP.location)).toBeTruthy();
    expect(within(issues).getByText(OVERLAP.message)).toBeTruthy();
    expect(screen.getByText('El archivo tiene errores')).toBeTruthy();
    expect(importButton()).toHaveProperty('disabled', true);
    await user.click(importButton());
    expect(commit).not.toHaveBeenCalled();
  });

  it('reports 600+ issues by kind, then filtered and paged, and downloads them all as CSV', async () => {
    const duplicates: ImportIssue[] = Array.from({ length: 100 }, (_, i) => ({
      severity: 'ERROR',
      location: `elemento ${i + 1}`,
      lot_code: `MZ A - LT ${i + 1}`,
      field: null,
      message: `Código repetido: MZ A - LT ${i + 1} ya aparece en elemento ${i + 200}`,
      kind: 'DUPLICATE',
    }));
    const more: ImportIssue = {
      severity: 'ERROR',
      location: 'archivo',
      lot_code: null,
      field: 'file',
      message: 'y 516 códigos repetidos más',
      kind: 'DUPLICATE',
      more: 516,
    };
    const spikes: ImportIssue[] = Array.from({ length: 30 }, (_, i) => ({
      severity: 'WARNING',
      location: `elemento ${i + 400}`,
      lot_code: `MZ B - LT ${i + 1}`,
      field: null,
      message: `Se eliminó una punta de 0.66 m en MZ B - LT ${i + 1}: el contorno iba y volvía por la misma línea`,
      kind: 'SPIKE',
    }));
    const unknown: ImportIssue = {
      severity: 'WARNING',
      location: 'archivo',
      lot_code: null,
      field: null,
      message: 'Un aviso nuevo',
      kind: 'SOMETHING_NEW',
    };
    const { user } = setup({ preview: vi.fn(() => Promise.resolve(preview({ issues: [...duplicates, more, ...spikes, unknown] }))) });
    await chooseFile(user, dxf());
    const kinds = await screen.findByRole('table', { name: 'Problemas por tipo' });
    const row = (name: string) => within(kinds).getByRole('button', { name }).closest('tr')!.textContent;
    expect(row('Códigos repetidos')).toBe('Códigos repetidos6160');
    expect(row('Puntas eliminadas')).toBe('Puntas eliminadas030');
    expect(row('Otros')).toBe('Otros01');
    // 132 issues listed, 50 per page.
    expect(screen.getByText('Página 1 de 3 · 132 problemas')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(screen.getByText('Página 2 de 3 · 132 problemas')).toBeTruthy();
    // A kind's button filters to it (and back to page 1).
    await user.click(within(kinds).getByRole('button', { name: 'Puntas eliminadas' }));
    const list = screen.getByRole('table', { name: 'Lista de problemas' });
    expect(within(list).getAllByRole('row')).toHaveLength(31);
    expect(screen.queryByRole('navigation', { name: 'Páginas de problemas' })).toBeNull();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Tipo de problema' }), '');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Gravedad' }), 'WARNING');
    expect(within(screen.getByRole('table', { name: 'Lista de problemas' })).getAllByRole('row')).toHaveLength(32);

    const blobs: Blob[] = [];
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:issues';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    await user.click(screen.getByRole('button', { name: 'Descargar CSV' }));
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    const csv = await blobs[0]!.text();
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe('Tipo,Gravedad,Ubicación,Lote,Detalle');
    expect(lines).toHaveLength(1 + 132); // every issue, not the filtered page
    expect(lines[1]).toBe('Códigos repetidos,Error,elemento 1,MZ A - LT 1,Código repetido: MZ A - LT 1 ya aparece en elemento 200');
  });

  it('previews again when another DXF layer is chosen', async () => {
    const previewFn = vi.fn((_key: string, _file: File, layer: string | null) =>
      Promise.resolve(layer === 'MANZANAS' ? preview({ layer: 'MANZANAS', lots: [lot(9)] }) : preview()),
    );
    const { user } = setup({ preview: previewFn });
    await chooseFile(user, dxf());
    await screen.findByRole('table', { name: 'Lotes del archivo' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Capa del DXF con los lotes' }), 'MANZANAS');
    await waitFor(() =>
      expect(previewFn).toHaveBeenLastCalledWith('k3Xq9aPz', expect.any(File), 'MANZANAS', expect.anything(), {
        resolutions: [],
        landUses: [],
      }),
    );
    expect(await screen.findByText('MZ A - LT 9')).toBeTruthy();
  });

  it('refuses an unsupported file without calling the server', async () => {
    const { user, preview: previewFn } = setup();
    const input = screen.getByLabelText('Archivo de lotes') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'plano.pdf', { type: 'application/pdf' })] } });
    expect((await screen.findByRole('alert')).textContent).toContain('Elija un archivo CSV, XLSX, GeoJSON o DXF');
    void user;
    expect(previewFn).not.toHaveBeenCalled();
  });

  it('draws the file on a preview map, issues highlighted; clicking a lot filters the report to it (issue 13 item 6)', async () => {
    const square = (x: number): [number, number][] => [
      [x, 0],
      [x + 10, 0],
      [x + 10, 20],
      [x, 20],
    ];
    const lots = [1, 2, 3].map((n) => ({ ...lot(n), polygon: square(n * 10) }));
    const spike: ImportIssue = {
      severity: 'WARNING',
      location: 'fila 3',
      lot_code: 'MZ A - LT 2',
      field: null,
      message: 'Se eliminó una punta de 0.66 m en MZ A - LT 2',
      kind: 'SPIKE',
    };
    const overlap = { ...OVERLAP, lot_code: 'MZ A - LT 3', message: 'El lote MZ A - LT 3 se superpone con MZ A - LT 2' };
    const { user } = setup({
      preview: vi.fn(() => Promise.resolve({ ...preview({ lots, issues: [overlap, spike] }), coordinate_system: 'PLAN' as const })),
    });
    await chooseFile(user, dxf());
    const map = await screen.findByRole('img', { name: 'Plano del archivo: 1 lotes con error, 1 con advertencia' });
    const shape = (code: string) => map.querySelector(`path[data-code="${code}"]`)!;
    expect(shape('MZ A - LT 3').getAttribute('class')).toContain('lot-import-map__lot--error');
    expect(shape('MZ A - LT 2').getAttribute('class')).toContain('lot-import-map__lot--warning');
    expect(shape('MZ A - LT 1').getAttribute('class')).not.toMatch(/error|warning/);
    await user.click(shape('MZ A - LT 2'));
    const list = screen.getByRole('table', { name: 'Lista de problemas' });
    expect(within(list).getAllByRole('row')).toHaveLength(2); // header + the spike
    expect(within(list).getByText(spike.message)).toBeTruthy();
    expect(screen.getByText('Lote: MZ A - LT 2')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /remove|quitar|eliminar/i }));
    expect(within(screen.getByRole('table', { name: 'Lista de problemas' })).getAllByRole('row')).toHaveLength(3);
  });

  it('shows the issues of a refused import (422) and stores nothing', async () => {
    const commit = vi.fn(() =>
      Promise.reject(new ImportRejectedError('El archivo tiene 1 error; no se importó ningún lote', { file: ['x'] }, [OVERLAP])),
    );
    const { user, onImported } = setup({ commit });
    await chooseFile(user, dxf());
    await screen.findByRole('table', { name: 'Lotes del archivo' });
    await user.click(importButton());
    expect(await screen.findByText('El archivo tiene 1 error; no se importó ningún lote')).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Lista de problemas' })).getByText(OVERLAP.message)).toBeTruthy();
    expect(onImported).not.toHaveBeenCalled();
  });
});
