import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../../src/api/client';
import {
  IMPORT_TOO_LARGE,
  IMPORT_WRONG_TYPE,
  lotImportMachine,
  previewMapShapes,
  provideLotImportMachine,
  type LotImportDeps,
  type LotImportRequest,
} from '../../../src/machines/proyectos/lot-import.machine';
import type { ImportChoices, UploadOptions } from '../../../src/api/proyectos/lot-imports';
import { IMPORT_MAX_BYTES, type ImportPreview } from '../../../src/schemas/proyectos/projects';

/** lot-import.machine.ts: idle → choosingFile → previewing → reviewed{canImport|blocked} → importing → done | failed. */

const preview = (over: Partial<ImportPreview> = {}): ImportPreview => ({
  format: 'DXF',
  layers: [{ name: 'LOTES', closed_polylines: 2, open_polylines: 0, texts: 2 }],
  layer: 'LOTES',
  lots: [],
  issues: [],
  summary: { create: 2, update: 0, errors: 0, warnings: 0 },
  can_import: true,
  ...over,
});

function start(deps: Partial<LotImportDeps> = {}) {
  const full: LotImportDeps = {
    preview: vi.fn(() => Promise.resolve(preview())),
    commit: vi.fn(() => Promise.resolve({ created: 2, updated: 0 })),
    reportApiError: vi.fn(),
    ...deps,
  };
  const actor = createActor(provideLotImportMachine(full), { input: {} }).start();
  const emitted = vi.fn();
  actor.on('imported', emitted);
  return { actor, deps: full, emitted };
}

const file = (name = 'plano.dxf', size = 10) => {
  const f = new File(['x'], name);
  Object.defineProperty(f, 'size', { value: size });
  return f;
};

describe('lot import machine', () => {
  it('previews, imports and emits imported', async () => {
    const { actor, deps, emitted } = start();
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'import.open', key: 'k1' });
    expect(actor.getSnapshot().value).toBe('choosingFile');
    const chosen = file();
    actor.send({ type: 'import.file', file: chosen });
    expect(actor.getSnapshot().value).toBe('previewing');
    await waitFor(actor, (s) => s.matches({ reviewed: 'canImport' }));
    expect(deps.preview).toHaveBeenCalledWith('k1', chosen, null, expect.objectContaining({ signal: expect.any(AbortSignal) }), {
      resolutions: [],
      landUses: [],
    });
    actor.send({ type: 'import.confirm' });
    await waitFor(actor, (s) => s.matches('done'));
    expect(deps.commit).toHaveBeenCalledWith('k1', chosen, 'LOTES', expect.objectContaining({ signal: expect.any(AbortSignal) }), {
      resolutions: [],
      landUses: [],
    });
    expect(emitted).toHaveBeenCalledWith(expect.objectContaining({ type: 'imported', created: 2, updated: 0 }));
  });

  it('a preview with errors is blocked: confirm does nothing', async () => {
    const { actor, deps } = start({
      preview: vi.fn(() => Promise.resolve(preview({ can_import: false, summary: { create: 0, update: 0, errors: 1, warnings: 0 } }))),
    });
    actor.send({ type: 'import.open', key: 'k1' });
    actor.send({ type: 'import.file', file: file() });
    await waitFor(actor, (s) => s.matches({ reviewed: 'blocked' }));
    actor.send({ type: 'import.confirm' });
    expect(actor.getSnapshot().matches({ reviewed: 'blocked' })).toBe(true);
    expect(deps.commit).not.toHaveBeenCalled();
  });

  it('a layer change previews again with that layer', async () => {
    const { actor, deps } = start();
    actor.send({ type: 'import.open', key: 'k1' });
    actor.send({ type: 'import.file', file: file() });
    await waitFor(actor, (s) => s.matches('reviewed'));
    actor.send({ type: 'import.layer', layer: 'MANZANAS' });
    expect(actor.getSnapshot().value).toBe('previewing');
    await waitFor(actor, (s) => s.matches('reviewed'));
    expect(deps.preview).toHaveBeenLastCalledWith('k1', expect.any(File), 'MANZANAS', expect.anything(), { resolutions: [], landUses: [] });
  });

  it('duplicated codes: choices make the preview stale until re-checked; the commit sends the same choices (issue 13 item 5)', async () => {
    const duplicates = [
      {
        code: 'MZ A - LT 2',
        candidates: [
          { position: 2, location: 'fila 3', area_m2: 130, drawn_area_m2: null },
          { position: 3, location: 'fila 4', area_m2: 131, drawn_area_m2: null },
        ],
      },
      {
        code: 'MZ A - LT 3',
        candidates: [
          { position: 4, location: 'fila 5', area_m2: 140, drawn_area_m2: null },
          { position: 5, location: 'fila 6', area_m2: 141, drawn_area_m2: null },
          { position: 6, location: 'fila 7', area_m2: 142, drawn_area_m2: null },
        ],
      },
    ];
    const refused = preview({ can_import: false, duplicates, summary: { create: 6, update: 0, errors: 3, warnings: 0 } });
    const previewFn = vi.fn((_k: string, _f: File, _l: string | null, _o: UploadOptions, { resolutions = [] }: ImportChoices) =>
      Promise.resolve(resolutions.length ? preview({ duplicates }) : refused),
    );
    const { actor, deps } = start({ preview: previewFn });
    actor.send({ type: 'import.open', key: 'k1' });
    actor.send({ type: 'import.file', file: file('lotes.csv') });
    await waitFor(actor, (s) => s.matches({ reviewed: 'blocked' }));

    actor.send({ type: 'duplicates.keepFirst' });
    actor.send({ type: 'duplicates.choose', position: 5, code: 'MZ A - LT 3', action: 'RENAME' });
    expect(actor.getSnapshot().context.choicesChecked).toBe(false);
    // A rename without a valid number cannot be sent yet.
    actor.send({ type: 'import.recheck' });
    expect(actor.getSnapshot().matches({ reviewed: 'blocked' })).toBe(true);
    actor.send({ type: 'duplicates.choose', position: 5, code: 'MZ A - LT 3', action: 'RENAME', number: '3a' });
    actor.send({ type: 'duplicates.choose', position: 6, code: 'MZ A - LT 3', action: 'KEEP' });
    actor.send({ type: 'import.recheck' });
    await waitFor(actor, (s) => s.matches({ reviewed: 'canImport' }));
    const sent = [
      { position: 3, code: 'MZ A - LT 2', action: 'DROP' },
      { position: 5, code: 'MZ A - LT 3', action: 'RENAME', number: '3A' },
    ];
    expect(previewFn).toHaveBeenLastCalledWith('k1', expect.any(File), 'LOTES', expect.anything(), { resolutions: sent, landUses: [] });
    // A new choice after the check blocks the import again until the next check.
    actor.send({ type: 'duplicates.choose', position: 6, code: 'MZ A - LT 3', action: 'DROP' });
    expect(actor.getSnapshot().matches({ reviewed: 'blocked' })).toBe(true);
    actor.send({ type: 'duplicates.choose', position: 6, code: 'MZ A - LT 3', action: 'KEEP' });
    actor.send({ type: 'import.recheck' });
    await waitFor(actor, (s) => s.matches({ reviewed: 'canImport' }));
    actor.send({ type: 'import.confirm' });
    await waitFor(actor, (s) => s.matches('done'));
    expect(deps.commit).toHaveBeenCalledWith('k1', expect.any(File), 'LOTES', expect.anything(), { resolutions: sent, landUses: [] });
  });

  it('land uses: "Importar" waits until every value of the file has a use; the choices go with the next preview and the commit', async () => {
    const useValues = preview({
      use_values: [
        { label: 'Zona reservada', lots: 2, use: null, source: 'UNMAPPED' },
        { label: 'Pozo', lots: 1, use: 'OTROS_USOS', source: 'SYNONYM' },
      ],
      use_values_unmapped: 1,
    });
    const { actor, deps } = start({ preview: vi.fn(() => Promise.resolve(useValues)) });
    actor.send({ type: 'import.open', key: 'k1' });
    actor.send({ type: 'import.file', file: file('lotes.geojson') });
    await waitFor(actor, (s) => s.matches({ reviewed: 'blocked' }));
    actor.send({ type: 'import.confirm' });
    expect(deps.commit).not.toHaveBeenCalled();

    actor.send({ type: 'uses.choose', label: 'Zona reservada', use: 'OTROS_USOS' });
    expect(actor.getSnapshot().matches({ reviewed: 'canImport' })).toBe(true);
    actor.send({ type: 'uses.choose', label: 'Zona reservada', use: null });
    expect(actor.getSnapshot().matches({ reviewed: 'blocked' })).toBe(true);
    actor.send({ type: 'uses.choose', label: 'Zona reservada', use: 'RECREACION' });
    actor.send({ type: 'uses.choose', label: 'Pozo', use: 'EQUIPAMIENTO' });
    const landUses = [
      { label: 'Pozo', use: 'EQUIPAMIENTO' },
      { label: 'Zona reservada', use: 'RECREACION' },
    ];
    // Kept across a layer change, sent with the preview.
    actor.send({ type: 'import.layer', layer: 'LOTES' });
    await waitFor(actor, (s) => s.matches({ reviewed: 'canImport' }));
    expect(deps.preview).toHaveBeenLastCalledWith('k1', expect.any(File), 'LOTES', expect.anything(), { resolutions: [], landUses });
    actor.send({ type: 'import.confirm' });
    await waitFor(actor, (s) => s.matches('done'));
    expect(deps.commit).toHaveBeenCalledWith('k1', expect.any(File), 'LOTES', expect.anything(), { resolutions: [], landUses });

    // A new file starts without choices.
    actor.send({ type: 'import.open', key: 'k1' });
    actor.send({ type: 'import.file', file: file('otro.geojson') });
    await waitFor(actor, (s) => s.matches({ reviewed: 'blocked' }));
    expect(actor.getSnapshot().context.landUseChoices).toEqual({});
  });

  it('land uses beyond the listed ones still count: choosing every listed value does not enable "Importar"', async () => {
    const { actor } = start({
      preview: vi.fn(() =>
        Promise.resolve(
          preview({ use_values: [{ label: 'Uso 1', lots: 1, use: null, source: 'UNMAPPED' }], use_values_more: 2, use_values_unmapped: 3 }),
        ),
      ),
    });
    actor.send({ type: 'import.open', key: 'k1' });
    actor.send({ type: 'import.file', file: file('lotes.csv') });
    await waitFor(actor, (s) => s.matches('reviewed'));
    actor.send({ type: 'uses.choose', label: 'Uso 1', use: 'VIVIENDA' });
    expect(actor.getSnapshot().matches({ reviewed: 'blocked' })).toBe(true);
  });

  it('refuses wrong types and oversized files before calling the server', () => {
    const { actor, deps } = start();
    actor.send({ type: 'import.open', key: 'k1' });
    actor.send({ type: 'import.file', file: file('plano.pdf') });
    expect(actor.getSnapshot().context.error).toBe(IMPORT_WRONG_TYPE);
    actor.send({ type: 'import.file', file: file('lotes.csv', IMPORT_MAX_BYTES + 1) });
    expect(actor.getSnapshot().context.error).toBe(IMPORT_TOO_LARGE);
    expect(actor.getSnapshot().value).toBe('choosingFile');
    expect(deps.preview).not.toHaveBeenCalled();
  });

  it('a failed commit keeps the issues; cancel goes back to idle and forgets the file', async () => {
    const error = Object.assign(new ApiError(422, 'El archivo tiene 1 error; no se importó ningún lote'), {
      importIssues: [{ severity: 'ERROR', location: 'fila 3', lot_code: null, field: null, message: 'Falta el área' }],
    });
    const { actor, deps } = start({ commit: vi.fn(() => Promise.reject(error)) });
    actor.send({ type: 'import.open', key: 'k1' });
    actor.send({ type: 'import.file', file: file('lotes.csv') });
    await waitFor(actor, (s) => s.matches({ reviewed: 'canImport' }));
    actor.send({ type: 'import.confirm' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context).toMatchObject({ error: error.message, rejectedIssues: [{ location: 'fila 3' }] });
    expect(deps.reportApiError).toHaveBeenCalledWith(error);
    actor.send({ type: 'import.cancel' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.file).toBeNull();
  });

  it('a fake preview actor sending import.progress moves context.progress; 1 then the answer → reviewed', async () => {
    let finish: (p: ImportPreview) => void = () => {};
    let request: LotImportRequest | undefined;
    const machine = lotImportMachine.provide({
      actors: {
        preview: fromPromise<ImportPreview, LotImportRequest>(({ input }) => {
          request = input;
          return new Promise<ImportPreview>((resolve) => (finish = resolve));
        }),
      },
    });
    const actor = createActor(machine, { input: {} }).start();
    actor.send({ type: 'import.open', key: 'k1' });
    actor.send({ type: 'import.file', file: file() });
    expect(actor.getSnapshot().context.progress).toBe(0);
    request!.parent.send({ type: 'import.progress', fraction: 0.45 });
    expect(actor.getSnapshot().value).toBe('previewing');
    expect(actor.getSnapshot().context.progress).toBe(0.45);
    request!.parent.send({ type: 'import.progress', fraction: 1.5 });
    expect(actor.getSnapshot().context.progress).toBe(1);
    expect(actor.getSnapshot().value).toBe('previewing');
    finish(preview());
    await waitFor(actor, (s) => s.matches({ reviewed: 'canImport' }));
  });

  it('onProgress of the deps reaches context.progress for preview and commit; each upload starts at 0', async () => {
    const pending: { options: UploadOptions; resolve: (value: never) => void }[] = [];
    const hold = (_key: string, _file: File, _layer: string | null, options: UploadOptions) =>
      new Promise<never>((resolve) => pending.push({ options, resolve }));
    const { actor } = start({ preview: vi.fn(hold), commit: vi.fn(hold) });
    actor.send({ type: 'import.open', key: 'k1' });
    actor.send({ type: 'import.file', file: file() });
    pending[0]!.options.onProgress!(0.3);
    expect(actor.getSnapshot().context.progress).toBe(0.3);
    pending[0]!.options.onProgress!(1);
    pending[0]!.resolve(preview() as never);
    await waitFor(actor, (s) => s.matches({ reviewed: 'canImport' }));
    actor.send({ type: 'import.confirm' });
    expect(actor.getSnapshot().matches('importing')).toBe(true);
    expect(actor.getSnapshot().context.progress).toBe(0);
    pending[1]!.options.onProgress!(0.75);
    expect(actor.getSnapshot().context.progress).toBe(0.75);
    pending[1]!.resolve({ created: 2, updated: 0 } as never);
    await waitFor(actor, (s) => s.matches('done'));
  });

  it('cancel during the upload aborts it (the signal given to the api) and ignores later progress', () => {
    let options: UploadOptions = {};
    const { actor } = start({
      preview: vi.fn((_k: string, _f: File, _l: string | null, o: UploadOptions) => {
        options = o;
        return new Promise<ImportPreview>(() => {});
      }),
    });
    actor.send({ type: 'import.open', key: 'k1' });
    actor.send({ type: 'import.file', file: file() });
    options.onProgress!(0.2);
    expect(options.signal!.aborted).toBe(false);
    actor.send({ type: 'import.cancel' });
    expect(options.signal!.aborted).toBe(true);
    expect(actor.getSnapshot().value).toBe('idle');
    options.onProgress!(0.9);
    expect(actor.getSnapshot().context.progress).toBe(0);
  });
});

describe('previewMapShapes (issue 13 item 6)', () => {
  const issue = (severity: 'ERROR' | 'WARNING', lot_code: string) => ({ severity, location: 'x', lot_code, field: null, message: 'm' });
  it('draws the plan north up from its north-west corner (metres), and colours each lot by its worst issue', () => {
    const lots = [
      {
        code: 'A-1',
        polygon: [
          [0, 0],
          [10, 0],
          [10, 5],
          [0, 5],
        ] as [number, number][],
      },
      {
        code: 'A-2',
        polygon: [
          [10, 0],
          [20, 0],
          [20, 5],
          [10, 5],
        ] as [number, number][],
      },
      { code: 'A-3', polygon: null },
    ];
    const map = previewMapShapes(lots, [issue('WARNING', 'A-2'), issue('ERROR', 'A-2'), issue('WARNING', 'A-1')], 'PLAN')!;
    expect(map).toMatchObject({ width: 20, height: 5 });
    expect(map.shapes).toEqual([
      { code: 'A-1', d: 'M0,5L10,5L10,0L0,0Z', severity: 'WARNING' },
      { code: 'A-2', d: 'M10,5L20,5L20,0L10,0Z', severity: 'ERROR' },
    ]);
    expect(previewMapShapes([{ code: 'A-1', polygon: null }], [], 'PLAN')).toBeNull();
  });
  it('keeps lon/lat shapes in proportion (longitude scaled by the cosine of the latitude)', () => {
    // A square of 0.001° at 60° S is half as wide as it is tall on the ground.
    const map = previewMapShapes(
      [
        {
          code: 'G',
          polygon: [
            [-77, -60],
            [-76.999, -60],
            [-76.999, -59.999],
            [-77, -59.999],
          ],
        },
      ],
      [],
      'GEO',
    )!;
    expect(map.width / map.height).toBeCloseTo(0.5, 2);
  });
});
