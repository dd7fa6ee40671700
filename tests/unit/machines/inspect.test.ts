/** The optional Stately inspector hook (issue "Shell": `?inspect` in development). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { inspectOption, setInspector } from '../../../src/machines/inspect';

afterEach(() => setInspector(undefined));

describe('inspectOption', () => {
  it('is empty without an inspector and reports every event to one once installed', () => {
    expect(inspectOption()).toEqual({});
    const inspect = vi.fn();
    setInspector(inspect);
    const actor = createActor(createMachine({ initial: 'a', states: { a: { on: { go: 'b' } }, b: {} } }), inspectOption()).start();
    actor.send({ type: 'go' });
    expect(inspect).toHaveBeenCalledWith(expect.objectContaining({ type: '@xstate.event', event: { type: 'go' } }));
  });
});
