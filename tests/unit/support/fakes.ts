/**
 * Test doubles shared by the unit and view tests of issue "Foundation": an in-memory storage, a
 * fake session api (every call a vi.fn), sample wire data and a login response.
 */
import { vi } from 'vitest';
import type { KeyValueStore } from '../../../src/lib/storage';
import type { SessionApi } from '../../../src/api/session';
import type { NotificationsApi } from '../../../src/api/notifications';
import type { Notification, NotificationsData } from '../../../src/schemas/notification';
import type { LoginData, RealtimeCredentials, SessionUser } from '../../../src/schemas/session';
import { ApiError } from '../../../src/api/client';

/** In-memory Storage (getItem/setItem/removeItem/clear) with a peek at the raw map. */
export function memoryStore(initial: Record<string, string> = {}): KeyValueStore & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, String(v)),
    removeItem: (k) => void data.delete(k),
    clear: () => data.clear(),
  };
}

export const TOKEN = 'a'.repeat(64);

export const sampleUser: SessionUser = {
  id: 7,
  name: 'Lucía',
  surname: 'Quispe Mamani',
  dni: '45678912',
  email: 'lucia@example.pe',
  phone: '987654321',
  status: 'ACTIVO',
  roles: ['Administrador'],
  permissions_names: [
    {
      nombre: 'Configuración',
      icono: 'cog',
      items: [{ nombre: 'Usuarios', ruta: '/Configuracion/Usuarios', icono: 'people' }],
    },
  ],
};

export const loginData: LoginData = {
  token: TOKEN,
  type: 'COLLABORATOR',
  system_styles: null,
  user: sampleUser,
};

export const realtime: RealtimeCredentials = {
  echo_info: {
    broadcaster: 'pusher',
    key: 'parcela-key',
    cluster: 'mt1',
    encrypted: true,
    wsHost: null,
    wsPort: null,
    forceTLS: false,
    authEndpoint: '/broadcasting/auth',
  },
  channels: {
    'administration.notifications': { channel: 'notifications' },
    'administration.notifications_customers': { channel: 'notifications_customers' },
  },
};

export const locals = [{ id: 1, name: 'Sede Central - Lima', address: 'Av. Arequipa 123, Lima' }];
export const roles = [{ name: 'Administrador', code: 1 }];
export const permissions = ['Acceso módulo configuración', 'Acceso submódulo usuarios'];

/** A fake session api whose calls succeed with the sample data unless overridden. */
export function fakeSessionApi(overrides: Partial<SessionApi> = {}): SessionApi {
  return {
    registerCustomer: vi.fn(async () => ({ message: 'Registro exitoso', data: { id: 1 } })),
    login: vi.fn(async () => loginData),
    realtimeCredentials: vi.fn(async () => realtime),
    requestPasswordReset: vi.fn(async () => ({ message: 'Le enviamos un enlace a su correo' })),
    checkResetLink: vi.fn(async () => ({ message: 'El enlace de recuperación es válido' })),
    resetPassword: vi.fn(async () => ({ message: 'Contraseña actualizada' })),
    logout: vi.fn(async () => ({ message: 'Sesión cerrada' })),
    storeStyles: vi.fn(async () => ({ message: 'ok' })),
    activeLocals: vi.fn(async () => locals),
    roleNames: vi.fn(async () => roles),
    rolePermissions: vi.fn(async () => permissions),
    changePassword: vi.fn(async () => ({ message: 'ok' })),
    ...overrides,
  };
}

/** Writes a logged-in session into a store (token, type, user_details, accesos, local_active). */
export function seedSession(
  store: KeyValueStore,
  { perms = permissions, withLocals = true }: { perms?: string[]; withLocals?: boolean } = {},
): void {
  store.setItem('token', TOKEN);
  store.setItem('type', 'COLLABORATOR');
  store.setItem('user_details', JSON.stringify(sampleUser));
  store.setItem('accesos', JSON.stringify(perms));
  if (withLocals) store.setItem('local_active', JSON.stringify(locals));
}

export const apiError = (status: number, message: string, issues: Record<string, string[]> = {}) => new ApiError(status, message, issues);

/** A notification as rows 12–13 list it (docs/product.md §3); `overrides` change any field. */
export function sampleNotification(overrides: Partial<Notification> = {}): Notification {
  return {
    id_notification: 1,
    type: { code: 'INFO', name: 'Información', icon: 'info-sign', color_icon: '#3b82f6' },
    title: 'Nuevo cliente registrado',
    detail: '<p>Se registró <b>Mariela Paredes</b></p>',
    created_at_formatted: '2025-06-15 09:00:00',
    fecha_creacion: '2025-06-15T14:00:00Z',
    new: true,
    route: '/Crm/Clientes',
    ...overrides,
  };
}

/** A fake notifications api (rows 12–14) whose list answers `data` (empty by default). */
export function fakeNotificationsApi(
  data: NotificationsData = { notification_quantity: 0, notification: [] },
  overrides: Partial<NotificationsApi> = {},
): NotificationsApi {
  return {
    list: vi.fn(async () => data),
    markSeen: vi.fn(async () => ({ message: 'Notificaciones marcadas como vistas' })),
    send: vi.fn(async () => ({ message: 'Notificación enviada', data: { recipients: 1, ids_notifications: [1] } })),
    ...overrides,
  };
}
