/**
 * login-form machine (issue "Foundation"; docs/product.md §3 "Login request"): client validation, the
 * show/hide toggle, and a valid submit handed to the session through the named `submitLogin`.
 * The validation (the shared zod schema) is imported at the submit, so a submit settles a moment
 * later: the tests wait for the machine to be back in `editing`.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor, type AnyActorLogic } from 'xstate';
import { loginFormMachine } from '../../../src/machines/auth/login-form.machine';
import { NETWORK_ERROR_MESSAGE } from '../../../src/api/http';

function setup(userType: 'COLLABORATOR' | 'CUSTOMER' = 'COLLABORATOR', user?: string, validate?: AnyActorLogic) {
  const submitLogin = vi.fn();
  const clearServerError = vi.fn();
  const prepare = vi.fn();
  const machine = loginFormMachine.provide({
    actions: { submitLogin: (_, request) => submitLogin(request), clearServerError: () => clearServerError(), prepare: () => prepare() },
    ...(validate ? { actors: { validate: validate as never } } : {}),
  });
  const actor = createActor(machine, { input: { userType, ...(user ? { user } : {}) } }).start();
  return { actor, submitLogin, clearServerError, prepare };
}

/** Submits and waits until the validation has answered. */
async function submit(actor: ReturnType<typeof setup>['actor']) {
  actor.send({ type: 'form.submit' });
  expect(actor.getSnapshot().matches('validating')).toBe(true);
  return waitFor(actor, (s) => s.matches('editing'));
}

describe('login-form machine', () => {
  it('empty fields: errors per field, nothing submitted', async () => {
    const { actor, submitLogin } = setup();
    const snapshot = await submit(actor);
    expect(snapshot.context.errors).toEqual({
      user: 'Ingrese su DNI o correo electrónico',
      password: 'Ingrese una contraseña',
    });
    expect(submitLogin).not.toHaveBeenCalled();
  });

  it('customers are asked for their document number', async () => {
    const { actor } = setup('CUSTOMER');
    expect((await submit(actor)).context.errors.user).toBe('Ingrese su número de documento');
  });

  it('valid: submits {user (trimmed), password, user_type}; editing clears the server error', async () => {
    const { actor, submitLogin, clearServerError } = setup('CUSTOMER', '45678912 ');
    actor.send({ type: 'field.change', field: 'password', value: 'secreto123' });
    expect(clearServerError).toHaveBeenCalledTimes(1);
    await submit(actor);
    expect(submitLogin).toHaveBeenCalledWith({ user: '45678912', password: 'secreto123', user_type: 'CUSTOMER' });
  });

  it('focusing the form and submitting start fetching what a submit needs; a second submit while validating is ignored', async () => {
    const { actor, prepare, submitLogin } = setup('COLLABORATOR', '45678912');
    actor.send({ type: 'form.focused' });
    expect(prepare).toHaveBeenCalledTimes(1);
    actor.send({ type: 'field.change', field: 'password', value: 'secreto123' });
    actor.send({ type: 'form.submit' });
    actor.send({ type: 'form.submit' });
    expect(prepare).toHaveBeenCalledTimes(2);
    await waitFor(actor, (s) => s.matches('editing'));
    expect(submitLogin).toHaveBeenCalledTimes(1);
  });

  it('the validation cannot be fetched: the network message, cleared by the next edit; nothing submitted', async () => {
    const { actor, submitLogin } = setup(
      'COLLABORATOR',
      '45678912',
      fromPromise(async () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'))),
    );
    expect((await submit(actor)).context.failure).toBe(NETWORK_ERROR_MESSAGE);
    expect(submitLogin).not.toHaveBeenCalled();
    actor.send({ type: 'field.change', field: 'password', value: 'x' });
    expect(actor.getSnapshot().context.failure).toBeNull();
  });

  it('password.toggle shows and hides the password', () => {
    const { actor } = setup();
    actor.send({ type: 'password.toggle' });
    expect(actor.getSnapshot().context.showPassword).toBe(true);
    actor.send({ type: 'password.toggle' });
    expect(actor.getSnapshot().context.showPassword).toBe(false);
  });
});
