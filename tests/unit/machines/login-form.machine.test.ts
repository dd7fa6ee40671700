/**
 * login-form machine (issue "Foundation"; docs/product.md §3 "Login request"): client validation, the
 * show/hide toggle, and a valid submit handed to the session through the named `submitLogin`.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { loginFormMachine } from '../../../src/machines/auth/login-form.machine';

function setup(userType: 'COLLABORATOR' | 'CUSTOMER' = 'COLLABORATOR', user?: string) {
  const submitLogin = vi.fn();
  const clearServerError = vi.fn();
  const machine = loginFormMachine.provide({
    actions: { submitLogin: (_, request) => submitLogin(request), clearServerError: () => clearServerError() },
  });
  const actor = createActor(machine, { input: { userType, ...(user ? { user } : {}) } }).start();
  return { actor, submitLogin, clearServerError };
}

describe('login-form machine', () => {
  it('empty fields: errors per field, nothing submitted', () => {
    const { actor, submitLogin } = setup();
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().context.errors).toEqual({
      user: 'Ingrese su DNI o correo electrónico',
      password: 'Ingrese una contraseña',
    });
    expect(submitLogin).not.toHaveBeenCalled();
  });

  it('customers are asked for their document number', () => {
    const { actor } = setup('CUSTOMER');
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().context.errors.user).toBe('Ingrese su número de documento');
  });

  it('valid: submits {user (trimmed), password, user_type}; editing clears the server error', () => {
    const { actor, submitLogin, clearServerError } = setup('CUSTOMER', '45678912 ');
    actor.send({ type: 'field.change', field: 'password', value: 'secreto123' });
    expect(clearServerError).toHaveBeenCalledTimes(1);
    actor.send({ type: 'form.submit' });
    expect(submitLogin).toHaveBeenCalledWith({ user: '45678912', password: 'secreto123', user_type: 'CUSTOMER' });
  });

  it('password.toggle shows and hides the password', () => {
    const { actor } = setup();
    actor.send({ type: 'password.toggle' });
    expect(actor.getSnapshot().context.showPassword).toBe(true);
    actor.send({ type: 'password.toggle' });
    expect(actor.getSnapshot().context.showPassword).toBe(false);
  });
});
