/** The Historial de Cambios drawer's machine and selector: closed → open (entry) → closed. */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { changeDetailMachine } from '../../../src/machines/historial/change-detail.machine';
import { selectOpenEntry } from '../../../src/machines/historial/change-detail.selectors';
import type { ChangeHistoryEntry } from '../../../src/schemas/historial/change-history';

const entry = (id: number): ChangeHistoryEntry => ({
  id,
  occurred_at: '2026-11-20T15:05:00.000Z',
  actor: null,
  ip: null,
  entity: 'locals',
  record_id: String(id),
  action: 'UPDATE',
  before: { name: 'A' },
  after: { name: 'B' },
  changed_fields: ['name'],
});

describe('changeDetail machine', () => {
  it('starts closed with no entry', () => {
    const actor = createActor(changeDetailMachine).start();
    expect(actor.getSnapshot().value).toBe('closed');
    expect(selectOpenEntry(actor.getSnapshot())).toBeNull();
  });

  it('opens on a row, replaces it with another row, and forgets it on close', () => {
    const actor = createActor(changeDetailMachine).start();
    actor.send({ type: 'detail.open', entry: entry(1) });
    expect(actor.getSnapshot().value).toBe('open');
    expect(selectOpenEntry(actor.getSnapshot())?.id).toBe(1);
    actor.send({ type: 'detail.open', entry: entry(2) });
    expect(selectOpenEntry(actor.getSnapshot())?.id).toBe(2);
    actor.send({ type: 'detail.close' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context.entry).toBeNull();
    expect(selectOpenEntry(actor.getSnapshot())).toBeNull();
  });

  it('ignores a close while closed', () => {
    const actor = createActor(changeDetailMachine).start();
    actor.send({ type: 'detail.close' });
    expect(actor.getSnapshot().value).toBe('closed');
  });
});
