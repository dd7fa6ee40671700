/**
 * Consumer contract of the session calls (docs/product.md §7 rows 1–11 and 15) between the web app
 * (`parcela-web`) and the API (`parcela-api`). Each interaction drives the real `src/api` function
 * against the Pact mock server and asserts on its parsed result or its ApiError.
 */
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createSessionApi } from '../../../src/api/session';
import { bearer, caught, formRequest, httpPact, mockClient } from './pact-helpers';
import { CUSTOMER, CUSTOMER_TOKEN, NEW_CUSTOMER, RESET_TOKEN, STAFF, STAFF_TOKEN, STATES } from '../states';

const { like, eachLike, integer, regex, boolean } = MatchersV3;

const pact = httpPact();
const apiFor = (url: string, token: string | null = null) => createSessionApi(mockClient(url, token));
const JSON_HEADERS = { 'Content-Type': 'application/json' };
const errorBody = (message: string, field?: string) => ({
  message: like(message),
  ...(field ? { errors: { [field]: eachLike(message) } } : {}),
});

const menuGroups = eachLike({
  nombre: like('Configuración'),
  icono: like('cog'),
  items: eachLike({ nombre: like('Usuarios'), ruta: like('/Configuracion/Usuarios'), icono: like('people') }),
});

describe('session calls (docs/product.md §7)', () => {
  it('row 1: registers a customer', async () => {
    await pact
      .addInteraction()
      .given(STATES.noCustomerWithDocument)
      .uponReceiving('a customer registration')
      .withRequest('POST', '/api/customer/register_user_customer', (b) => b.headers(JSON_HEADERS).jsonBody(NEW_CUSTOMER))
      .willRespondWith(201, (b) => b.jsonBody({ message: like('Registro exitoso. Ya puede iniciar sesión.'), data: { id: integer(10) } }))
      .executeTest(async (mock) => {
        const res = await apiFor(mock.url).registerCustomer({ ...NEW_CUSTOMER });
        expect(res.data.id).toBeGreaterThan(0);
      });
  });

  it('row 1: rejects a document number already registered with a field error', async () => {
    const body = { ...NEW_CUSTOMER, document_number: CUSTOMER.document_number };
    await pact
      .addInteraction()
      .given(STATES.customerExists)
      .uponReceiving('a customer registration with a document number already registered')
      .withRequest('POST', '/api/customer/register_user_customer', (b) => b.headers(JSON_HEADERS).jsonBody(body))
      .willRespondWith(422, (b) =>
        b.jsonBody({
          message: like('Los datos enviados no son válidos'),
          errors: { document_number: eachLike('El número de documento ya está registrado') },
        }),
      )
      .executeTest(async (mock) => {
        const error = await caught(apiFor(mock.url).registerCustomer(body));
        expect(error.status).toBe(422);
        expect(error.issues.document_number?.[0]).toBe('El número de documento ya está registrado');
      });
  });

  it('row 2: signs a staff user in by DNI', async () => {
    await pact
      .addInteraction()
      .given(STATES.staffExists)
      .uponReceiving('a staff login with valid credentials')
      .withRequest('POST', '/api/auth/login', (b) =>
        b.headers(JSON_HEADERS).jsonBody({ user: STAFF.dni, password: STAFF.password, user_type: 'COLLABORATOR' }),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            token: regex(/^[0-9a-f]{64}$/, 'f'.repeat(64)),
            // docs/product.md §6: any type other than CUSTOMER is staff (the reader maps it with sessionTypeOf).
            type: like('COLLABORATOR'),
            system_styles: null,
            user: {
              id: integer(1),
              name: like(STAFF.name),
              surname: like(STAFF.surname),
              dni: STAFF.dni,
              email: like(STAFF.email),
              phone: like(STAFF.phone),
              status: like('ACTIVO'),
              roles: eachLike('Administrador'),
              permissions_names: menuGroups,
            },
          },
        }),
      )
      .executeTest(async (mock) => {
        const data = await apiFor(mock.url).login({ user: STAFF.dni, password: STAFF.password, user_type: 'COLLABORATOR' });
        expect(data.type).toBe('COLLABORATOR');
        expect(data.user.dni).toBe(STAFF.dni);
        expect(data.user.permissions_names[0]?.items[0]?.ruta).toMatch(/^\//);
      });
  });

  it('row 2: signs a customer in by document number', async () => {
    await pact
      .addInteraction()
      .given(STATES.customerExists)
      .uponReceiving('a customer login with valid credentials')
      .withRequest('POST', '/api/auth/login', (b) =>
        b.headers(JSON_HEADERS).jsonBody({ user: CUSTOMER.document_number, password: CUSTOMER.password, user_type: 'CUSTOMER' }),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            token: regex(/^[0-9a-f]{64}$/, 'f'.repeat(64)),
            type: 'CUSTOMER',
            system_styles: null,
            user: {
              id: integer(1),
              name: like(CUSTOMER.name),
              surname: like(CUSTOMER.surname),
              dni: CUSTOMER.document_number,
              email: like(CUSTOMER.email),
              phone: like(CUSTOMER.phone),
              status: like('ACTIVO'),
              roles: eachLike('Cliente'),
              permissions_names: eachLike({
                nombre: like('Comercial'),
                icono: like('shop'),
                items: eachLike({ nombre: like('Mis Compras'), ruta: like('/Comercio/MisCompras'), icono: like('home') }),
              }),
            },
          },
        }),
      )
      .executeTest(async (mock) => {
        const data = await apiFor(mock.url).login({
          user: CUSTOMER.document_number,
          password: CUSTOMER.password,
          user_type: 'CUSTOMER',
        });
        expect(data.type).toBe('CUSTOMER');
        expect(data.user.dni).toBe(CUSTOMER.document_number);
      });
  });

  it('row 2: answers 422 "Usuario o contraseña incorrectos" to a wrong password', async () => {
    await pact
      .addInteraction()
      .given(STATES.staffExists)
      .uponReceiving('a staff login with a wrong password')
      .withRequest('POST', '/api/auth/login', (b) =>
        b.headers(JSON_HEADERS).jsonBody({ user: STAFF.dni, password: 'incorrecta', user_type: 'COLLABORATOR' }),
      )
      .willRespondWith(422, (b) => b.jsonBody({ message: like('Usuario o contraseña incorrectos') }))
      .executeTest(async (mock) => {
        const error = await caught(apiFor(mock.url).login({ user: STAFF.dni, password: 'incorrecta', user_type: 'COLLABORATOR' }));
        expect(error.status).toBe(422);
        expect(error.message).toBe('Usuario o contraseña incorrectos');
      });
  });

  it('row 3: reads the realtime credentials and channels', async () => {
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a request for the realtime credentials')
      .withRequest('GET', '/api/get_websocket_and_channels_credentials', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            echo_info: {
              broadcaster: 'pusher',
              key: like('parcela-key'),
              cluster: like('mt1'),
              encrypted: boolean(false),
              // wsHost, wsPort, forceTLS and authEndpoint are optional for the reader (defaults in
              // src/machines/realtime/echo-options.ts): not required of the provider.
            },
            channels: {
              'administration.notifications': { channel: like('administration.notifications.1') },
              'administration.notifications_customers': { channel: like('administration.notifications_customers.0') },
            },
          },
        }),
      )
      .executeTest(async (mock) => {
        const data = await apiFor(mock.url, STAFF_TOKEN).realtimeCredentials();
        expect(data.echo_info.broadcaster).toBe('pusher');
        expect(data.channels['administration.notifications'].channel).toContain('administration.notifications');
      });
  });

  it('row 4: requests a staff password reset', async () => {
    await pact
      .addInteraction()
      .given(STATES.staffExists)
      .uponReceiving('a staff password reset request')
      .withRequest('POST', '/api/request_password_reset_collaborator', (b) => b.headers(JSON_HEADERS).jsonBody({ dni: STAFF.dni }))
      .willRespondWith(200, (b) =>
        b.jsonBody({ message: like('Si el documento está registrado, enviaremos un enlace de recuperación a su correo.') }),
      )
      .executeTest(async (mock) => {
        const res = await apiFor(mock.url).requestPasswordReset('collaborator', STAFF.dni);
        expect(res.message.length).toBeGreaterThan(0);
      });
  });

  it('row 5: requests a customer password reset', async () => {
    await pact
      .addInteraction()
      .given(STATES.customerExists)
      .uponReceiving('a customer password reset request')
      .withRequest('POST', '/api/customer/request_password_reset_customer', (b) =>
        b.headers(JSON_HEADERS).jsonBody({ dni: CUSTOMER.document_number }),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({ message: like('Si el documento está registrado, enviaremos un enlace de recuperación a su correo.') }),
      )
      .executeTest(async (mock) => {
        const res = await apiFor(mock.url).requestPasswordReset('customer', CUSTOMER.document_number);
        expect(res.message.length).toBeGreaterThan(0);
      });
  });

  it('row 6: sets a new password with a valid reset token', async () => {
    await pact
      .addInteraction()
      .given(STATES.staffResetTokenExists, { token: RESET_TOKEN })
      .uponReceiving('a new password with a valid reset token')
      .withRequest('POST', '/api/password_reset_collaborator', (b) =>
        b.headers(JSON_HEADERS).jsonBody({ id: RESET_TOKEN, password: 'NuevaClave#2026' }),
      )
      .willRespondWith(200, (b) => b.jsonBody({ message: like('Contraseña actualizada. Ya puede iniciar sesión.') }))
      .executeTest(async (mock) => {
        const res = await apiFor(mock.url).resetPassword('collaborator', RESET_TOKEN, 'NuevaClave#2026');
        expect(res.message.length).toBeGreaterThan(0);
      });
  });

  it('row 6: rejects an unknown reset token with a field error', async () => {
    const unknown = '0'.repeat(64);
    await pact
      .addInteraction()
      .given(STATES.staffExists)
      .uponReceiving('a new password with an unknown reset token')
      .withRequest('POST', '/api/password_reset_collaborator', (b) =>
        b.headers(JSON_HEADERS).jsonBody({ id: unknown, password: 'NuevaClave#2026' }),
      )
      .willRespondWith(422, (b) => b.jsonBody(errorBody('El enlace de recuperación no es válido o ha expirado', 'id')))
      .executeTest(async (mock) => {
        const error = await caught(apiFor(mock.url).resetPassword('collaborator', unknown, 'NuevaClave#2026'));
        expect(error.status).toBe(422);
        expect(error.issues.id?.[0]).toBe('El enlace de recuperación no es válido o ha expirado');
      });
  });

  it('checks a valid reset link on arrival without using it', async () => {
    await pact
      .addInteraction()
      .given(STATES.staffResetTokenExists, { token: RESET_TOKEN })
      .uponReceiving('a check of a valid reset link')
      .withRequest('GET', '/api/password_reset_collaborator', (b) => b.query({ id: RESET_TOKEN }))
      .willRespondWith(200, (b) => b.jsonBody({ message: like('El enlace de recuperación es válido') }))
      .executeTest(async (mock) => {
        const res = await apiFor(mock.url).checkResetLink('collaborator', RESET_TOKEN);
        expect(res.message.length).toBeGreaterThan(0);
      });
  });

  it('checks an unknown reset link: a field error on id', async () => {
    const unknown = '0'.repeat(64);
    await pact
      .addInteraction()
      .given(STATES.staffExists)
      .uponReceiving('a check of an unknown reset link')
      .withRequest('GET', '/api/password_reset_collaborator', (b) => b.query({ id: unknown }))
      .willRespondWith(422, (b) => b.jsonBody(errorBody('El enlace de recuperación no es válido o ha expirado', 'id')))
      .executeTest(async (mock) => {
        const error = await caught(apiFor(mock.url).checkResetLink('collaborator', unknown));
        expect(error.status).toBe(422);
        expect(error.issues.id?.[0]).toBe('El enlace de recuperación no es válido o ha expirado');
      });
  });

  it('row 7: logs out', async () => {
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a logout')
      .withRequest('POST', '/api/auth/logout', (b) => formRequest(b, STAFF_TOKEN, { user_type: 'COLLABORATOR' }))
      .willRespondWith(200, (b) => b.jsonBody({ message: like('Sesión cerrada') }))
      .executeTest(async (mock) => {
        const res = await apiFor(mock.url, STAFF_TOKEN).logout('COLLABORATOR');
        expect(res.message.length).toBeGreaterThan(0);
      });
  });

  it('row 8: saves the staff style settings', async () => {
    const styles = { primary: 'blue', surface: 'zinc', preset: 'Nora', menuMode: 'overlay', darkTheme: true } as const;
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a style settings save')
      .withRequest('POST', '/api/store_or_update_user_style_config', (b) => formRequest(b, STAFF_TOKEN, { styles: JSON.stringify(styles) }))
      .willRespondWith(200, (b) => b.jsonBody({ message: like('Estilos guardados') }))
      .executeTest(async (mock) => {
        const res = await apiFor(mock.url, STAFF_TOKEN).storeStyles(styles);
        expect(res.message.length).toBeGreaterThan(0);
      });
  });

  it('row 9: lists the active locations without a token', async () => {
    await pact
      .addInteraction()
      .given(STATES.activeLocalsExist)
      .uponReceiving('a request for the active locations')
      .withRequest('GET', '/api/private/ver_locales_activos')
      .willRespondWith(200, (b) =>
        // docs/product.md §3 "Local … fields not shown": the reader requires the id and the name only.
        b.jsonBody({ message: eachLike({ id: integer(1), name: like('Sede Central - Lima') }) }),
      )
      .executeTest(async (mock) => {
        const locals = await apiFor(mock.url).activeLocals();
        expect(locals[0]?.name.length).toBeGreaterThan(0);
      });
  });

  it('row 10: lists role names and ids as parallel lists', async () => {
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a request for the role names')
      .withRequest('GET', '/api/private/roles_name', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) => b.jsonBody({ message: eachLike('Administrador'), id: eachLike(1) }))
      .executeTest(async (mock) => {
        const roles = await apiFor(mock.url, STAFF_TOKEN).roleNames();
        expect(roles[0]).toEqual({ name: 'Administrador', code: 1 });
      });
  });

  it('row 11: lists the permissions of the signed-in user', async () => {
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a request for the permissions')
      .withRequest('GET', '/api/private/api/roles_permissions', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) => b.jsonBody({ permissions: eachLike('Acceso módulo configuración') }))
      .executeTest(async (mock) => {
        const permissions = await apiFor(mock.url, STAFF_TOKEN).rolePermissions();
        expect(permissions).toContain('Acceso módulo configuración');
      });
  });

  it('row 11: answers 401 to a token that is not valid', async () => {
    const stale = 'b'.repeat(64);
    await pact
      .addInteraction()
      .given(STATES.staffExists)
      .uponReceiving('a request for the permissions with a token that is not valid')
      .withRequest('GET', '/api/private/api/roles_permissions', (b) => b.headers(bearer(stale)))
      .willRespondWith(401, (b) => b.jsonBody({ message: like('Sesión no válida o expirada') }))
      .executeTest(async (mock) => {
        const error = await caught(apiFor(mock.url, stale).rolePermissions());
        expect(error.status).toBe(401);
      });
  });

  it('row 11: answers 402 when the company subscription has lapsed', async () => {
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .given(STATES.subscriptionLapsed)
      .uponReceiving('a request for the permissions while the subscription has lapsed')
      .withRequest('GET', '/api/private/api/roles_permissions', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(402, (b) => b.jsonBody({ message: like('La suscripción de la empresa está vencida') }))
      .executeTest(async (mock) => {
        const error = await caught(apiFor(mock.url, STAFF_TOKEN).rolePermissions());
        expect(error.status).toBe(402);
      });
  });

  it('row 15: changes the password', async () => {
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a password change with the right current password')
      .withRequest('POST', '/api/change_password_user', (b) =>
        formRequest(b, STAFF_TOKEN, { actual_password: STAFF.password, new_password: 'OtraClave#2026' }),
      )
      .willRespondWith(200, (b) => b.jsonBody({ message: like('Contraseña actualizada correctamente') }))
      .executeTest(async (mock) => {
        const res = await apiFor(mock.url, STAFF_TOKEN).changePassword(STAFF.password, 'OtraClave#2026');
        expect(res.message.length).toBeGreaterThan(0);
      });
  });

  it('row 15: rejects a wrong current password', async () => {
    await pact
      .addInteraction()
      .given(STATES.customerSignedIn, { token: CUSTOMER_TOKEN })
      .uponReceiving('a password change with a wrong current password')
      .withRequest('POST', '/api/change_password_user', (b) =>
        formRequest(b, CUSTOMER_TOKEN, { actual_password: 'no-es-la-clave', new_password: 'OtraClave#2026' }),
      )
      .willRespondWith(422, (b) => b.jsonBody(errorBody('La contraseña actual es incorrecta', 'actual_password')))
      .executeTest(async (mock) => {
        const error = await caught(apiFor(mock.url, CUSTOMER_TOKEN).changePassword('no-es-la-clave', 'OtraClave#2026'));
        expect(error.status).toBe(422);
        expect(error.issues.actual_password?.[0]).toBe('La contraseña actual es incorrecta');
      });
  });
});
