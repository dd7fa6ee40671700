/**
 * Public auth screens (issue "Foundation"): staff login with the server's error, login success,
 * customer registration with client and server field errors, password reset request and new
 * password. Rendered through the real app router with fake effects.
 */
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { renderApp } from './render-app';
import { apiError, fakeSessionApi, memoryStore } from '../unit/support/fakes';

/** Opens the "Registrarme" tab and fills every field with valid values. */
async function fillRegistration(user: ReturnType<typeof renderApp>['user']) {
  await user.click(await screen.findByRole('tab', { name: 'Registrarme' }));
  await user.selectOptions(await screen.findByLabelText('Tipo de documento'), '1');
  await user.type(screen.getByLabelText('Número de documento'), '45678912');
  await user.type(screen.getByLabelText('Nombres'), 'Lucía');
  await user.type(screen.getByLabelText('Apellidos'), 'Quispe');
  await user.type(screen.getByLabelText('Fecha de nacimiento'), '01/04/1990');
  await user.type(screen.getByLabelText('Correo electrónico'), 'lucia@example.pe');
  await user.type(screen.getByLabelText('Celular'), '987654321');
  await user.type(screen.getByLabelText('Contraseña'), 'secreto123');
}

describe('staff login (/auth/login)', () => {
  it('shows the server message when the login fails', async () => {
    const api = fakeSessionApi({ login: vi.fn(async () => Promise.reject(apiError(422, 'Usuario o contraseña incorrectos'))) });
    const { user, path } = renderApp('/auth/login', { api });
    expect(screen.getByRole('heading', { name: 'Iniciar sesión' })).toBeTruthy();
    await user.type(screen.getByLabelText('DNI o correo electrónico'), '45678912');
    await user.type(screen.getByLabelText('Contraseña'), 'mala-clave');
    await user.click(screen.getByRole('button', { name: 'Ingresar' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Usuario o contraseña incorrectos');
    expect(api.login).toHaveBeenCalledWith({ user: '45678912', password: 'mala-clave', user_type: 'COLLABORATOR' });
    expect(path()).toBe('/auth/login');

    // Editing the form clears the server message.
    await user.type(screen.getByLabelText('Contraseña'), 'x');
    expect(screen.queryByText('Usuario o contraseña incorrectos')).toBeNull();
  });

  it('shows client errors and does not call the server with empty fields', async () => {
    const { user, api } = renderApp('/auth/login');
    await user.click(screen.getByRole('button', { name: 'Ingresar' }));
    expect(await screen.findByText('Ingrese su DNI o correo electrónico')).toBeTruthy();
    expect(screen.getByText('Ingrese una contraseña')).toBeTruthy();
    expect(api.login).not.toHaveBeenCalled();
  });

  it('the password is masked and can be shown', async () => {
    const { user } = renderApp('/auth/login');
    const input = screen.getByLabelText('Contraseña') as HTMLInputElement;
    expect(input.type).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Mostrar contraseña' }));
    expect((screen.getByLabelText('Contraseña') as HTMLInputElement).type).toBe('text');
    await user.click(screen.getByRole('button', { name: 'Ocultar contraseña' }));
    expect((screen.getByLabelText('Contraseña') as HTMLInputElement).type).toBe('password');
  });

  it('a successful login lands on Inicio with the name and the active location', async () => {
    const { user, path, store } = renderApp('/auth/login');
    await user.type(screen.getByLabelText('DNI o correo electrónico'), '45678912');
    await user.type(screen.getByLabelText('Contraseña'), 'secreto123');
    await user.click(screen.getByRole('button', { name: 'Ingresar' }));
    expect(await screen.findByRole('heading', { name: 'Hola, Lucía' })).toBeTruthy();
    expect(path()).toBe('/');
    expect(screen.getByText('Bienvenido(a), Lucía Quispe Mamani')).toBeTruthy();
    expect(screen.getByText('Local activo: Sede Central - Lima')).toBeTruthy();
    expect(store.data.get('token')).toBeTruthy();
    expect(document.title).toBe('Inicio | Parcela');
  });

  it('links to password recovery, customer login and the landing', () => {
    renderApp('/auth/login');
    expect(screen.getByRole('link', { name: '¿Olvidó su contraseña?' }).getAttribute('href')).toBe('/auth/recuperar/collaborator');
    expect(screen.getByRole('link', { name: '¿Es cliente? Ingrese aquí' }).getAttribute('href')).toBe('/auth/loginclientes');
    expect(screen.getByRole('link', { name: 'Conozca nuestros lotes' }).getAttribute('href')).toBe('/landing');
  });
});

describe('customer access (/auth/loginclientes)', () => {
  it('logs customers in with user_type CUSTOMER', async () => {
    const api = fakeSessionApi({ login: vi.fn(async () => Promise.reject(apiError(422, 'Usuario o contraseña incorrectos'))) });
    const { user } = renderApp('/auth/loginclientes', { api });
    await user.type(await screen.findByLabelText('Número de documento'), '45678912');
    await user.type(screen.getByLabelText('Contraseña'), 'secreto123');
    await user.click(screen.getByRole('button', { name: 'Ingresar' }));
    expect(await screen.findByText('Usuario o contraseña incorrectos')).toBeTruthy();
    expect(api.login).toHaveBeenCalledWith({ user: '45678912', password: 'secreto123', user_type: 'CUSTOMER' });
  });

  it('registration shows client field errors under their fields', async () => {
    const { user, api } = renderApp('/auth/loginclientes');
    await user.click(await screen.findByRole('tab', { name: 'Registrarme' }));
    await user.type(await screen.findByLabelText('Correo electrónico'), 'no-es-correo');
    await user.type(screen.getByLabelText('Celular'), '12345');
    await user.click(screen.getByRole('button', { name: 'Crear cuenta' }));
    expect(screen.getByText('Ingrese su número de documento')).toBeTruthy();
    expect(screen.getByText('Ingrese sus nombres')).toBeTruthy();
    expect(screen.getByText('Ingrese un correo electrónico válido')).toBeTruthy();
    expect(screen.getByText('El celular debe tener 9 dígitos y empezar con 9')).toBeTruthy();
    const email = screen.getByLabelText('Correo electrónico');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toBe('register-email-error');
    expect(api.registerCustomer).not.toHaveBeenCalled();
  });

  it('registration shows the server 422 field errors on their fields', async () => {
    const api = fakeSessionApi({
      registerCustomer: vi.fn(async () =>
        Promise.reject(apiError(422, 'Datos inválidos', { document_number: ['El documento ya está registrado'] })),
      ),
    });
    const { user } = renderApp('/auth/loginclientes', { api });
    await fillRegistration(user);
    await user.click(screen.getByRole('button', { name: 'Crear cuenta' }));
    expect(await screen.findByText('El documento ya está registrado')).toBeTruthy();
    expect(screen.getByLabelText('Número de documento').getAttribute('aria-describedby')).toBe('register-document_number-error');
    expect(api.registerCustomer).toHaveBeenCalledWith({
      id_document_type: '1',
      document_number: '45678912',
      name: 'Lucía',
      surname: 'Quispe',
      birthday_date: '1990-04-01',
      email: 'lucia@example.pe',
      phone: '987654321',
      password: 'secreto123',
    });
  });

  it('a successful registration toasts and switches to the login tab with the document prefilled', async () => {
    const api = fakeSessionApi({
      registerCustomer: vi.fn(async () => ({ message: 'Cuenta creada. Ya puede ingresar.', data: { id: 9 } })),
    });
    const { user, toaster } = renderApp('/auth/loginclientes', { api });
    await fillRegistration(user);
    await user.click(screen.getByRole('button', { name: 'Crear cuenta' }));
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Ingresar' }).getAttribute('aria-selected')).toBe('true'));
    expect((screen.getByLabelText('Número de documento') as HTMLInputElement).value).toBe('45678912');
    expect(screen.queryByRole('button', { name: 'Crear cuenta' })).toBeNull();
    expect(toaster.show).toHaveBeenCalledWith({ severity: 'success', summary: 'Cuenta creada. Ya puede ingresar.', life: 3000 });
  });

  it('offers the four SUNAT document types', async () => {
    const { user } = renderApp('/auth/loginclientes');
    await user.click(await screen.findByRole('tab', { name: 'Registrarme' }));
    const options = within(await screen.findByLabelText('Tipo de documento')).getAllByRole('option');
    expect(options.map((o) => [(o as HTMLOptionElement).value, o.textContent])).toEqual([
      ['1', 'DNI'],
      ['4', 'Carné de extranjería'],
      ['6', 'RUC'],
      ['7', 'Pasaporte'],
    ]);
  });
});

describe('birthday field (registration)', () => {
  async function openRegistration() {
    const app = renderApp('/auth/loginclientes');
    await app.user.click(await screen.findByRole('tab', { name: 'Registrarme' }));
    const input = (await screen.findByLabelText('Fecha de nacimiento')) as HTMLInputElement;
    return { ...app, input };
  }

  it('reads dd/mm/aaaa and sends the ISO date', async () => {
    const api = fakeSessionApi({ registerCustomer: vi.fn(async () => Promise.reject(apiError(422, 'Datos inválidos'))) });
    const { user } = renderApp('/auth/loginclientes', { api });
    await fillRegistration(user);
    expect((screen.getByLabelText('Fecha de nacimiento') as HTMLInputElement).value).toBe('01/04/1990');
    await user.click(screen.getByRole('button', { name: 'Crear cuenta' }));
    await waitFor(() => expect(api.registerCustomer).toHaveBeenCalledWith(expect.objectContaining({ birthday_date: '1990-04-01' })));
  });

  it('opens a Spanish calendar with "Hoy" and "Limpiar"', async () => {
    const { user, input } = await openRegistration();
    expect(input.getAttribute('placeholder')).toBe('Elegir fecha');
    expect(screen.getByText('dd/mm/aaaa')).toBeTruthy();
    await user.click(input);
    expect(await screen.findByRole('button', { name: 'Hoy' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Limpiar' })).toBeTruthy();
    expect(screen.getAllByRole('option', { name: /^junio$/i }).length).toBeGreaterThan(0);
    expect(screen.getAllByText(/^lu$/i).length).toBeGreaterThan(0);
  });

  it('refuses an impossible date and asks for a missing one', async () => {
    const { user, input, api } = await openRegistration();
    await user.click(screen.getByRole('button', { name: 'Crear cuenta' }));
    expect(screen.getByText('Ingrese su fecha de nacimiento')).toBeTruthy();
    await user.type(input, '31/02/1990');
    await user.click(screen.getByLabelText('Correo electrónico'));
    await user.click(screen.getByRole('button', { name: 'Crear cuenta' }));
    expect(await screen.findByText('Fecha inválida', { selector: '#register-birthday_date-error' })).toBeTruthy();
    expect(screen.getByLabelText('Fecha de nacimiento').getAttribute('aria-describedby')).toBe('register-birthday_date-error');
    expect(api.registerCustomer).not.toHaveBeenCalled();
  });
});

describe('password recovery', () => {
  it('/auth/recuperar/customer sends the document number and shows the server message', async () => {
    const api = fakeSessionApi({ requestPasswordReset: vi.fn(async () => ({ message: 'Le enviamos un enlace a su correo.' })) });
    const { user } = renderApp('/auth/recuperar/customer', { api });
    expect(document.title).toBe('Recuperar contraseña | Parcela');
    await user.type(await screen.findByLabelText('Número de documento'), '45678912');
    await user.click(screen.getByRole('button', { name: 'Enviar enlace' }));
    expect(await screen.findByText('Le enviamos un enlace a su correo.')).toBeTruthy();
    expect(api.requestPasswordReset).toHaveBeenCalledWith('customer', '45678912');
    expect(screen.getByRole('link', { name: 'Volver al inicio de sesión' }).getAttribute('href')).toBe('/auth/loginclientes');
  });

  it('/auth/recuperar/collaborator asks for the DNI; an unknown type is not found', async () => {
    renderApp('/auth/recuperar/collaborator');
    expect(await screen.findByLabelText('DNI')).toBeTruthy();
  });

  it('an unknown recovery type redirects to /pages/notfound', async () => {
    const { path } = renderApp('/auth/recuperar/otro');
    await waitFor(() => expect(path()).toBe('/pages/notfound'));
  });

  it('new password: mismatched confirmation is refused on the client', async () => {
    const { user, api } = renderApp('/auth/reset_password/tok123/collaborator');
    await user.type(await screen.findByLabelText('Nueva contraseña'), 'nuevaClave1');
    await user.type(screen.getByLabelText('Confirme la nueva contraseña'), 'otraClave1');
    await user.click(screen.getByRole('button', { name: 'Guardar contraseña' }));
    expect(screen.getByText('Los campos de la nueva contraseña debe de ser iguales')).toBeTruthy();
    expect(api.resetPassword).not.toHaveBeenCalled();
  });

  it('new password: success shows the message and a link to the right login', async () => {
    const api = fakeSessionApi({ resetPassword: vi.fn(async () => ({ message: 'Contraseña actualizada correctamente' })) });
    const { user } = renderApp('/auth/reset_password/tok123/customer', { api });
    await user.type(await screen.findByLabelText('Nueva contraseña'), 'nuevaClave1');
    await user.type(screen.getByLabelText('Confirme la nueva contraseña'), 'nuevaClave1');
    await user.click(screen.getByRole('button', { name: 'Guardar contraseña' }));
    expect(await screen.findByText('Contraseña actualizada correctamente')).toBeTruthy();
    expect(api.resetPassword).toHaveBeenCalledWith('customer', 'tok123', 'nuevaClave1');
    expect(screen.getByRole('link', { name: 'Ir al inicio de sesión' }).getAttribute('href')).toBe('/auth/loginclientes');
  });

  it('new password: a bad or used link is said on arrival, before any password is typed (docs/decisions.md "Customer journey details (accessibility)")', async () => {
    const api = fakeSessionApi({
      checkResetLink: vi.fn(async () => Promise.reject(apiError(422, 'El enlace de recuperación no es válido o ha expirado'))),
    });
    renderApp('/auth/reset_password/tok123/customer', { api, store: memoryStore() });
    expect(await screen.findByText('El enlace de recuperación no es válido o ha expirado')).toBeTruthy();
    expect(api.checkResetLink).toHaveBeenCalledWith('customer', 'tok123');
    expect(screen.getByRole('link', { name: 'Solicitar un nuevo enlace' }).getAttribute('href')).toBe('/auth/recuperar/customer');
    expect(screen.queryByLabelText('Nueva contraseña')).toBeNull();
    expect(api.resetPassword).not.toHaveBeenCalled();
  });

  it('new password: a usable link shows the form once checked', async () => {
    const { api } = renderApp('/auth/reset_password/tok123/collaborator');
    expect(await screen.findByLabelText('Nueva contraseña')).toBeTruthy();
    expect(api.checkResetLink).toHaveBeenCalledWith('collaborator', 'tok123');
  });

  it('new password: 422 shows the invalid-link message and a link to request a new one', async () => {
    const api = fakeSessionApi({ resetPassword: vi.fn(async () => Promise.reject(apiError(422, 'Token vencido'))) });
    const { user } = renderApp('/auth/reset_password/tok123/collaborator', { api, store: memoryStore() });
    await user.type(await screen.findByLabelText('Nueva contraseña'), 'nuevaClave1');
    await user.type(screen.getByLabelText('Confirme la nueva contraseña'), 'nuevaClave1');
    await user.click(screen.getByRole('button', { name: 'Guardar contraseña' }));
    expect(await screen.findByText('El enlace de recuperación no es válido o ha expirado')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Solicitar un nuevo enlace' }).getAttribute('href')).toBe('/auth/recuperar/collaborator');
  });
});
