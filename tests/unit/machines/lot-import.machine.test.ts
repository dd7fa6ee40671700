import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { ApiError } from '../../../src/api/client';
import { IMPORT_TOO_LARGE, IMPORT_WRONG_TYPE, provideLotImportMachine, type LotImportDeps } from '../../../src/machines/proyectos/lot-import.machine';
import { IMPORT_MAX_BYTES, type ImportPreview } from '../../../src/schemas/projects';

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
    expect(deps.preview).toHaveBeenCalledWith('k1', chosen, null);
    actor.send({ type: 'import.confirm' });
    await waitFor(actor, (s) => s.matches('done'));
    expect(deps.commit).toHaveBeenCalledWith('k1', chosen, 'LOTES');
    expect(emitted).toHaveBeenCalledWith(expect.objectContaining({ type: 'imported', created: 2, updated: 0 }));
  });

  it('a preview with errors is blocked: confirm does nothing', async () => {
    const { actor, deps } = start({ preview: vi.fn(() => Promise.resolve(preview({ can_import: false, summary: { create: 0, update: 0, errors: 1, warnings: 0 } }))) });
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
    expect(deps.preview).toHaveBeenLastCalledWith('k1', expect.any(File), 'MANZANAS');
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
});
