import { beforeAll, describe, expect, it } from 'vitest';
import {
  MARK_SEEN_IDS_MESSAGE,
  NOTIFICATION_LIST_LIMIT,
  NOTIFICATION_TYPE_CODES,
  NOTIFICATIONS_EVENT_NAME,
  notificationsMessageEventSchema,
  notificationsResponseSchema,
} from '../../src/schemas/notification';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { MESSAGES } from '../../server/errors';
import { HOUR_MS } from '../../server/clock';
import { AUTH_MESSAGES } from '../../server/auth/auth.service';
import { listNotificationTypes } from '../../server/notifications/notifications.repository';
import {
  formatLimaDateTime,
  NOTIFICATION_MESSAGES,
  NOTIFICATION_TEXTS,
  sanitizeDetail,
} from '../../server/notifications/notifications.service';
import {
  createCustomer,
  createNotification,
  createResetToken,
  createSession,
  createStaff,
  type CustomerFixture,
  type StaffFixture,
} from '../../server/testing/fixtures';
import { bearer, dialects, getWithToken, postFormWithToken, recordingBroadcaster, useTestApp, useTestDatabase } from './harness';

/** docs/product.md §7 rows 12–14, the admin send route, and the notifications raised by rows 1, 6 and 15. */

const STAFF_LIST = '/api/get_notifications_by_user';
const CUSTOMER_LIST = '/api/customer/get_notifications_by_user';
const MARK_SEEN = '/api/update_to_seen_notifications';
const SEND = '/api/notifications';

const ADMIN_PERMISSIONS = [MODULE.configuracion, SUBMODULE.usuarios, MODULE.crm, SUBMODULE.clientes];
const ASESOR_PERMISSIONS = [MODULE.crm, SUBMODULE.clientes, SUBMODULE.leads, MODULE.comercial, SUBMODULE.ventas];

describe('notification helpers', () => {
  it('formats instants as Lima wall time (UTC−5)', () => {
    expect(formatLimaDateTime('2026-03-02T03:04:05.000Z')).toBe('2026-03-01 22:04:05');
    expect(formatLimaDateTime('2026-12-31T23:59:59Z')).toBe('2026-12-31 18:59:59');
  });

  it('sanitises detail HTML: scripts, handlers and javascript: URLs go, formatting stays', () => {
    expect(sanitizeDetail('<p onclick="x()">Hola <b>mundo</b><script>alert(1)</script></p>')).toBe('<p>Hola <b>mundo</b></p>');
    expect(sanitizeDetail('<a href="javascript:alert(1)">x</a>')).toBe('<a rel="noopener noreferrer">x</a>');
    expect(sanitizeDetail('<a href="/Crm/Clientes" target="_top">ver</a>')).toBe(
      '<a href="/Crm/Clientes" rel="noopener noreferrer">ver</a>',
    );
    expect(sanitizeDetail('<img src=x onerror=alert(1)><iframe src="//evil"></iframe>')).toBe('');
  });
});

describe.each(dialects)('notifications (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const broadcaster = recordingBroadcaster();
  const ctx = useTestApp(db, {}, { broadcaster });
  let admin: StaffFixture;
  let asesor: StaffFixture;
  let other: StaffFixture;
  let customer: CustomerFixture;
  let tokens: { admin: string; asesor: string; other: string; customer: string };

  beforeAll(async () => {
    admin = await createStaff(db(), { permissions: ADMIN_PERMISSIONS });
    asesor = await createStaff(db(), { permissions: ASESOR_PERMISSIONS });
    other = await createStaff(db(), { permissions: [MODULE.configuracion] });
    customer = await createCustomer(db());
    tokens = {
      admin: await createSession(db(), admin),
      asesor: await createSession(db(), asesor),
      other: await createSession(db(), other),
      customer: await createSession(db(), customer),
    };
  });

  const list = async (url: string, token: string) => {
    const res = await getWithToken(ctx().app, url, token);
    expect(res.statusCode).toBe(200);
    return notificationsResponseSchema.parse(res.json()).data;
  };
  const recordedEvents = () => broadcaster.events.splice(0);

  it('has the documented type catalogue', async () => {
    const types = await listNotificationTypes(db());
    expect(types.map((t) => t.code)).toEqual([...NOTIFICATION_TYPE_CODES]);
    for (const t of types) expect(t.color_icon).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('lists the caller’s notifications newest first, counting every unseen one (row 12)', async () => {
    const owner = await createStaff(db());
    const token = await createSession(db(), owner);
    const oldId = await createNotification(db(), owner, { title: 'Antigua', createdAt: '2026-03-01T10:00:00.000Z', seen: true });
    const newId = await createNotification(db(), owner, {
      type: 'PAYMENT',
      title: 'Nueva',
      detail: '<p>Pago <b>recibido</b></p>',
      route: '/Finanzas/Pagos',
      createdAt: '2026-03-02T15:30:45.000Z',
    });
    const midId = await createNotification(db(), owner, { title: 'Intermedia', createdAt: '2026-03-01T20:00:00.000Z' });
    await createNotification(db(), asesor, { title: 'De otro usuario' });
    await createNotification(db(), { userType: 'CUSTOMER', accountId: owner.id }, { title: 'Cliente con el mismo id' });

    const data = await list(STAFF_LIST, token);
    expect(data.notification_quantity).toBe(2);
    expect(data.notification.map((n) => n.id_notification)).toEqual([newId, midId, oldId]);
    expect(data.notification[0]).toEqual({
      id_notification: newId,
      type: { code: 'PAYMENT', name: 'Pago', icon: 'dollar', color_icon: '#14b8a6' },
      title: 'Nueva',
      detail: '<p>Pago <b>recibido</b></p>',
      created_at_formatted: '2026-03-02 10:30:45',
      fecha_creacion: '2026-03-02T15:30:45.000Z',
      new: true,
      route: '/Finanzas/Pagos',
    });
    expect(data.notification[2]).toMatchObject({ title: 'Antigua', new: false, route: null });
  });

  it(`returns at most ${NOTIFICATION_LIST_LIMIT} notifications but counts all unseen`, async () => {
    const owner = await createStaff(db());
    for (let i = 0; i < NOTIFICATION_LIST_LIMIT + 5; i += 1) {
      await createNotification(db(), owner, { title: `N${i}`, createdAt: new Date(Date.UTC(2026, 0, 1) + i * HOUR_MS) });
    }
    const data = await list(STAFF_LIST, await createSession(db(), owner));
    expect(data.notification).toHaveLength(NOTIFICATION_LIST_LIMIT);
    expect(data.notification_quantity).toBe(NOTIFICATION_LIST_LIMIT + 5);
    expect(data.notification[0]?.title).toBe(`N${NOTIFICATION_LIST_LIMIT + 4}`);
  });

  it('serves customers on the customer base only, and staff on the staff base only (rows 12–13)', async () => {
    // Other tests store notifications for CUSTOMER ids equal to staff ids: compare with a baseline.
    const someone = await createCustomer(db());
    const token = await createSession(db(), someone);
    const baseline = await list(CUSTOMER_LIST, token);
    const id = await createNotification(db(), someone, { title: 'Su compra' });
    await createNotification(db(), { userType: 'COLLABORATOR', accountId: someone.id }, { title: 'Staff con el mismo id' });

    const data = await list(CUSTOMER_LIST, token);
    expect(data.notification_quantity).toBe(baseline.notification_quantity + 1);
    expect(data.notification[0]).toMatchObject({ id_notification: id, title: 'Su compra' });
    expect(data.notification.map((n) => n.title)).not.toContain('Staff con el mismo id');

    expect((await getWithToken(ctx().app, STAFF_LIST, token)).statusCode).toBe(403);
    expect((await getWithToken(ctx().app, CUSTOMER_LIST, tokens.asesor)).statusCode).toBe(403);
    for (const url of [STAFF_LIST, CUSTOMER_LIST]) {
      const res = await ctx().app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: MESSAGES.unauthenticated });
    }
  });

  it('answers an empty list for an account without notifications', async () => {
    const fresh = await createStaff(db());
    expect(await list(STAFF_LIST, await createSession(db(), fresh))).toEqual({ notification_quantity: 0, notification: [] });
  });

  it('marks only the caller’s own notifications as seen; other ids are never touched (row 14)', async () => {
    const owner = await createStaff(db());
    const token = await createSession(db(), owner);
    const mine = [await createNotification(db(), owner), await createNotification(db(), owner), await createNotification(db(), owner)];
    const theirs = await createNotification(db(), asesor);
    const customerSameId = await createNotification(db(), { userType: 'CUSTOMER', accountId: owner.id });

    const res = await postFormWithToken(ctx().app, MARK_SEEN, token, {
      ids_notifications: JSON.stringify([mine[0], mine[1], theirs, customerSameId, 999_999]),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: NOTIFICATION_MESSAGES.markedSeen });

    const data = await list(STAFF_LIST, token);
    expect(data.notification_quantity).toBe(1);
    expect(data.notification.filter((n) => n.new).map((n) => n.id_notification)).toEqual([mine[2]]);
    const untouched = await db()
      .selectFrom('notifications')
      .select(['id', 'seen_at'])
      .where('id', 'in', [theirs, customerSameId])
      .execute();
    expect(untouched.map((r) => r.seen_at)).toEqual([null, null]);

    // Seen stays seen (the first instant is kept); an empty list is accepted.
    const seenAt = await db().selectFrom('notifications').select('seen_at').where('id', '=', mine[0]!).executeTakeFirstOrThrow();
    ctx().clock.advance(HOUR_MS);
    expect((await postFormWithToken(ctx().app, MARK_SEEN, token, { ids_notifications: JSON.stringify([mine[0]]) })).statusCode).toBe(200);
    expect((await postFormWithToken(ctx().app, MARK_SEEN, token, { ids_notifications: '[]' })).statusCode).toBe(200);
    expect(await db().selectFrom('notifications').select('seen_at').where('id', '=', mine[0]!).executeTakeFirstOrThrow()).toEqual(seenAt);
  });

  it('lets customers mark their own notifications as seen (row 14)', async () => {
    const someone = await createCustomer(db());
    const token = await createSession(db(), someone);
    const baseline = (await list(CUSTOMER_LIST, token)).notification_quantity;
    const id = await createNotification(db(), someone);
    const staffSameId = await createNotification(db(), { userType: 'COLLABORATOR', accountId: someone.id });
    expect((await list(CUSTOMER_LIST, token)).notification_quantity).toBe(baseline + 1);
    expect((await postFormWithToken(ctx().app, MARK_SEEN, token, { ids_notifications: `[${id},${staffSameId}]` })).statusCode).toBe(200);
    expect((await list(CUSTOMER_LIST, token)).notification_quantity).toBe(baseline);
    const staffRow = await db().selectFrom('notifications').select('seen_at').where('id', '=', staffSameId).executeTakeFirstOrThrow();
    expect(staffRow.seen_at).toBeNull();
  });

  it.each([
    ['not JSON', 'abc'],
    ['not a list', '{"id":1}'],
    ['not integers', '["a"]'],
    ['negative ids', '[-1]'],
    ['too long', JSON.stringify(Array.from({ length: 501 }, (_, i) => i + 1))],
  ])('rejects ids_notifications that is %s with 422', async (_label, value) => {
    const res = await postFormWithToken(ctx().app, MARK_SEEN, tokens.asesor, { ids_notifications: value });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ ids_notifications: [MARK_SEEN_IDS_MESSAGE] });
  });

  it('requires a token to mark as seen', async () => {
    const res = await ctx().app.inject({
      method: 'POST',
      url: MARK_SEEN,
      payload: 'ids_notifications=%5B1%5D',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(401);
  });

  describe('admin send (POST /api/notifications)', () => {
    const send = (token: string, payload: unknown) =>
      ctx().app.inject({ method: 'POST', url: SEND, payload: payload as Record<string, unknown>, headers: bearer(token) });

    it('stores, lists and broadcasts a notification to explicit staff recipients', async () => {
      recordedEvents();
      const res = await send(tokens.admin, {
        recipients: { user_type: 'COLLABORATOR', ids: [asesor.id] },
        type: 'WARNING',
        title: 'Mantenimiento',
        detail: '<p>El sistema se <b>reiniciará</b> a las 22:00.<script>alert(1)</script></p>',
        route: '/Configuracion/Usuarios',
      });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body).toEqual({ message: NOTIFICATION_MESSAGES.sent, data: { recipients: 1, ids_notifications: [expect.any(Number)] } });

      const data = await list(STAFF_LIST, tokens.asesor);
      const stored = data.notification.find((n) => n.id_notification === body.data.ids_notifications[0]);
      expect(stored).toMatchObject({
        title: 'Mantenimiento',
        detail: '<p>El sistema se <b>reiniciará</b> a las 22:00.</p>',
        new: true,
        route: '/Configuracion/Usuarios',
        type: { code: 'WARNING', icon: 'warning-sign' },
      });

      const events = recordedEvents();
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ channel: `private-administration.notifications.${asesor.id}`, event: NOTIFICATIONS_EVENT_NAME });
      const payload = notificationsMessageEventSchema.parse(events[0]?.data);
      expect(payload.tipo_operacion).toBe('NEW_NOTIFICATION');
      expect(payload.message).toEqual({ ids_users: [asesor.id], notification: stored });
    });

    it('sends to customers on their channel', async () => {
      recordedEvents();
      const res = await send(tokens.admin, {
        recipients: { user_type: 'CUSTOMER', ids: [customer.id] },
        type: 'SALE',
        title: 'Venta',
        detail: 'Su lote fue separado',
      });
      expect(res.statusCode).toBe(201);
      expect((await list(CUSTOMER_LIST, tokens.customer)).notification[0]).toMatchObject({
        title: 'Venta',
        detail: 'Su lote fue separado',
        route: null,
      });
      expect(recordedEvents().map((e) => e.channel)).toEqual([`private-administration.notifications_customers.${customer.id}`]);
    });

    it('targets every active staff user holding a permission', async () => {
      const inactive = await createStaff(db(), { permissions: [SUBMODULE.leads], status: 'INACTIVO' });
      const holder = await createStaff(db(), { permissions: [SUBMODULE.leads] });
      recordedEvents();
      const res = await send(tokens.admin, {
        recipients: { permission: SUBMODULE.leads },
        type: 'INFO',
        title: 'Leads',
        detail: 'Nuevos leads',
      });
      expect(res.statusCode).toBe(201);
      const channels = recordedEvents().map((e) => e.channel);
      expect(channels).toContain(`private-administration.notifications.${asesor.id}`);
      expect(channels).toContain(`private-administration.notifications.${holder.id}`);
      expect(channels).not.toContain(`private-administration.notifications.${inactive.id}`);
      expect(channels).not.toContain(`private-administration.notifications.${admin.id}`);
      expect(res.json().data.recipients).toBe(channels.length);
    });

    it('enforces the permission matrix: admin 201, asesor 403, module without submodule 403, customer 403, no token 401', async () => {
      const body = { recipients: { user_type: 'COLLABORATOR', ids: [admin.id] }, type: 'INFO', title: 'Hola', detail: 'Prueba' };
      expect((await send(tokens.admin, body)).statusCode).toBe(201);
      for (const token of [tokens.asesor, tokens.other, tokens.customer]) {
        const res = await send(token, body);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ message: MESSAGES.forbidden });
      }
      expect((await ctx().app.inject({ method: 'POST', url: SEND, payload: body })).statusCode).toBe(401);
    });

    it.each([
      ['an unknown type', { type: 'NOPE' }, 'type', NOTIFICATION_MESSAGES.unknownType],
      [
        'an unknown recipient',
        { recipients: { user_type: 'CUSTOMER', ids: [987_654] } },
        'recipients.ids',
        `${NOTIFICATION_MESSAGES.unknownRecipients}: 987654`,
      ],
      ['a detail with nothing allowed', { detail: '<script>alert(1)</script>' }, 'detail', NOTIFICATION_MESSAGES.emptyDetail],
      ['an off-site route', { route: '//evil.example/x' }, 'route', 'La ruta debe ser una ruta de la aplicación (empieza con /)'],
      ['an unknown key', { extra: 1 }, 'extra', MESSAGES.unknownField],
      ['an empty title', { title: '  ' }, 'title', 'Ingrese un título'],
    ])('rejects %s with 422 and stores nothing', async (_label, override, field, message) => {
      const before = await db()
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      const res = await send(tokens.admin, {
        recipients: { user_type: 'COLLABORATOR', ids: [asesor.id] },
        type: 'INFO',
        title: 'Título',
        detail: 'Detalle',
        ...override,
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors[field]).toEqual([message]);
      const after = await db()
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });
  });

  describe('notifications raised by the server', () => {
    it('tells the account "Contraseña actualizada" when its password changes (row 15)', async () => {
      const owner = await createStaff(db());
      const token = await createSession(db(), owner);
      recordedEvents();
      const res = await postFormWithToken(ctx().app, '/api/change_password_user', token, {
        actual_password: owner.password,
        new_password: 'Otra#Clave2026',
      });
      expect(res.json()).toEqual({ message: AUTH_MESSAGES.passwordChanged });
      const data = await list(STAFF_LIST, token);
      expect(data.notification_quantity).toBe(1);
      // The manual clock starts at 2026-03-02T15:00Z = 10:00 in Lima.
      expect(data.notification[0]).toMatchObject({
        title: NOTIFICATION_TEXTS.passwordChangedTitle,
        type: { code: 'SECURITY' },
        new: true,
        route: null,
        created_at_formatted: '2026-03-02 10:00:00',
      });
      // Its text writes the date as the product does, dd/mm/yyyy in Lima (docs/decisions.md "Customer journey details (accessibility)").
      expect(data.notification[0]?.detail).toBe(
        '<p>Su contraseña se cambió el 02/03/2026 a las 10:00. Si no fue usted, comuníquese con el administrador.</p>',
      );
      expect(recordedEvents().map((e) => e.channel)).toEqual([`private-administration.notifications.${owner.id}`]);
    });

    it('stores nothing when the current password is wrong', async () => {
      const owner = await createCustomer(db());
      const token = await createSession(db(), owner);
      const before = (await list(CUSTOMER_LIST, token)).notification_quantity;
      const res = await postFormWithToken(ctx().app, '/api/change_password_user', token, {
        actual_password: 'mala',
        new_password: 'Otra#Clave2026',
      });
      expect(res.statusCode).toBe(422);
      expect((await list(CUSTOMER_LIST, token)).notification_quantity).toBe(before);
    });

    it('tells a customer "Contraseña actualizada" after a password reset (row 6)', async () => {
      const owner = await createCustomer(db());
      const resetToken = await createResetToken(db(), owner, { clock: ctx().clock });
      const res = await ctx().app.inject({
        method: 'POST',
        url: '/api/password_reset_customer',
        payload: { id: resetToken, password: 'Nueva#Clave2026' },
      });
      expect(res.statusCode).toBe(200);
      const rows = await db()
        .selectFrom('notifications')
        .select(['title', 'type_code', 'detail'])
        .where('recipient_type', '=', 'CUSTOMER')
        .where('recipient_id', '=', owner.id)
        .execute();
      expect(rows).toEqual([
        {
          title: NOTIFICATION_TEXTS.passwordChangedTitle,
          type_code: 'SECURITY',
          detail: '<p>Su contraseña se cambió el 02/03/2026 a las 10:00. Si no fue usted, comuníquese con el administrador.</p>',
        },
      ]);
    });

    it('tells every active staff user with CRM + Clientes about a new customer (row 1)', async () => {
      const crmOnly = await createStaff(db(), { permissions: [MODULE.crm] });
      recordedEvents();
      const res = await ctx().app.inject({
        method: 'POST',
        url: '/api/customer/register_user_customer',
        payload: {
          id_document_type: '1',
          document_number: '47000001',
          name: '<i>Ana</i>',
          surname: 'Torres',
          birthday_date: '1995-07-20',
          email: 'ana.notificada@parcela.test',
          phone: '912345678',
          password: 'Segura#2026',
        },
      });
      expect(res.statusCode).toBe(201);

      const channels = recordedEvents().map((e) => e.channel);
      expect(channels).toContain(`private-administration.notifications.${admin.id}`);
      expect(channels).toContain(`private-administration.notifications.${asesor.id}`);
      expect(channels).not.toContain(`private-administration.notifications.${crmOnly.id}`);
      expect(channels.every((c) => c.startsWith('private-administration.notifications.'))).toBe(true);

      const latest = (await list(STAFF_LIST, tokens.asesor)).notification.find((n) => n.title === NOTIFICATION_TEXTS.newCustomerTitle);
      expect(latest).toMatchObject({ title: NOTIFICATION_TEXTS.newCustomerTitle, type: { code: 'CUSTOMER' }, route: '/CRM/clientes' });
      // The name typed by the customer is text, never markup.
      expect(latest?.detail).toBe(
        '<p><b>&lt;i&gt;Ana&lt;/i&gt; Torres</b> se registró en el portal de clientes con el documento 47000001.</p>',
      );
    });

    it('stores no notification when the registration fails', async () => {
      const before = await db()
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      const res = await ctx().app.inject({
        method: 'POST',
        url: '/api/customer/register_user_customer',
        payload: {
          id_document_type: '1',
          document_number: '1',
          name: 'X',
          surname: 'Y',
          birthday_date: '1990-01-01',
          email: 'x@y.z',
          phone: '912345678',
          password: 'corta',
        },
      });
      expect(res.statusCode).toBe(422);
      const after = await db()
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });
  });
});
