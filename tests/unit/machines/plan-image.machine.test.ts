import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, waitFor } from 'xstate';
import { createPlanImageMachine } from '../../../src/machines/proyectos/plan-image.machine';

/**
 * The subdivision plan (Lotizaciones editor): after an upload the plan machine itself tells the
 * subdivisions list to refresh, through the list's ref in its input — no view relays it.
 */
describe('planImage machine', () => {
  it('uploads, loads the new plan and sends list.refresh to the list it was given', async () => {
    const received: string[] = [];
    const list = createActor(createMachine({ on: { '*': { actions: ({ event }) => void received.push(event.type) } } })).start();
    const uploaded = { key: 'k1', plan_url: '/api/subdivisions/k1/plan?v=2' };
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:plan');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const machine = createPlanImageMachine({
      subdivisionsApi: { planBlob: vi.fn(async () => new Blob(['png'])), uploadPlan: vi.fn(async () => uploaded as never) },
      reportApiError: vi.fn(),
    });
    const actor = createActor(machine, { input: { target: 'k1', url: null, list } }).start();
    actor.send({ type: 'image.upload', file: new File(['png'], 'plano.png', { type: 'image/png' }) });
    await waitFor(actor, (s) => s.context.objectUrl === 'blob:plan');
    expect(received).toEqual(['list.refresh']);
    expect(actor.getSnapshot().context.url).toBe(uploaded.plan_url);
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    vi.restoreAllMocks();
  });
});
