/**
 * reset-request machine (issue "Foundation"; docs/product.md §3 "Password reset request: dni", §7 rows 4/5):
 * idle → submitting → sent | failed, with the server's message.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { resetRequestMachine } from '../../../src/machines/auth/reset-request.machine';
import type { ResetType } from '../../../src/schemas/session';
import { apiError } from '../support/fakes';

function setup(request: (input: { type: ResetType; dni: string }) => Promise<{ message: string }>, type: ResetType = 'collaborator') {
  const requestReset = vi.fn(request);
  const machine = resetRequestMachine.provide({
    actors: { requestReset: fromPromise(({ input }) => requestReset(input)) },
  });
  return { actor: createActor(machine, { input: { type } }).start(), requestReset };
}

describe('reset-request machine', () => {
  it('an empty document is refused on the client', () => {
    const { actor, requestReset } = setup(async () => ({ message: 'ok' }));
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.fieldError).toBe('Ingrese su número de documento');
    expect(requestReset).not.toHaveBeenCalled();
    actor.send({ type: 'field.change', value: '4' });
    expect(actor.getSnapshot().context.fieldError).toBeNull();
  });

  it('sent: shows the server message; the type and trimmed dni are sent', async () => {
    const { actor, requestReset } = setup(async () => ({ message: 'Si el documento está registrado, recibirá un enlace.' }), 'customer');
    actor.send({ type: 'field.change', value: ' 45678912 ' });
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().value).toBe('submitting');
    await waitFor(actor, (s) => s.matches('sent'));
    expect(requestReset).toHaveBeenCalledWith({ type: 'customer', dni: '45678912' });
    expect(actor.getSnapshot().context.message).toBe('Si el documento está registrado, recibirá un enlace.');
  });

  it('failed: keeps the server message and allows a retry', async () => {
    let calls = 0;
    const { actor } = setup(async () => {
      calls += 1;
      if (calls === 1) throw apiError(429, 'Demasiadas solicitudes. Inténtelo más tarde.');
      return { message: 'Enviado' };
    });
    actor.send({ type: 'field.change', value: '45678912' });
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.message).toBe('Demasiadas solicitudes. Inténtelo más tarde.');
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('sent'));
    expect(actor.getSnapshot().context.message).toBe('Enviado');
  });
});
