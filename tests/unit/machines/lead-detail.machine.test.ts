/**
 * The lead panel's machine (src/machines/crm/lead-detail.machine.ts): `detail.open {id, status}` —
 * the board's drag and drop and "Mover a…" — opens the lead and requests the status once loaded,
 * as the panel's button would; a move the lead does not allow is not made and says so.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { leadDetailMachine } from '../../../src/machines/crm/lead-detail.machine';
import type { Lead, LeadActivity, LeadStatus } from '../../../src/schemas/crm/leads';

const when = '2026-11-20T15:00:00Z';
const lead: Lead = {
  id: 2,
  name: 'Jorge Soto',
  phone: '987333444',
  email: null,
  id_document_type: null,
  document_number: null,
  channel: 'FACEBOOK',
  campaign: null,
  notes: null,
  subdivisions: [],
  agent: null,
  status: 'POR_ATENDER',
  lost_reason: null,
  next_follow_up_at: null,
  overdue: false,
  customer: null,
  last_activity_at: null,
  received_at: when,
  created_at: when,
  updated_at: when,
  version: 4,
};

function start() {
  const changeStatus = vi.fn(async (input: { lead: Lead; status: LeadStatus; reason: string | null }) => ({
    ...input.lead,
    status: input.status,
  }));
  const actor = createActor(
    leadDetailMachine.provide({
      actors: {
        load: fromPromise(async () => ({ lead, activities: [] as LeadActivity[] })),
        addActivity: fromPromise(async () => Promise.reject(new Error('unused'))),
        changeStatus: fromPromise(({ input }) => changeStatus(input)),
      },
    }),
  ).start();
  return { actor, changeStatus };
}

describe('leadDetailMachine: open with a status to move to', () => {
  it('requests an allowed status once the lead is loaded', async () => {
    const { actor, changeStatus } = start();
    actor.send({ type: 'detail.open', id: 2, status: 'EN_ATENCION' });
    await waitFor(actor, () => changeStatus.mock.calls.length > 0);
    expect(changeStatus).toHaveBeenCalledWith({ lead, status: 'EN_ATENCION', reason: null });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.queuedStatus).toBeNull();
  });

  it('asks the reason first for NO_CONCRETADO', async () => {
    const { actor, changeStatus } = start();
    actor.send({ type: 'detail.open', id: 2, status: 'NO_CONCRETADO' });
    await waitFor(actor, (s) => s.matches('askingReason'));
    expect(changeStatus).not.toHaveBeenCalled();
  });

  it('refuses a move the lead does not allow, and a plain open requests nothing', async () => {
    const { actor, changeStatus } = start();
    actor.send({ type: 'detail.open', id: 2, status: 'CONCRETADO' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.error).toBe('Este lead no puede pasar de «Por atender» a «Concretado»');
    actor.send({ type: 'detail.open', id: 2 });
    await waitFor(actor, (s) => s.matches('ready') && s.context.error === null);
    expect(changeStatus).not.toHaveBeenCalled();
  });
});
