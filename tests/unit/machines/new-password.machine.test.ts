/**
 * new-password machine (issue "Foundation"; docs/product.md §3 "New password: id, password", §7 row 6):
 * ≥ 8 characters, equal confirmation, token and type from the URL, 422 → invalid link.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  INVALID_LINK_MESSAGE,
  PASSWORDS_DIFFER_MESSAGE,
  newPasswordMachine,
  validateNewPassword,
} from '../../../src/machines/auth/new-password.machine';
import { apiError } from '../support/fakes';

type ResetInput = { type: string; id: string; password: string };

function setup(
  reset: (input: ResetInput) => Promise<{ message: string }>,
  input = { token: 'tok123', type: 'customer' },
  check: (input: { type: string; id: string }) => Promise<{ message: string }> = async () => ({ message: 'ok' }),
) {
  const resetPassword = vi.fn(reset);
  const checkLink = vi.fn(check);
  const machine = newPasswordMachine.provide({
    actors: {
      resetPassword: fromPromise(({ input: i }) => resetPassword(i)),
      checkLink: fromPromise(({ input: i }) => checkLink(i)),
    },
  });
  const actor = createActor(machine, { input }).start();
  /** Types both fields once the link was checked on arrival. */
  const fill = async (password: string, confirmation: string) => {
    await waitFor(actor, (s) => !s.matches('verifying'));
    actor.send({ type: 'field.change', field: 'password', value: password });
    actor.send({ type: 'field.change', field: 'confirmation', value: confirmation });
  };
  return { actor, resetPassword, checkLink, fill };
}

describe('validateNewPassword', () => {
  it('needs 8 characters and an equal confirmation', () => {
    expect(validateNewPassword('12345678', '12345678')).toEqual({});
    expect(validateNewPassword('1234567', '1234567').password).toBe('La contraseña debe tener al menos 8 caracteres');
    expect(validateNewPassword('12345678', '')).toEqual({ confirmation: 'Confirme la nueva contraseña' });
    expect(validateNewPassword('12345678', '12345679')).toEqual({ confirmation: PASSWORDS_DIFFER_MESSAGE });
  });
});

describe('new-password machine', () => {
  it('shows client errors and does not call the server', async () => {
    const { actor, fill, resetPassword } = setup(async () => ({ message: 'ok' }));
    await fill('corta', 'otra');
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.errors).toEqual({
      password: 'La contraseña debe tener al menos 8 caracteres',
      confirmation: PASSWORDS_DIFFER_MESSAGE,
    });
    expect(resetPassword).not.toHaveBeenCalled();
  });

  it('sends the URL token and type with the new password; success keeps the server message', async () => {
    const { actor, fill, resetPassword } = setup(async () => ({ message: 'Su contraseña fue actualizada' }));
    await fill('nuevaClave1', 'nuevaClave1');
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('success'));
    expect(resetPassword).toHaveBeenCalledWith({ type: 'customer', id: 'tok123', password: 'nuevaClave1' });
    expect(actor.getSnapshot().context.message).toBe('Su contraseña fue actualizada');
  });

  it('422 → invalidLink with the Spanish message', async () => {
    const { actor, fill } = setup(async () => Promise.reject(apiError(422, 'Token inválido')));
    await fill('nuevaClave1', 'nuevaClave1');
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('invalidLink'));
    expect(actor.getSnapshot().context.message).toBe(INVALID_LINK_MESSAGE);
    expect(INVALID_LINK_MESSAGE).toBe('El enlace de recuperación no es válido o ha expirado');
  });

  it('another error → failed with the server message; the user may retry', async () => {
    let calls = 0;
    const { actor, fill } = setup(async () => {
      calls += 1;
      if (calls === 1) throw apiError(500, 'Error interno del servidor');
      return { message: 'Listo' };
    });
    await fill('nuevaClave1', 'nuevaClave1');
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.message).toBe('Error interno del servidor');
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('success'));
  });

  it('an unknown {type} in the URL is an invalid link from the start', () => {
    const { actor } = setup(async () => ({ message: 'ok' }), { token: 'tok', type: 'admin' });
    expect(actor.getSnapshot().value).toBe('invalidLink');
  });

  it('checks the link on arrival without the form: a 422 is an invalid link before any password is typed', async () => {
    const { actor, checkLink, resetPassword } = setup(
      async () => ({ message: 'ok' }),
      { token: 'usado', type: 'collaborator' },
      async () => Promise.reject(apiError(422, 'El enlace de recuperación no es válido o ha expirado')),
    );
    expect(actor.getSnapshot().value).toBe('verifying');
    // Typing while the link is checked does not skip the check.
    actor.send({ type: 'field.change', field: 'password', value: 'x' });
    expect(actor.getSnapshot().value).toBe('verifying');
    await waitFor(actor, (s) => s.matches('invalidLink'));
    expect(checkLink).toHaveBeenCalledWith({ type: 'collaborator', id: 'usado' });
    expect(actor.getSnapshot().context.message).toBe(INVALID_LINK_MESSAGE);
    expect(resetPassword).not.toHaveBeenCalled();
  });

  it('a usable link, or a check that fails for another reason (offline, 500), shows the form', async () => {
    const ok = setup(async () => ({ message: 'ok' }));
    await waitFor(ok.actor, (s) => s.matches('editing'));
    const offline = setup(
      async () => ({ message: 'ok' }),
      undefined,
      async () => Promise.reject(apiError(500, 'Error interno del servidor')),
    );
    await waitFor(offline.actor, (s) => s.matches('editing'));
  });
});
