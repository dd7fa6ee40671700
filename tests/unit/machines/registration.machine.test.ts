/**
 * Registration machine (issue "Foundation"; docs/product.md §3 "Customer registration", §7 row 1): client
 * validation with the server's zod schema, server 422 field errors on their fields, success toast
 * and output, and the customer-access machine switching to the login tab with the document number.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { registrationMachine, validateRegistration, type RegistrationValues } from '../../../src/machines/auth/registration.machine';
import { customerAccessMachine } from '../../../src/machines/auth/customer-access.machine';
import type { RegistrationRequest } from '../../../src/schemas/session';
import { apiError } from '../support/fakes';

const TODAY = '2025-06-15';
const valid: RegistrationValues = {
  id_document_type: '1',
  document_number: '45678912',
  name: 'Lucía',
  surname: 'Quispe',
  birthday_date: '1990-04-01',
  email: 'lucia@example.pe',
  phone: '987654321',
  password: 'secreto123',
};

function setup(register: (input: RegistrationRequest) => Promise<{ message: string }>) {
  const notify = vi.fn();
  const registerCustomer = vi.fn(register);
  const machine = registrationMachine.provide({
    actions: { notify: (_, toast) => notify(toast) },
    actors: { registerCustomer: fromPromise(({ input }) => registerCustomer(input)) },
  });
  const actor = createActor(machine, { input: { today: TODAY } }).start();
  const fill = (values: Partial<RegistrationValues>) => {
    for (const [field, value] of Object.entries(values)) {
      actor.send({ type: 'field.change', field: field as keyof RegistrationValues, value });
    }
  };
  return { actor, notify, registerCustomer, fill };
}

describe('validateRegistration (shared zod schema)', () => {
  it('accepts a valid adult', () => {
    expect(validateRegistration(valid, TODAY).ok).toBe(true);
  });

  it('reports each failing field with the schema message', () => {
    const result = validateRegistration(
      { ...valid, document_number: '123', email: 'no-es-correo', phone: '123', password: 'corta', birthday_date: '2010-01-01' },
      TODAY,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual({
      document_number: 'El DNI debe tener 8 dígitos',
      email: 'Ingrese un correo electrónico válido',
      phone: 'El celular debe tener 9 dígitos y empezar con 9',
      password: 'La contraseña debe tener al menos 8 caracteres',
      birthday_date: 'Debe ser mayor de edad para registrarse',
    });
  });

  it('uses today in Lima for the age rule (18th birthday is today → adult)', () => {
    expect(validateRegistration({ ...valid, birthday_date: '2007-06-15' }, TODAY).ok).toBe(true);
    expect(validateRegistration({ ...valid, birthday_date: '2007-06-16' }, TODAY).ok).toBe(false);
  });
});

describe('registration machine', () => {
  it('invalid form: stays in editing with field errors and never calls the server', () => {
    const { actor, registerCustomer } = setup(async () => ({ message: 'ok' }));
    actor.send({ type: 'form.submit' });
    const snap = actor.getSnapshot();
    expect(snap.value).toBe('editing');
    expect(snap.context.errors.document_number).toBe('Ingrese su número de documento');
    expect(snap.context.errors.name).toBe('Ingrese sus nombres');
    expect(snap.context.errors.surname).toBe('Ingrese sus apellidos');
    expect(snap.context.errors.birthday_date).toBe('Ingrese su fecha de nacimiento');
    expect(registerCustomer).not.toHaveBeenCalled();
  });

  it('editing a field clears only its error', () => {
    const { actor, fill } = setup(async () => ({ message: 'ok' }));
    actor.send({ type: 'form.submit' });
    fill({ name: 'Lucía' });
    const { errors } = actor.getSnapshot().context;
    expect(errors.name).toBeUndefined();
    expect(errors.surname).toBe('Ingrese sus apellidos');
  });

  it('valid form: submits the parsed request, toasts the server message and ends with the document number', async () => {
    const { actor, fill, notify, registerCustomer } = setup(async () => ({ message: 'Cuenta creada. Ya puede ingresar.' }));
    fill({ ...valid, name: '  Lucía  ' });
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().value).toBe('submitting');
    await waitFor(actor, (s) => s.status === 'done');
    expect(registerCustomer).toHaveBeenCalledWith({ ...valid, name: 'Lucía' });
    expect(notify).toHaveBeenCalledWith({ severity: 'success', summary: 'Cuenta creada. Ya puede ingresar.', life: 3000 });
    expect(actor.getSnapshot().output).toEqual({ documentNumber: '45678912', message: 'Cuenta creada. Ya puede ingresar.' });
  });

  it('server 422: field errors land on their fields', async () => {
    const { actor, fill, notify } = setup(async () =>
      Promise.reject(
        apiError(422, 'Los datos no son válidos', {
          document_number: ['El documento ya está registrado'],
          email: ['El correo ya está registrado', 'otro'],
        }),
      ),
    );
    fill(valid);
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('rejected'));
    const { errors, formError } = actor.getSnapshot().context;
    expect(errors).toEqual({ document_number: 'El documento ya está registrado', email: 'El correo ya está registrado' });
    expect(formError).toBeNull();
    expect(notify).not.toHaveBeenCalled();

    fill({ document_number: '45678913' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.errors.document_number).toBeUndefined();
  });

  it('server error without fields: the message goes to formError; errors on unknown paths too', async () => {
    const { actor, fill } = setup(async () => Promise.reject(apiError(429, 'Demasiados intentos')));
    fill(valid);
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('rejected'));
    expect(actor.getSnapshot().context.formError).toBe('Demasiados intentos');

    const second = setup(async () => Promise.reject(apiError(422, 'Datos inválidos', { captcha: ['Captcha requerido'] })));
    second.fill(valid);
    second.actor.send({ type: 'form.submit' });
    await waitFor(second.actor, (s) => s.matches('rejected'));
    expect(second.actor.getSnapshot().context.formError).toBe('Captcha requerido');
  });

  it('password.toggle flips the visibility', () => {
    const { actor } = setup(async () => ({ message: 'ok' }));
    actor.send({ type: 'password.toggle' });
    expect(actor.getSnapshot().context.showPassword).toBe(true);
  });
});

describe('customer-access machine', () => {
  it('after registration switches to the login tab with the document number prefilled', async () => {
    const machine = customerAccessMachine.provide({
      actors: {
        registration: registrationMachine.provide({
          actors: { registerCustomer: fromPromise(async () => ({ message: 'Cuenta creada' })) },
        }),
      },
    });
    const actor = createActor(machine, { input: { today: TODAY } }).start();
    expect(actor.getSnapshot().value).toBe('login');
    actor.send({ type: 'tab.select', tab: 'register' });
    const registration = actor.getSnapshot().children.registration!;
    for (const [field, value] of Object.entries(valid)) {
      registration.send({ type: 'field.change', field: field as keyof RegistrationValues, value });
    }
    registration.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('login'));
    const loginForm = actor.getSnapshot().children.loginForm!;
    expect(loginForm.getSnapshot().context.user).toBe('45678912');
    expect(loginForm.getSnapshot().context.userType).toBe('CUSTOMER');
  });

  it('switching tabs back and forth starts a fresh registration form', () => {
    const actor = createActor(customerAccessMachine, { input: { today: TODAY } }).start();
    actor.send({ type: 'tab.select', tab: 'register' });
    actor.getSnapshot().children.registration!.send({ type: 'field.change', field: 'name', value: 'X' });
    actor.send({ type: 'tab.select', tab: 'login' });
    actor.send({ type: 'tab.select', tab: 'register' });
    expect(actor.getSnapshot().children.registration!.getSnapshot().context.values.name).toBe('');
  });
});
